#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Run every test: the host unit tests in BUILD/tests, then each script in
# tests/*/ named test_*.sh, in name order.  Every test prints "PASS: …" or
# "FAIL: …" lines; this counts them (a Python traceback counts as a failure),
# prints one "name: N passed, N failed"
# line per test and ends with one "N passed, N failed" line; it exits 1 when
# any test failed.
#
#   run.sh [BUILD [unit]]    unit: the host unit tests only (make unit)
BUILD=${1:-build}
ONLY=${2:-}
case $ONLY in
'' | unit) ;;
*) echo "usage: run.sh [BUILD [unit]]" >&2; exit 2 ;;
esac
LOGDIR=$BUILD/test-logs
mkdir -p "$LOGDIR"
pass=0 fail=0 broken=""

tally() { # name, log, exit status
	p=$(grep -c '^PASS: ' "$2"); f=$(grep -c '^FAIL: ' "$2")
	grep '^FAIL: ' "$2" | sed "s|^|  [$1] |"
	if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
		# A test that died without reporting a failure is a failure too.
		echo "  [$1] exited $3 without a FAIL line (see $2)"; f=1
	fi
	if grep -q '^Traceback (most recent call last):' "$2"; then
		# A Python check that raised skipped the checks after it.
		echo "  [$1] a Python check raised (see $2)"; f=$((f + 1))
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "  [$1] ran no check (see $2)"; f=1
	fi
	pass=$((pass + p)); fail=$((fail + f))
	[ "$f" -ne 0 ] && broken="$broken $1"
	echo "$1: $p passed, $f failed"
}

units=0
for t in "$BUILD"/tests/test_*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	n=$(basename "$t")
	units=$((units + 1))
	"$t" >"$LOGDIR/$n.log" 2>&1; rc=$?
	tally "$n" "$LOGDIR/$n.log" $rc
done
if [ "$units" -eq 0 ]; then
	echo "  no unit test binary in $BUILD/tests (make unit-build makes them)"
	fail=$((fail + 1)) broken="$broken unit"
fi
[ "$ONLY" = unit ] || for t in tests/*/test_*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	start=$(date +%s)
	BUILD=$BUILD sh "$t" >"$LOGDIR/$n.log" 2>&1; rc=$?
	tally "$n ($(( $(date +%s) - start ))s)" "$LOGDIR/$n.log" $rc
done
[ -n "$broken" ] && echo "failing:$broken"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
