#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Run every test: the host unit tests in BUILD/tests and each script in
# tests/*/ named test_*.sh.  Every test prints "PASS: …" or "FAIL: …" lines;
# this counts them (a Python traceback counts as a failure), prints one
# "name: N passed, N failed" line per test and ends with every failure
# again and one "N passed, N failed" line; it exits 1 when any test failed.
# Each test's whole output is in BUILD/test-logs/NAME.log.
#
#   run.sh [BUILD [unit|fast]]    unit: the host unit tests only (make unit)
#                                 fast: the unit tests, tests/lint/ (the lint
#                                 steps' canaries), tests/boot/test_kernel.sh
#                                 and tests/boots.cfg's group "fast"
#                                 (make check-fast)
#
# TEST_GROUPS="GROUP ..." (make check TEST_GROUPS=...): only the tests of
# these groups: tests/GROUP/test_*.sh, the unit tests for "unit", and
# tests/boot/test_boots.sh for the entries of tests/boots.cfg in them
# (tests/deps.sh names each group's packages).
#
# The script tests, and the unit tests as one more job, run JOBS at a time
# (default: one more than the CPUs, as many tests spend part of their time
# waiting: on a guest's timers, a network, a child), longest first so that
# the long ones do not end the run alone: each worker takes the next job
# nobody has claimed (mkdir is the atomic claim).  The order comes
# from BUILD/test-logs/seconds, the times of the last run, or else from
# tests/lib/seconds, times measured on a 2-core machine; a test in neither
# goes first.  Tests run at the same time keep to their own directories.
BUILD=${1:-build}
ONLY=${2:-}
case $ONLY in
'' | unit | fast) ;;
*) echo "usage: run.sh [BUILD [unit|fast]]" >&2; exit 2 ;;
esac
[ "$ONLY" = fast ] && TEST_GROUPS=fast
export TEST_GROUPS
# shellcheck disable=SC2086 # a list of groups, split on purpose
for g in ${TEST_GROUPS:-}; do
	if [ "$g" != unit ] && ! ls tests/"$g"/test_*.sh >/dev/null 2>&1 &&
		[ -z "$(sh -c '. tests/lib/boot.sh && boots_names "$1"' sh "$g")" ]; then
		echo "run.sh: no test group '$g': not a folder of tests/, nor a group of tests/boots.cfg, nor unit" >&2
		exit 2
	fi
done
JOBS=${JOBS:-$(($(nproc 2>/dev/null || echo 2) + 1))}
LOGDIR=$BUILD/test-logs
STATE=$LOGDIR/run.$$
mkdir -p "$STATE/claimed"
trap 'rm -rf "$STATE"' EXIT
: >"$STATE/results"

# tally NAME LOG STATUS [SECONDS CPU]: the counts, also appended to the results.
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
		echo "$1${4:+ (${4}s, ${5}s of CPU)}: $p passed, $f failed"
	} >"$STATE/tally.$1"
	# One write per test, so the lines of two workers never interleave.
	cat "$STATE/tally.$1"
	echo "$1 $p $f ${4:--} ${5:--}" >>"$STATE/results"
}

# The host unit tests, one after the other: one job of the pool below, so
# that they share the CPUs with the script tests rather than run alone first.
# Its variables are its own (u*): the worker that calls it keeps its t and n.
units() {
	nunits=0
	for ut in "$BUILD"/tests/test_*; do
		[ -f "$ut" ] && [ -x "$ut" ] || continue
		un=$(basename "$ut")
		nunits=$((nunits + 1))
		"$ut" >"$LOGDIR/$un.log" 2>&1; urc=$?
		tally "$un" "$LOGDIR/$un.log" $urc
	done
	if [ "$nunits" -eq 0 ]; then
		echo "  no unit test binary in $BUILD/tests (make unit-build makes them)"
		echo "unit 0 1 -" >>"$STATE/results"
	fi
}

# grouped: the jobs of TEST_GROUPS, each once.
# shellcheck disable=SC2086 # a list of groups, split on purpose
grouped() {
	{
		for g in $TEST_GROUPS; do
			[ "$g" = unit ] && echo units
			ls tests/"$g"/test_*.sh 2>/dev/null
		done
		if [ -n "$(sh -c '. tests/lib/boot.sh && boots_names "$@"' sh $TEST_GROUPS)" ]; then
			echo tests/boot/test_boots.sh
		fi
	} | awk '!seen[$0]++'
}

# The jobs, longest first: "seconds path" lines, sorted; "units" is the unit
# tests.
scripts() {
	case $ONLY in
	unit) echo units ;;
	fast) echo units; ls tests/lint/test_*.sh tests/boot/test_kernel.sh tests/boot/test_boots.sh ;;
	*) if [ -z "${TEST_GROUPS:-}" ]; then
		echo units
		ls tests/*/test_*.sh
	else
		grouped
	fi ;;
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

# cpu_seconds FILE: the user + system time of this shell's finished
# children, from `times` run in this shell (a subshell's would be its own).
cpu_seconds() {
	awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.1f", t }' "$1"
}
worker() {
	while read -r _ t; do
		n=$(basename "$t" .sh)
		mkdir "$STATE/claimed/$n" 2>/dev/null || continue
		start=$(date +%s)
		times >"$STATE/times.$n.0"
		if [ "$t" = units ]; then
			units </dev/null
		else
			BUILD=$BUILD sh "$t" >"$LOGDIR/$n.log" 2>&1 </dev/null; rc=$?
		fi
		times >"$STATE/times.$n.1"
		cpu=$(awk -v a="$(cpu_seconds "$STATE/times.$n.0")" -v b="$(cpu_seconds "$STATE/times.$n.1")" \
			'BEGIN { printf "%.1f", b - a }')
		if [ "$t" = units ]; then
			# Its time orders the next run; its checks are each binary's.
			echo "units (all $nunits: $(($(date +%s) - start))s, ${cpu}s of CPU)"
			echo "units 0 0 $(($(date +%s) - start)) $cpu" >>"$STATE/results"
		else
			tally "$n" "$LOGDIR/$n.log" "$rc" $(($(date +%s) - start)) "$cpu"
		fi
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
		awk 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' "$STATE/seconds" "$LOGDIR/seconds" >"$STATE/kept"
		cat "$STATE/kept" >>"$STATE/seconds"
	fi
	mv "$STATE/seconds" "$LOGDIR/seconds"
fi
# The failures once more at the end, where a log's tail shows them.
cat "$STATE"/tally.* 2>/dev/null | grep '^  \[' >"$STATE/failures"
if [ -s "$STATE/failures" ]; then
	echo "failures:"
	head -n 40 "$STATE/failures"
	n=$(wc -l <"$STATE/failures")
	[ "$n" -gt 40 ] && echo "  ... and $((n - 40)) more (each test's log is in $LOGDIR)"
fi
awk '{ p += $2; f += $3; if ($4 != "-") s += $4; if ($5 != "-") c += $5; if ($3 > 0) broken = broken " " $1 }
	END {
		if (broken != "") print "failing:" broken
		if (s > 0) printf "tests: %d s in all, %d s of CPU, on %d jobs\n", s, c, jobs
		printf "%d passed, %d failed\n", p, f
		exit f > 0
	}' jobs="$JOBS" "$STATE/results"
