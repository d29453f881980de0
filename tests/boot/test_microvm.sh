#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# QEMU's microvm, the minimal VMM's kind of machine (no HPET, hardware-
# reduced ACPI, so no PM timer), with each of its legacy devices taken away
# in turn: the probe must run on every combination, say what is absent, and
# time the TSC with what is left (the PIT; without it the RTC's seconds;
# with neither, nothing: the rate is then unknown, never invented).  Under
# TCG the CPU states no rate (CPUID leaves 0x15 and 0x16, the hypervisor's
# 0x40000010 are empty), so those paths are the unit tests'.
. tests/lib/check.sh
BUILD=${BUILD:-build}
OUT=$BUILD/test-microvm
rm -rf "$OUT"
mkdir -p "$OUT"

# combination, the TSC's source it must report, what its log must say is absent
while read -r combo source absent; do
	[ "$combo" = default ] && combo=
	name=$(printf '%s' "${combo:-default}" | tr ',=' '__')
	"$BUILD/tickprobe" qemu --kernel --machine "microvm${combo:+,$combo}" --preset quick --timeout 120 -q \
		--options "slow_rates=off" -o "$OUT/$name.log" >"$OUT/$name.out" 2>&1
	rc=$?
	check "microvm${combo:+,$combo}: the run ends ok-absent (exit 10)" "[ $rc = 10 ]" "exit $rc: $(tail -n 2 "$OUT/$name.out")"
	"$PYTHON3" - "$OUT/$name.log" "microvm${combo:+,$combo}" "$source" "$absent" <<'PY'
import sys
sys.path.insert(0, "tests/lib")
import tplog
path, label, source, absent = sys.argv[1:5]
log = tplog.read(path)
recs = log.by_type
text = [line.decode("utf-8", "replace") for line in open(path, "rb") if not line.startswith(b"{")]
def ok(c, m):
    tplog.ok(c, "%s: %s" % (label, m))
if log.bad:  # a damaged record is no evidence: the run fails
    ok(False, "%d records with a bad crc" % log.bad)
tsc = recs.get("tsc", [{}])[0]
ok(tsc.get("source") == source, "the TSC timed from %s (%s)" % (source, tsc.get("source")))
if source == "none":
    ok(tsc.get("hz") is None and tsc.get("error_ppm") is None, "no rate invented: hz and error_ppm null")
    ok(any("frequency unknown" in t for t in text), "the screen says the rate is unknown")
    timers = [t for t in recs.get("timer", []) if t.get("cost_cycles")]  # measured: healthy is derived
    ok(timers and all(t.get("cost_ns") is None for t in timers), "costs in cycles only: no cost_ns")
else:
    ok(isinstance(tsc.get("hz"), (int, float)) and tsc.get("error_ppm") is not None,
       "a rate with its error: %s Hz +/- %s ppm" % (tsc.get("hz"), tsc.get("error_ppm")))
    ok(any(("from %s" % source) in t for t in text), "the screen names it")
timers = {t["name"]: t for t in recs.get("timer", [])}
for name in filter(None, absent.split(",")):
    t = timers.get(name, {})
    ok(not t.get("healthy", False) and t.get("reason"), "%s absent or unhealthy, and why: %s" % (name, t.get("reason")))
PY
done <<'EOF_COMBOS'
default pit hpet,acpi-fast
pit=off rtc hpet,acpi-fast,i8254
rtc=off pit hpet,acpi-fast,rtc
pit=off,rtc=off none hpet,acpi-fast,i8254,rtc
pic=off pit hpet,acpi-fast
acpi=off pit hpet,acpi-fast
pit=off,rtc=off,acpi=off none hpet,acpi-fast,i8254,rtc
EOF_COMBOS
