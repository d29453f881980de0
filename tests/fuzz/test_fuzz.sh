#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A short fuzz run of every harness (2 s each, FUZZ_SECONDS): catches a
# parser change that crashes on inputs the committed and generated seeds
# already reach; libFuzzer replays every seed first (5 to 70 of them per
# harness on a fresh build, however long that takes: run_fuzz.sh checks it
# did), so the budget is what is fuzzed on top.  Longer runs: make fuzz
# FUZZ_SECONDS=600.
. tests/lib/check.sh
BUILD=${BUILD:-build}
HERE=$(dirname "$0")
if ! command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1; then
	fail "fuzz: ${FUZZ_CC:-clang} not installed (needed for libFuzzer)"
	exit 1
fi
mkdir -p "$BUILD"
# The lock: tests/run.sh may run the other builds into BUILD (make fuzz-build,
# make sanitize, make sign) at the same time, and each reads the others' .d files.
if ! flock "$BUILD/.make.lock" make -s fuzz-build BUILD="$BUILD" >"$BUILD/fuzz-build.log" 2>&1; then
	fail "fuzz: harness build failed: $(grep -m1 -E 'error|Error' "$BUILD/fuzz-build.log")"
	exit 1
fi
sh "$HERE/run_fuzz.sh" "$BUILD" "${FUZZ_SECONDS:-2}" acpi collect logread madt ministat options presets
