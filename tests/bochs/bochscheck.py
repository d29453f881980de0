#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Check a Bochs boot's log as the host command reads it (`tickprobe show
--json`), and print its per-counter costs.

    bochscheck.py TICKPROBE LOG --label NAME --cpus N

Checks: the run is complete and `ok`; every classic counter (tsc, rdtscp,
tsc-lfence, hpet, hpet64, acpi-fast, acpi-safe, i8254) and the TSC-deadline
timer, which QEMU's TCG lacks, are present and healthy; the TSC calibrates to
Bochs's 100 MHz (ips=100000000 with clock sync=none: one tick per
instruction, so the figure follows from the configuration, not the host);
on one CPU, every read costs exactly the instructions it executes;
with more than one CPU, all N started, and the tsc_sync and contention
records are there with every pair and every reader level.
Prints PASS:/FAIL: lines and exits 1 when any failed.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402

CLASSIC = ["tsc", "rdtscp", "tsc-lfence", "hpet", "hpet64", "acpi-fast", "acpi-safe", "i8254"]
BOCHS_TSC_HZ = 100_000_000
TSC_TOLERANCE_PPM = 1000  # the calibration's own error is about 8 ppm


class Checks:
    def __init__(self, label):
        self.label, self.failed = label, 0

    def check(self, good, what, why=""):
        self.failed += not good
        return ok(good, f"{self.label}: {what}", why)


def read_run(tickprobe, log):
    out = subprocess.run([tickprobe, "show", "--json", log], capture_output=True, text=True)
    try:
        runs = json.loads(out.stdout)["runs"]
    except (ValueError, KeyError):
        return None, f"show --json exit {out.returncode}: {out.stderr.strip()[:200]}"
    return (runs[-1], "") if runs else (None, "no run in the log")


def check_counters(c, run):
    timers = {t["counter"]: t for t in run.get("timers", [])}
    for name in CLASSIC + ["tsc-deadline"]:
        t = timers.get(name)
        c.check(t is not None and t.get("healthy") is True, f"{name} present and healthy",
                "absent: " + str(run.get("absent", {}).get(name)) if t is None else str(t.get("reason")))
    hz = (run.get("tsc") or {}).get("hz")
    c.check(isinstance(hz, int) and abs(hz - BOCHS_TSC_HZ) * 1e6 <= TSC_TOLERANCE_PPM * BOCHS_TSC_HZ,
            f"the TSC calibrates to Bochs's {BOCHS_TSC_HZ // 1_000_000} MHz", f"tsc.hz {hz}")
    print(f"{c.label}: costs (p50 ns, min-max):", ", ".join(
        f"{t['counter']} {t['p50_ns']:g} ({t['min_ns']:g}-{t['max_ns']:g})"
        for t in run.get("timers", []) if t.get("p50_ns") is not None))


def check_instruction_costs(c, log):
    """One CPU under clock sync=none: the TSC counts instructions, so every
    read costs exactly the instructions it executes, the timer record's
    `insns` (what QEMU's -icount shift=0 gives too, tests/method/)."""
    off = []
    for t in read(log).of("timer"):
        cost = t.get("cost_cycles", {})
        if not (cost.get("min") == cost.get("max") == t.get("insns")):
            off.append(f"{t.get('name')}: {cost.get('min')}..{cost.get('max')} cycles, {t.get('insns')} instructions")
    c.check(not off, "1 CPU: every read costs exactly its instructions (cycles = insns, min = max)", "; ".join(off))


def check_cpus(c, run, n):
    cpus = run.get("cpus") or {}
    c.check(cpus.get("count") == n and cpus.get("started") == n, f"all {n} CPUs listed and started",
            f"count {cpus.get('count')}, started {cpus.get('started')}, problem {cpus.get('problem')}")
    if n < 2:
        return
    sync = run.get("tsc_sync") or {}
    c.check(sync.get("pairs_total") == n - 1 and sync.get("incomplete") == 0 and
            isinstance(sync.get("synchronized"), bool),
            f"tsc_sync measured all {n - 1} pairs against CPU 0",
            f"pairs_total {sync.get('pairs_total')}, incomplete {sync.get('incomplete')}")
    rows = run.get("contention") or []
    levels = [1]
    while levels[-1] * 2 <= n:
        levels.append(levels[-1] * 2)
    if levels[-1] != n:
        levels.append(n)
    c.check(len(rows) > 0, "contention records present", "none")
    for row in rows:
        got = [r.get("n") for r in row.get("readers", [])]
        back = [r.get("returned") for r in row.get("readers", [])]
        c.check(got == levels and back == levels, f"contention on {row.get('counter')}: {levels} readers, all returned",
                f"levels {got}, returned {back}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tickprobe")
    ap.add_argument("log")
    ap.add_argument("--label", required=True)
    ap.add_argument("--cpus", type=int, required=True)
    a = ap.parse_args()
    c = Checks(a.label)
    run, why = read_run(a.tickprobe, a.log)
    if not c.check(run is not None, "the host command reads one run", why):
        return 1
    c.check(run.get("complete") is True and run.get("damaged") is False, "the log is complete and undamaged",
            str(run.get("state")))
    c.check((run.get("end") or {}).get("status") == "ok", "the run ends ok", str((run.get("end") or {}).get("status")))
    check_counters(c, run)
    if a.cpus == 1:
        check_instruction_costs(c, a.log)
    check_cpus(c, run, a.cpus)
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
