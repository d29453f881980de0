#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Checks over the files of a source tree: `make lint` runs both on this
# repository (tree.sh all .), tests/lint/test_lint.sh each on a planted bad
# copy.
#
#   tree.sh outside DIR   no file reaches for data outside the tree: every file
#                         a test reads lives in tests/data/, so a path to a
#                         "shared" folder beside or above the checkout means a
#                         fresh clone would fail
#   tree.sh spdx DIR      every source file (*.c *.h *.S *.sh *.py *.mk and
#                         Makefiles; tests/data/ excepted) names its licence,
#                         "SPDX-License-Identifier: BSD-2-Clause", in its first
#                         3 lines (line 2 after a #! line)
#   tree.sh all DIR       both, each offender with what it lacks, then one
#                         line: "lint: tree: N file(s) to fix"
#
# The files are those git tracks when DIR is the top of a git checkout (else
# every file but .git/ and build*/).  Prints each offending file, one per line, relative
# to DIR, and exits 1 when there is any, 2 on bad usage.
set -u
what=${1:-} dir=${2:-}
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
	echo "usage: tree.sh outside|spdx|all DIR" >&2
	exit 2
fi
if [ "$what" = all ]; then
	n=0
	for check in outside spdx; do
		out=$(sh "$0" "$check" "$dir")
		case $? in
		0) continue ;;
		1) ;;
		*) echo "lint: tree: $check could not look"; exit 2 ;;
		esac
		case $check in
		outside) echo "tree: these refer to data outside the tree (tests/data/ holds it):" ;;
		spdx) echo "tree: these lack 'SPDX-License-Identifier: BSD-2-Clause' in their first 3 lines:" ;;
		esac
		printf '%s\n' "$out" | sed 's/^/  /'
		n=$((n + $(printf '%s\n' "$out" | wc -l)))
	done
	echo "lint: tree: $n file(s) to fix (outside, spdx)"
	[ "$n" -eq 0 ]
	exit
fi
cd "$dir" || exit 2

files() {
	if [ -e .git ] && command -v git >/dev/null 2>&1; then
		git ls-files
	else
		find . \( -path ./.git -o -path './build*' \) -prune -o -type f -print | sed 's|^\./||'
	fi
}

bad=0
case $what in
outside)
	# Built from pieces so that this file does not match itself.
	shared=shared
	pattern="(\\.\\./|/work/)$shared"
	found=$(files | tr '\n' '\0' | xargs -0 -r grep -l -E -e "$pattern" -- 2>/dev/null)
	[ -n "$found" ] && printf '%s\n' "$found" && bad=1
	;;
spdx)
	tag="SPDX-License-Identifier: BSD-2-Clause"
	# One awk reads the first 3 lines of every file (a process per file
	# would be hundreds); an empty file has no first line and no tag either.
	found=$(files | grep -v '^tests/data/' | grep -E '(\.(c|h|S|sh|py|mk)|(^|/)Makefile)$' | tr '\n' '\0' |
		xargs -0 -r awk -v tag="$tag" '
			FNR == 1 { if (file != "" && !ok) print file; file = FILENAME; ok = 0 }
			FNR <= 3 && index($0, tag) { ok = 1 }
			FNR == 3 { if (!ok) print FILENAME; file = ""; nextfile }
			END { if (file != "" && !ok) print file }' 2>/dev/null
		files | grep -v '^tests/data/' | grep -E '(\.(c|h|S|sh|py|mk)|(^|/)Makefile)$' |
		while IFS= read -r f; do [ -f "$f" ] && [ ! -s "$f" ] && printf '%s\n' "$f"; done)
	[ -n "$found" ] && printf '%s\n' "$found" && bad=1
	;;
*)
	echo "usage: tree.sh outside|spdx|all DIR" >&2
	exit 2
	;;
esac
exit $bad
