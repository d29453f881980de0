#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""A bare-metal log as this machine would write it:
   mkbare.py IN OUT MACHINE_JSON [--drift SOURCE:PPM] [--not-invariant]

IN is a real capture of the probe under QEMU (TCG: its CPUID has no
invariant-TSC bit, which QEMU cannot emulate).  OUT is the same run with
these changes, so that the doctor's other rules are what the test exercises:
the `machine` record carries MACHINE_JSON's identity (the fingerprint
`tickprobe doctor --json` reads on this host: vendor, brand, family, model,
stepping, microcode, hypervisor, cores) and, unless --not-invariant,
`invariant_tsc` true, and the `tsc` record `invariant` true.

--drift SOURCE:PPM shows a reference clock that is off: the `tsc` record's
`sources.SOURCE` (hpet, pm_timer or pit: the TSC's rate as that clock timed
it) is multiplied by 1 + PPM/1e6, and `hz` with it where SOURCE was the
chosen source, as a calibration against a clock running PPM/(1 + PPM/1e6)
ppm slow (fast for a negative PPM) would have found; the other clocks'
figures stay the capture's own.

Every other record, the TSC sync pairs included, is the capture's own.  Each
record is written back with its CRC and the end record with the run's
(tests/tools/mkfleet.py).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from mkfleet import read_runs, write_run  # noqa: E402

KEYS = ("cpu_vendor", "cpu_brand", "family", "model", "stepping", "microcode", "hypervisor", "cores")


def options(args):
    drift, invariant = None, True
    while args:
        a = args.pop(0)
        if a == "--drift":
            source, _, ppm = args.pop(0).partition(":")
            drift = (source, float(ppm))
        elif a == "--not-invariant":
            invariant = False
        else:
            sys.exit("mkbare.py: unknown option %s" % a)
    return drift, invariant


def drift_source(rec, source, ppm):
    src = rec["sources"]
    src[source] = round(src[source] * (1 + ppm / 1e6))
    if rec.get("source") == source:
        rec["hz"] = src[source]


def main():
    src, dst, ident_path = sys.argv[1:4]
    drift, invariant = options(sys.argv[4:])
    ident = json.load(open(ident_path))["machine"]
    run = read_runs(src)[-1]
    for rec in run:
        if rec["type"] == "machine":
            for k in KEYS:
                rec[k] = ident[k]
            rec["invariant_tsc"] = invariant
        elif rec["type"] == "tsc":
            rec["invariant"] = invariant
            if drift:
                drift_source(rec, *drift)
    with open(dst, "w") as out:
        write_run(run, out)


main()
