#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# `tickprobe stat` against ministat: the published reference cases and the
# 220-run netbenches corpus (ministat_check.py), then the input rules and
# options side by side with Debian's ministat where both generations agree.
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
DATA=tests/data/ministat
HERE=$(dirname "$0")

if [ ! -x "$TP" ]; then
	fail "ministat: $TP not built"
	exit 1
fi
python3 "$HERE/ministat_check.py" "$TP" "$DATA"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# Comments, blank lines, trailing blanks, CRLF, columns, several delimiters.
printf '# a header\n1 10\n\n2\t20 # note\n  3   30  \n#4 40\n5 50\r\n7 70 extra\n6 6e1\n8 80\n' >"$T/a"
printf '11 1.5e1\n12 +16\n13 17.\n14 .18e2\n15 -19\n' >"$T/b"
printf '1,10;x\n3,30;x\n2,,20\n9,90\n4,40\n' >"$T/c"
printf '1;31\n2;33,x\n# 3;99\n4;35\n5;32\n6;39\n' >"$T/d"

# Only lines both generations print alike: odd N, and no relative line.
# Standard input, when a test wants it, comes from $IN.
same_as_ministat() { # name, args...
	name=$1; shift
	"$TP" stat "$@" <"${IN:-/dev/null}" >"$T/mine" 2>&1; r1=$?
	ministat "$@" <"${IN:-/dev/null}" >"$T/theirs" 2>&1; r2=$?
	grep -v '% +/- ' "$T/mine" >"$T/m2"; grep -v '% +/- ' "$T/theirs" >"$T/t2"
	if [ $r1 -ne 0 ] || [ $r2 -ne 0 ]; then
		fail "stat $name" "exit $r1 (ministat $r2)"
	elif cmp -s "$T/m2" "$T/t2"; then
		pass "stat $name"
	else
		fail "stat $name" "$(diff "$T/m2" "$T/t2" | head -5 | tr '\n' ' ')"
	fi
}
if command -v ministat >/dev/null 2>&1; then
	same_as_ministat "column 1 with comments, blanks, CRLF (as ministat)" -w 50 "$T/a" "$T/b"
	same_as_ministat "-C 2 (as ministat)" -C 2 -w 50 "$T/a" "$T/b"
	same_as_ministat "-d ',;' -C 2 (as ministat)" -d ',;' -C 2 -w 60 "$T/c" "$T/d"
	same_as_ministat "-n (as ministat)" -n "$T/a" "$T/b"
	same_as_ministat "-A -c 99 (as ministat)" -A -c 99 "$T/a" "$T/b"
	IN=$T/a same_as_ministat "standard input (as ministat)" -w 40
else
	echo "note: Debian's ministat not installed: side-by-side checks skipped (tests/deps.sh installs it)"
fi

# Options ministat (2015) lacks, and the error paths.
out=$("$TP" stat -q -n "$T/a" "$T/b" | tr '\n' '|')
if printf '%s' "$out" | grep -q '^x   7  *1  *8 [^|]*|+   5  *11  *15 [^|]*|$'; then
	pass "stat -q -n prints the two vitals lines only"
else
	fail "stat -q -n prints the two vitals lines only" "$out"
fi
out=$("$TP" stat -A "$T/a" "$T/b")
printf '%s\n' "$out" | grep -q -e '^+--' -e '^|' && fail "stat -A" "plot printed" ||
	{ printf '%s\n' "$out" | grep -q '^Difference at 95.0% confidence' && pass "stat -A: no plot, comparison kept" ||
		fail "stat -A" "no comparison"; }
printf '1\n2\nabc\n4\n' >"$T/bad"
err=$("$TP" stat "$T/bad" 2>&1 >/dev/null); r=$?
[ $r -eq 2 ] && printf '%s' "$err" | grep -q "Invalid data on line 3 in $T/bad" &&
	pass "stat bad line reported as ministat does (line 3, exit 2)" || fail "stat bad line" "exit $r: $err"
printf '1\n2\n' >"$T/few"
err=$("$TP" stat "$T/few" 2>&1 >/dev/null); r=$?
[ $r -eq 2 ] && printf '%s' "$err" | grep -q "must contain at least 3 data points" &&
	pass "stat fewer than 3 points refused (exit 2)" || fail "stat few points" "exit $r: $err"
"$TP" stat "$T/missing" >/dev/null 2>&1; r=$?
[ $r -eq 2 ] && pass "stat missing file: exit 2" || fail "stat missing file" "exit $r"
"$TP" stat -c 97 "$T/a" >/dev/null 2>&1; r=$?
[ $r -eq 1 ] && pass "stat -c 97 refused as a usage error" || fail "stat -c 97" "exit $r"
printf '5\n5\n5\n' >"$T/flat"
out=$("$TP" stat "$T/flat" "$T/flat")
printf '%s\n' "$out" | grep -q '^\[no plot, span is zero width\]$' && pass "stat zero span: no plot" ||
	fail "stat zero span" "$(printf '%s' "$out" | head -3 | tr '\n' '|')"
exit 0
