#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs shellcheck (.shellcheckrc) on every shell script of the tree in DIR:
# the files named *.sh and those whose first line runs sh or bash (.ci/run,
# the Debian maintainer scripts, debian/grub/25_tickprobe); test data
# (tests/data/, tests/fuzz/corpus/) is not the tree's code.  The files are those
# git tracks when DIR is the top of a git checkout (untracked, unignored ones
# too), else every file but .git/ and build*/.  Prints the findings, then
#   lint: shellcheck: N finding(s) in M file(s), K checked
# and exits 1 when there is any, 2 when it could not look.
#
#   sh tests/lint/shellcheck.sh DIR
#
# Run in DIR, so that `. tests/lib/check.sh` is followed (-x) from there.
dir=${1:-}
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
	echo "usage: sh tests/lint/shellcheck.sh DIR" >&2
	exit 2
fi
if ! command -v shellcheck >/dev/null 2>&1; then
	echo "lint: shellcheck not found (tests/deps.sh lists it)" >&2
	exit 2
fi
cd "$dir" || exit 2

files() {
	if [ -e .git ] && command -v git >/dev/null 2>&1; then
		git ls-files -co --exclude-standard
	else
		find . \( -path ./.git -o -path './build*' \) -prune -o -type f -print | sed 's|^\./||'
	fi
}

list=$(mktemp) || exit 2
trap 'rm -f "$list"' EXIT
# One awk reads the first line of every file: a process per file would be
# thousands.
files | grep -v -E '^(tests/data|tests/fuzz/corpus)/' | tr '\n' '\0' | xargs -0 -r awk '
	FNR == 1 {
		if (FILENAME ~ /\.sh$/ || $0 ~ /^#! *(\/usr)?\/bin\/(env +)?(ba)?sh( |$)/)
			print FILENAME
		nextfile
	}' 2>/dev/null | LC_ALL=C sort -u >"$list"
n=$(wc -l <"$list")
out=$(tr '\n' '\0' <"$list" | xargs -0 -r shellcheck -x -f gcc --)
rc=$?
[ -n "$out" ] && printf '%s\n' "$out"
found=$(printf '%s\n' "$out" | grep -c -E ':[0-9]+:[0-9]+: (error|warning|note|info|style): ')
bad=$(printf '%s\n' "$out" | grep -E ':[0-9]+:[0-9]+: ' | cut -d: -f1 | sort -u | grep -c .)
if [ "$rc" -ne 0 ] && [ "$found" -eq 0 ]; then
	echo "lint: shellcheck failed (exit $rc) without a finding"
	exit 2
fi
echo "lint: shellcheck: $found finding(s) in $bad file(s), $n checked"
[ "$found" -eq 0 ]
