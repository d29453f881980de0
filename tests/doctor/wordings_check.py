# SPDX-License-Identifier: BSD-2-Clause
# What the doctor read each wording of the corpus (tests/data/klog/) as:
# the events of every log, with their clocksource, reference, CPUs, the two
# intervals and the kernel's own skew in ppm, in the three formats.
#   python3 tests/doctor/wordings_check.py OUT
import json
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok  # noqa: E402

out = sys.argv[1]


def events(name, kind=None):
    ev = json.load(open(os.path.join(out, name + ".json")))["events"]
    return [e for e in ev if kind is None or e.get("kind") == kind]


def text(name):
    return open(os.path.join(out, name + ".txt")).read()


def near(a, b, eps=0.05):
    return a is not None and abs(a - b) <= eps


def old_wordings():
    for name in ("k510-propolis-none", "k510-propolis-kmsg-none"):
        m = events(name, "watchdog-unstable")
        ok(len(m) == 1 and m[0].get("clocksource") == "tsc" and m[0].get("reference") == "acpi_pm" and m[0].get("cpu") == 2
           and near(m[0].get("timestamp"), 8996.144253, 1e-6) and "skew_ppm" not in m[0],
           "%s: 5.10 (wd_now): tsc marked on CPU2 against acpi_pm at 8996.144253 s, no intervals printed" % name)
        ok([e.get("clocksource") for e in events(name, "switched")] == ["acpi_pm"] and len(events(name, "cpu-check")) == 1
           and len(events(name, "bios-hint")) == 1, "%s: the per-CPU check, the BIOS hint and the switch to acpi_pm" % name)
    m = events("k54-jiffies-none", "watchdog-unstable")
    ok(len(m) == 1 and m[0].get("clocksource") == "tsc-early" and m[0].get("reference") == "refined-jiffies"
       and m[0].get("timestamp") is None, "4.19-5.4 wording without timestamps: tsc-early marked against refined-jiffies")
    ok("timer interrupts" in text("k54-jiffies-sync"), "the jiffies reference is blamed for lost timer interrupts")
    m = events("k612-skew-none", "watchdog-unstable")[0]
    ok(m.get("reference") == "acpi_pm" and m.get("cs_interval_ns") == 511380836 and m.get("wd_interval_ns") == 511993325
       and near(m.get("skew_ppm"), -1196.3), "6.12 (wd_nsec, cs_nsec, skewed): the kernel's own skew %s ppm" % m.get("skew_ppm"))
    m = events("k612-readback-none", "readback-delay")
    ok(len(m) == 1 and m[0].get("reference") == "acpi_pm" and m[0].get("clocksource") == "tsc" and m[0].get("cpu") == 5
       and m[0].get("value") == 151280, "6.12 excessive read-back delay: acpi_pm read in 151280 ns on CPU5, tsc marked")
    m = events("k5-mlx-none", "readback-delay")
    ok(len(m) == 1 and m[0].get("reference") == "hpet" and m[0].get("cpu") == 6 and "value" not in m[0] and
       "own read of 'hpet' was too slow" in text("k5-mlx-sync"),
       "5.14 read-back delay cut inside its number: hpet on CPU6, no figure made up from the cut")
    m = events("k6-sgi-none", "watchdog-unstable")
    ok(len(m) == 1 and m[0].get("reference") == "sgi_rtc" and m[0].get("cpu") == 118 and near(m[0].get("skew_ppm"), 1376.2),
       "a real 6.x log (lkml): tsc against sgi_rtc on CPU118, +1376.2 ppm; the debugging kernel's wd2 line is no reference")
    sk = events("k515-lede-none", "readback-skipped")
    ok([e.get("cpu") for e in sk] == [1, 1, 3] and [e.get("value") for e in sk] == [144431, 371834, 247796] and
       all(e.get("reference") == "acpi_pm" for e in sk) and not events("k515-lede-none", "readback-delay"),
       "5.15 (syslog's format): three skipped tests, acpi_pm read-backs of 144431, 371834, 247796 ns, no mark")
    ev = events("k61-param-none")
    ok(any(e.get("kind") == "boot-parameter" and e.get("timestamp") is None for e in ev) and
       [e.get("clocksource") for e in ev if e.get("kind") == "switched"] == ["hpet"],
       "6.1 without timestamps: the boot-parameter mark and the switch to hpet")
    m = events("k4-noref-none", "watchdog-unstable")
    ok(len(m) == 1 and m[0].get("reference") is None and "(its reference line is missing)" in text("k4-noref-none"),
       "a mark whose reference line is missing: read, and said to be missing")


def new_wordings():
    m = events("k71-hpet-none", "frequency-skew")
    ok(len(m) == 1 and m[0].get("clocksource") == "tsc" and m[0].get("reference") == "hpet" and
       m[0].get("cs_interval_ns") == 500000000 and m[0].get("wd_interval_ns") == 496081952,
       "2026: frequency skew, tsc against hpet, the intervals from the Watchdog/Clocksource lines")
    m = events("k72-kvmclock-none", "frequency-skew")
    ok(len(m) == 1 and m[0].get("reference") == "kvm-clock" and near(m[0].get("skew_ppm"), -11900.0, 0.5) and
       "a step, not a rate" in text("k72-kvmclock-none"),
       "2026, a real log: kvm-clock over 14958 ns, %s ppm, said to be a step, not a rate" % (m[0].get("skew_ppm") if m else None))
    d = "k71-cpuskew-none"
    m = events(d, "inter-cpu-skew")
    ok(len(m) == 1 and m[0].get("cpu") == 3 and m[0].get("cpu2") == 0 and m[0].get("cycles") == [7203551092611, 7203551118342]
       and "CPU3's TSC lags CPU0's by at least 25731 cycles" in text(d),
       "2026: inter CPU skew, CPU3 behind CPU0 by at least 25731 cycles")
    t = events(d, "read-timeout")
    r = events(d, "remote-timeout")
    ok(len(t) == 1 and t[0].get("reference") == "hpet" and t[0].get("value") == 61230 and len(r) == 1 and r[0].get("cpu") == 2,
       "2026: the reference read timed out (61230 ns) and remote CPU 2's: read, and no mark for them")


def other_wordings():
    a = events("k66-tscadjust-none", "tsc-adjust")
    ok([e.get("cpu") for e in a] == [15, 14, 13, 12, 11, 10, 9], "TSC ADJUST differs: seven CPUs, 15 down to 9")
    ev = events("k618-clean-none")
    ok([e.get("clocksource") for e in ev if e.get("kind") == "switched"] == ["tsc-early", "tsc"] and
       any(e.get("kind") == "calibration" and "Refined" in e.get("line") for e in ev),
       "journalctl -k (Fedora 6.18.3): the switches to tsc-early and tsc, the refined calibration")


old_wordings()
new_wordings()
other_wordings()
