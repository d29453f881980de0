#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The comma operators of the C files that clang-tidy does not read: the unit
# tests, the fuzz harnesses, the benchmarks and the image's build tools.
# Their shape is held to the rule of the rest (.clang-tidy, clang-diagnostic-
# comma: `a = x, b = y;` is two statements on one line), their style is not
# clang-tidy's business, so the compiler's -Wcomma alone reads them.
#
#   comma.sh CC JOBS "FLAGS" FILES...
#
# Prints each comma operator, then one line,
#   lint: comma (tests): N comma operator(s) on M line(s) in K file(s)
# and exits 1 when there is one (COMMA_LINT=warn: only lists them) or when a
# file does not compile.  FLAGS are the host's, without -Werror (another
# warning is not this step's to judge) and without -DTICKPROBE_VERSION.
set -u
COMMA_LINT=${COMMA_LINT:-error}

if [ "${1:-}" = --one ]; then
	# One file, run in parallel by xargs below: its diagnostics, its status.
	# shellcheck disable=SC2086 # FLAGS is a list of words
	"$2" -fsyntax-only -Wcomma $3 -DTICKPROBE_VERSION='"lint"' "$4" >"$5" 2>&1
	echo $? >"$5.rc"
	exit 0
fi

cc=$1 jobs=$2 flags=$3
shift 3
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "lint: $cc not found (tests/deps.sh lists it)" >&2
	exit 2
fi
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
n=0
for f in "$@"; do
	n=$((n + 1))
	printf '%s\n%s\n' "$f" "$dir/$n.log"
done | xargs -r -P "$jobs" -n 2 sh "$0" --one "$cc" "$flags"

failed=0
for rc in "$dir"/*.rc; do
	[ -f "$rc" ] || continue
	[ "$(cat "$rc")" = 0 ] && continue
	failed=$((failed + 1))
	cat "${rc%.rc}"
done
# A warning in a header shows once per file including it: each once.
cat /dev/null "$dir"/*.log 2>/dev/null | grep -E '^[^ ].*:[0-9]+:[0-9]+: warning: .*\[-Wcomma\]$' | sed 's|^\./||' |
	sort -u >"$dir/found"
found=$(grep -c . "$dir/found")
lines=$(cut -d: -f1,2 "$dir/found" | sort -u | grep -c .)
files=$(cut -d: -f1 "$dir/found" | sort -u | grep -c .)
cat "$dir/found"
[ "$failed" -gt 0 ] && echo "lint: comma (tests): $failed file(s) did not compile"
if [ "$COMMA_LINT" = warn ]; then
	echo "lint: comma (tests): $found comma operator(s) on $lines line(s) in $files file(s), $# read, reported, not failed (COMMA_LINT=warn)"
	found=0
else
	echo "lint: comma (tests): $found comma operator(s) on $lines line(s) in $files file(s), $# read"
fi
[ "$found" -eq 0 ] && [ "$failed" -eq 0 ]
