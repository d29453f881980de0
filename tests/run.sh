#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Run every test: the host unit tests in BUILD/tests, then each script in
# tests/*/ named test_*.sh.  Every test prints "PASS: …" or "FAIL: …" lines;
# this counts them (a Python traceback counts as a failure), prints one
# "name: N passed, N failed" line per test and ends with one
# "N passed, N failed" line; it exits 1 when any test failed.  Each test's
# whole output is in BUILD/test-logs/NAME.log.
#
#   run.sh [BUILD [unit|fast]]    unit: the host unit tests only (make unit)
#                                 fast: the unit tests and tests/lint/ (clang-tidy
#                                 on changed files) and tests/boot/test_kernel.sh
#                                 (make check-fast)
#
# The script tests run JOBS at a time (default: the number of CPUs), longest
# first so that the long ones do not end the run alone: each worker takes the
# next test nobody has claimed (mkdir is the atomic claim).  The order comes
# from BUILD/test-logs/seconds, the times of the last run, or else from
# tests/lib/seconds, times measured on a 2-core machine; a test in neither
# goes first.  Tests run at the same time keep to their own directories.
BUILD=${1:-build}
ONLY=${2:-}
case $ONLY in
'' | unit | fast) ;;
*) echo "usage: run.sh [BUILD [unit|fast]]" >&2; exit 2 ;;
esac
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# CHECK_FAST=1 tells a script it runs in the fast loop (tests/lint/test_lint.sh).
fast=$([ "$ONLY" = fast ] && echo 1)
LOGDIR=$BUILD/test-logs
STATE=$LOGDIR/run.$$
mkdir -p "$STATE/claimed"
trap 'rm -rf "$STATE"' EXIT
: >"$STATE/results"

# tally NAME LOG STATUS SECONDS: the counts, also appended to the results.
tally() {
	p=$(grep -c '^PASS: ' "$2"); f=$(grep -c '^FAIL: ' "$2")
	{
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
		echo "$1${4:+ (${4}s)}: $p passed, $f failed"
	} >"$STATE/tally.$1"
	# One write per test, so the lines of two workers never interleave.
	cat "$STATE/tally.$1"
	echo "$1 $p $f ${4:--}" >>"$STATE/results"
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
	echo "unit 0 1 -" >>"$STATE/results"
fi

# The script tests, longest first: "seconds path" lines, sorted.
scripts() {
	case $ONLY in
	unit) return ;;
	fast) ls tests/lint/test_*.sh tests/boot/test_kernel.sh ;;
	*) ls tests/*/test_*.sh ;;
	esac | while read -r t; do
		n=$(basename "$t" .sh)
		s=$(cat "$LOGDIR/seconds" tests/lib/seconds 2>/dev/null | awk -v n="$n" '$1 == n { print $2; exit }')
		echo "${s:-100000} $t"
	done | sort -k1,1nr -k2,2
}
scripts >"$STATE/order"
# A test is known by its file's name alone (its log, its claim, its time):
# two of one name would run one and drop the other without a word.
awk '{ n = $2; sub(/.*\//, "", n); sub(/\.sh$/, "", n); if (seen[n]++) print n }' "$STATE/order" |
	while read -r n; do
		echo "  [$n] two tests have this name: one of them would not run (rename one)"
		echo "$n 0 1 -" >>"$STATE/results"
	done

worker() {
	while read -r _ t; do
		n=$(basename "$t" .sh)
		mkdir "$STATE/claimed/$n" 2>/dev/null || continue
		start=$(date +%s)
		BUILD=$BUILD CHECK_FAST=$fast sh "$t" >"$LOGDIR/$n.log" 2>&1 </dev/null; rc=$?
		tally "$n" "$LOGDIR/$n.log" $rc $(($(date +%s) - start))
	done <"$STATE/order"
}
# The workers ignore SIGINT (a shell's background jobs do), so an interrupt
# here ends them and their tests: TERM to this process group.
trap 'trap "" INT TERM; kill -TERM 0 2>/dev/null; exit 130' INT TERM
i=0
while [ "$i" -lt "$JOBS" ]; do
	worker &
	i=$((i + 1))
done
wait
trap - INT TERM

# This run's times order the next run (tests not run this time keep theirs).
if [ -s "$STATE/order" ]; then
	awk '$4 != "-" { print $1, $4 }' "$STATE/results" >"$STATE/seconds"
	if [ -f "$LOGDIR/seconds" ]; then
		awk 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' "$STATE/seconds" "$LOGDIR/seconds" >>"$STATE/seconds"
	fi
	mv "$STATE/seconds" "$LOGDIR/seconds"
fi
awk '{ p += $2; f += $3; if ($4 != "-") s += $4; if ($3 > 0) broken = broken " " $1 }
	END {
		if (broken != "") print "failing:" broken
		if (s > 0) printf "script tests: %d s in all, on %d jobs\n", s, jobs
		printf "%d passed, %d failed\n", p, f
		exit f > 0
	}' jobs="$JOBS" "$STATE/results"
