#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every host unit test built with AddressSanitizer and UndefinedBehaviorSanitizer
# (make sanitize: BUILD/asan/tests/), run once: PASS when it exits 0 with no
# sanitizer report, FAIL naming the first report otherwise.
. tests/lib/check.sh
BUILD=${BUILD:-build}
mkdir -p "$BUILD"
# The lock: tests/run.sh may run the other builds into BUILD (make fuzz-build,
# make sanitize, make sign) at the same time, and each reads the others' .d files.
if ! flock "$BUILD/.make.lock" make -s sanitize BUILD="$BUILD" >"$BUILD/sanitize-build.log" 2>&1; then
	fail "sanitize: build failed: $(grep -m1 -E 'error|Error' "$BUILD/sanitize-build.log")"
	exit 1
fi
n=0
# Sanitized children (the tool run by test_acpi) report the same way.
ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS UBSAN_OPTIONS
for t in "$BUILD"/asan/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	log=$BUILD/asan/$name.log
	n=$((n + 1))
	"$t" >"$log" 2>&1
	rc=$?
	report=$(grep -m1 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: ' "$log")
	checks=$(grep -c '^PASS: ' "$log")
	if [ $rc -eq 0 ] && [ -z "$report" ]; then
		pass "sanitize $name ($checks checks)"
	else
		fail "sanitize $name: exit $rc${report:+: $(echo "$report" | cut -c1-160)} (see $log)"
	fi
done
[ $n -gt 0 ] || fail "sanitize: no test binary in $BUILD/asan/tests"
