#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clang-format (.clang-format) on the lines of C files that changed since the
# commit tests/lint/base.sh names, committed or not: new code keeps the
# tree's style, and the tree itself is never reformatted.  A new file counts
# once git knows it (git add -N FILE).  Prints the diff clang-format would
# apply, then one summary line,
#   lint: clang-format: N changed line(s) to reformat, in M file(s)
# and exits 1 when there is any, 2 when it could not look.  Run from the top
# of a git checkout.  CLANG_FORMAT names the binary (default clang-format).
#
#   format.sh
CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
for tool in "$CLANG_FORMAT" git-clang-format; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "lint: $tool not found (tests/deps.sh lists clang-format)" >&2
		exit 2
	fi
done
if ! base=$(sh "$(dirname "$0")/base.sh"); then
	echo "lint: clang-format: no commit to compare with (tests/lint/base.sh)" >&2
	exit 2
fi
out=$(git clang-format --binary "$(command -v "$CLANG_FORMAT")" --style file --extensions c,h \
	--diff "$base" -- 2>&1)
rc=$?
since=$(git rev-parse --short "$base")
if [ "$rc" -ne 0 ]; then
	printf '%s\n' "$out"
	echo "lint: clang-format: git clang-format failed (exit $rc)"
	exit 2
fi
# git-clang-format 14 exits 0 with a diff too: the diff is the finding.
if ! printf '%s\n' "$out" | grep -q '^diff --git '; then
	echo "lint: clang-format: 0 changed line(s) to reformat (since $since)"
	exit 0
fi
printf '%s\n' "$out"
lines=$(printf '%s\n' "$out" | grep -c '^-[^-]')
files=$(printf '%s\n' "$out" | grep -c '^diff --git ')
echo "lint: clang-format: $lines changed line(s) to reformat, in $files file(s) (since $since)"
exit 1
