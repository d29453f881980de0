#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Checks over the files of a source tree; tests/lint/test_lint.sh runs each on
# this repository and on a planted bad copy.
#
#   tree.sh outside DIR   no file reaches for data outside the tree: every file
#                         a test reads lives in tests/data/, so a path to a
#                         "shared" folder beside or above the checkout means a
#                         fresh clone would fail
#   tree.sh spdx DIR      every source file (*.c *.h *.S *.sh *.py *.mk and
#                         Makefiles; tests/data/ excepted) names its licence,
#                         "SPDX-License-Identifier: BSD-2-Clause", in its first
#                         3 lines (line 2 after a #! line)
#
# The files are those git tracks when DIR is the top of a git checkout (else
# every file but .git/ and build*/).  Prints each offending file, one per line, relative
# to DIR, and exits 1 when there is any, 2 on bad usage.
set -u
what=${1:-} dir=${2:-}
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
	echo "usage: tree.sh outside|spdx DIR" >&2
	exit 2
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
	found=$(files | grep -v '^tests/data/' | grep -E '(\.(c|h|S|sh|py|mk)|(^|/)Makefile)$' |
		while IFS= read -r f; do
			[ -f "$f" ] || continue
			head -n 3 "$f" | grep -q -F "$tag" || printf '%s\n' "$f"
		done)
	[ -n "$found" ] && printf '%s\n' "$found" && bad=1
	;;
*)
	echo "usage: tree.sh outside|spdx DIR" >&2
	exit 2
	;;
esac
exit $bad
