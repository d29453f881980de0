#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The watch (watch=DURATION, probe/run_watch.c) under qemu -icount
# shift=2,sleep=off, where every clock runs off one virtual clock: with no
# fault every clock must agree within its stated uncertainty; a counter made
# to run a set number of ppm off (fault=drift:) must be found at that rate,
# within its uncertainty, and named; a TSC step on one CPU (fault=tsc_step:)
# must be found on that CPU, half-way, at its size.  A second of watch is a
# billion instructions at shift=0, a quarter of that at shift=2 (4 ns an
# instruction), which still finds each fault at its size: the watches here
# are short, and at shift=2.
. tests/lib/check.sh
. tests/lib/boot.sh
OUT=$BUILD/test-watch
mkdir -p "$OUT"
W=3

# watch NAME CPUS [probe options...]: a watch of W seconds that ends ok.
watch() {
	name=$1
	smp=$2
	shift 2
	boot "$name" 0 --kernel --icount=2 --smp "$smp" --preset quick --timeout 120 --options "slow_rates=off watch=$W $*"
}
checker() { "$PYTHON3" tests/method/watch_check.py "$@"; }

watch none 1
checker "$OUT/none.log" none
watch drift 1 fault=drift:hpet:+8000
checker "$OUT/drift.log" drift hpet 8000
watch slowpm 1 fault=drift:pm_timer:-1500
checker "$OUT/slowpm.log" drift pm_timer -1500
watch step1 2 fault=tsc_step:1:-50000
checker "$OUT/step1.log" step 1 -50000 $W
watch step0 1 fault=tsc_step:0:-200000
checker "$OUT/step0.log" step 0 -200000 $W
# The watch's records have the schema's members and types (probe/log_schema.def).
"$PYTHON3" tests/method/schema_check.py "$OUT/drift.log" "$OUT/step1.log" --label watch

# The screen says what the records say.
check "the screen names the clock" "grep -Eq '^watch: the HPET runs (7999\.9|8000\.0) ppm fast against the TSC, the PM timer and the PIT' '$OUT/drift.log'" \
	"$(grep '^watch:' "$OUT/drift.log")"

# Options that are not a watch are said so, and the run goes on without one.
"$BUILD/tickprobe" qemu --kernel --preset quick --timeout 60 -q \
	--options "slow_rates=off watch=25h fault=drift:clock:5" -o "$OUT/bad.log" >/dev/null 2>&1
check "watch=25h and an unknown clock: both named as problems, no watch" \
	"grep -q \"option watch: '25h' is not a duration up to 24h\" '$OUT/bad.log' &&
	 grep -q \"option fault: 'drift:clock:5' is not drift:CLOCK:PPM\" '$OUT/bad.log' && ! grep -q '\"type\":\"watch' '$OUT/bad.log'"

# The report plots them: the drifting HPET far from the other clocks, CPU 1's
# offset stepping half-way.
"$BUILD/tickprobe" report -o "$OUT/drift.html" "$OUT/drift.log" >/dev/null 2>&1
"$PYTHON3" tests/method/watch_report_check.py "$OUT/drift.html" drift hpet
"$BUILD/tickprobe" report -o "$OUT/step1.html" "$OUT/step1.log" >/dev/null 2>&1
"$PYTHON3" tests/method/watch_report_check.py "$OUT/step1.html" step 1

# compare sets the watches side by side and marks what differs from the first.
"$BUILD/tickprobe" compare "$OUT/drift.log" "$OUT/none.log" "$OUT/slowpm.log" >"$OUT/compare.txt" 2>&1
check "compare: the HPET's +8000 ppm of [1] marked in [2] and [3], the PM timer's -1500 in [3] only, the TSC nowhere" \
	"grep -Eq '^  hpet +\+(7999\.9|8000\.0)[0-9]+ \+/- [0-9.]+ +\+?-?0\.0[0-9]+ \+/- [0-9.]+ \* +\+?-?0\.0[0-9]+ \+/- [0-9.]+ \*$' '$OUT/compare.txt' &&
	 grep -Eq '^  pm_timer .*[0-9]  +[-+]0\.0[0-9]+ \+/- [0-9.]+  +-(1499\.9|1500\.0)[0-9]+ \+/- [0-9.]+ \*$' '$OUT/compare.txt' &&
	 grep -E '^  tsc ' '$OUT/compare.txt' | grep -vq '\*'" \
	"$(sed -n '/^Watch/,$p' "$OUT/compare.txt")"
