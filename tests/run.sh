#!/bin/sh
# Run every test: the host unit tests in BUILD/tests, then each script in
# tests/*/ named test_*.sh.  Every test prints "PASS: …" or "FAIL: …" lines;
# this counts them and ends with one "N passed, N failed" line.
BUILD=${1:-build}
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
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "  [$1] ran no check (see $2)"; f=1
	fi
	pass=$((pass + p)); fail=$((fail + f))
	[ "$f" -ne 0 ] && broken="$broken $1"
	echo "$1: $p passed, $f failed"
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	n=$(basename "$t")
	"$t" >"$LOGDIR/$n.log" 2>&1; rc=$?
	tally "$n" "$LOGDIR/$n.log" $rc
done
for t in tests/*/test_*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	start=$(date +%s)
	BUILD=$BUILD sh "$t" >"$LOGDIR/$n.log" 2>&1; rc=$?
	tally "$n ($(( $(date +%s) - start ))s)" "$LOGDIR/$n.log" $rc
done
[ -n "$broken" ] && echo "failing:$broken"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
