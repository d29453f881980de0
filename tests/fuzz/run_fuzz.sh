#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Run libFuzzer harnesses for a fixed time each: run_fuzz.sh BUILD SECONDS HARNESS...
# Prints "PASS: fuzz NAME: I inputs replayed, then N executions in S s in all,
# corpus C" or "FAIL: fuzz NAME: why"
# per harness and exits non-zero when any failed (a crash, leak, timeout or
# undefined behaviour; libFuzzer stops at the first and saves the input as
# BUILD/fuzz/crash-NAME-*).  Inputs found are kept in BUILD/fuzz/corpus/NAME/.
BUILD=${1:?BUILD}
SECONDS_EACH=${2:?SECONDS}
shift 2
HERE=$(dirname "$0")
FD=$BUILD/fuzz
bad=0

# Longest input per harness: a table set or a whole quick-preset log fits;
# for collect, more forged datagrams than the collector's table holds.
max_len() {
	case $1 in
	acpi) echo 16384 ;;
	collect) echo 131072 ;;
	logread) echo 32768 ;;
	ministat) echo 8192 ;;
	*) echo 1024 ;;
	esac
}

for h in "$@"; do
	bin=$FD/fuzz_$h
	log=$FD/fuzz_$h.log
	if [ ! -x "$bin" ]; then
		echo "FAIL: fuzz $h: $bin not built"
		bad=1
		continue
	fi
	mkdir -p "$FD/corpus/$h"
	# Seed directories that exist; the first directory receives new inputs.
	dirs="$FD/corpus/$h"
	for d in "$FD/seeds/$h" "$HERE/corpus/$h"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	start=$(date +%s)
	# TMPDIR: where a harness keeps files (fuzz_collect's logs), under BUILD.
	mkdir -p "$FD/tmp"
	# shellcheck disable=SC2086 # $dirs: the corpus directories, split on purpose
	TMPDIR=$FD/tmp ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		"$bin" -max_total_time="$SECONDS_EACH" -print_final_stats=1 -timeout=10 \
		-rss_limit_mb=2048 -max_len="$(max_len "$h")" \
		-artifact_prefix="$FD/crash-$h-" $dirs >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	corpus=$(find "$FD/corpus/$h" -type f | wc -l)
	# libFuzzer runs every seed before it fuzzes and says INITED once done,
	# however short the time given: a run without it did not try them all.
	seeds=$(sed -n 's/^INFO: seed corpus: files: \([0-9]*\) .*/\1/p' "$log" | tail -1)
	if [ $rc -eq 0 ] && [ -n "$execs" ] && grep -q '^#[0-9]*[[:space:]]INITED ' "$log"; then
		echo "PASS: fuzz $h: ${seeds:-0} inputs replayed, then $execs executions in $secs s in all, corpus $corpus"
	else
		why=$(grep -m1 -E 'ERROR: |runtime error:|SUMMARY: ' "$log" | cut -c1-160)
		grep -q '^#[0-9]*[[:space:]]INITED ' "$log" || why=${why:-no INITED line: not every seed was run}
		art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
		echo "FAIL: fuzz $h: exit $rc after ${execs:-?} executions: ${why:-see $log}${art:+ (input: $art)}"
		bad=1
	fi
done
exit $bad
