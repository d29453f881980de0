#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# `tickprobe stat` on big inputs, byte for byte against Debian's ministat:
# the paths a small input never takes (the line cache, the counting table and
# the array past 65,536 distinct values, the plot's repeated rows, a file read
# in many chunks, a pipe) and signed zeros (ministat's stable sort keeps
# their input order).  Odd N, and the relative line left out: the two
# ministat generations agree on everything else (tests/stat/test_ministat.sh).
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
if [ ! -x "$TP" ]; then
	fail "stat big: $TP not built"
	exit 1
fi
if ! command -v ministat >/dev/null 2>&1; then
	echo "note: Debian's ministat not installed: big-input checks skipped (tests/deps.sh installs it)"
	exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# 100,001 short lines of ~1,000 distinct values with a tail (the cache and
# the table); 70,001 mostly distinct values, some long (the array); two
# columns with commas; zeros of both signs.
awk 'BEGIN { srand(3); for (i = 0; i < 100001; i++) { v = 1000 + int(rand() * 100);
	if (rand() < 0.01) v += int(rand() * 50000); printf "%d.%d\n", v, int(rand() * 10) } }' >"$T/few"
awk 'BEGIN { srand(5); for (i = 0; i < 70001; i++) printf "%.9f\n", (rand() - 0.3) * 1e6 }' >"$T/many"
awk 'BEGIN { srand(9); for (i = 0; i < 50001; i++) printf "%d,%d.%d\n", i, 7 + int(rand() * 20), int(rand() * 100) }' >"$T/cols"
awk 'BEGIN { srand(10); for (i = 0; i < 50001; i++) printf "%d,%d.%d\n", i, 8 + int(rand() * 20), int(rand() * 100) }' >"$T/cols2"
awk 'BEGIN { srand(4); for (i = 0; i < 20001; i++) { r = rand();
	print (r < 0.2 ? "-0" : r < 0.4 ? "0" : r < 0.5 ? "-0.0" : int(rand() * 5) - 2) } }' >"$T/zeros"

same() { # name, then ministat's arguments (stdin from $IN)
	name=$1; shift
	"$TP" stat "$@" <"${IN:-/dev/null}" >"$T/mine" 2>&1; r1=$?
	ministat "$@" <"${IN:-/dev/null}" >"$T/theirs" 2>&1; r2=$?
	grep -v '% +/- ' "$T/mine" >"$T/m2"; grep -v '% +/- ' "$T/theirs" >"$T/t2"
	if [ $r1 -ne $r2 ]; then
		fail "stat big $name: exit $r1 (ministat $r2)"
	elif cmp -s "$T/m2" "$T/t2"; then
		pass "stat big $name ($(wc -l <"$T/m2") lines as ministat's)"
	else
		fail "stat big $name: $(diff "$T/t2" "$T/m2" | head -4 | tr '\n' ' ')"
	fi
}
same "repeated short lines, with the plot" "$T/few" "$T/zeros"
same "mostly distinct values, -s -w 120" -s -w 120 "$T/many" "$T/few"
same "-A on three sets" -A "$T/few" "$T/many" "$T/zeros"
same "-d , -C 2" -d , -C 2 -w 60 "$T/cols" "$T/cols2"
same "signed zeros, -n" -n "$T/zeros" "$T/zeros"
IN=$T/few same "standard input" -w 40
cat "$T/many" >"$T/pipe.in"
IN=$T/pipe.in same "standard input, mostly distinct" -A
# shellcheck disable=SC2002 # from a pipe, on purpose: that is the case tested
out=$(cat "$T/few" | "$TP" stat -A | tail -1)
want=$(ministat -A "$T/few" | tail -1)
[ "$out" = "$want" ] && pass "stat big from a pipe" || fail "stat big from a pipe: $out"
exit 0
