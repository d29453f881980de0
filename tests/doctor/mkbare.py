#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""A bare-metal log as this machine would write it:
   mkbare.py IN OUT MACHINE_JSON [--hpet-ppm PPM] [--not-invariant]

IN is a real capture of the probe under QEMU (TCG: its CPUID has no
invariant-TSC bit, which QEMU cannot emulate).  OUT is the same run with
these changes, so that the doctor's other rules are what the test exercises:
the `machine` record carries MACHINE_JSON's identity (the fingerprint
`tickprobe doctor --json` reads on this host: vendor, brand, family, model,
stepping, microcode, hypervisor, cores) and, unless --not-invariant,
`invariant_tsc` true, and the `tsc` record `invariant` true.

--hpet-ppm PPM shows an HPET that runs slow: the `tsc` record's
`sources.hpet` (the TSC's rate as the HPET timed it) is multiplied by
1 + PPM/1e6, and `hz` with it where the HPET was the chosen source, as a
calibration against an HPET running PPM/(1 + PPM/1e6) ppm slow would have
found; the PM timer's and the PIT's figures stay the capture's own.

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
    hpet_ppm, invariant = None, True
    while args:
        a = args.pop(0)
        if a == "--hpet-ppm":
            hpet_ppm = float(args.pop(0))
        elif a == "--not-invariant":
            invariant = False
        else:
            sys.exit("mkbare.py: unknown option %s" % a)
    return hpet_ppm, invariant


def slow_hpet(rec, ppm):
    factor = 1 + ppm / 1e6
    src = rec["sources"]
    src["hpet"] = round(src["hpet"] * factor)
    if rec.get("source") == "hpet":
        rec["hz"] = src["hpet"]


def main():
    src, dst, ident_path = sys.argv[1:4]
    hpet_ppm, invariant = options(sys.argv[4:])
    ident = json.load(open(ident_path))["machine"]
    run = read_runs(src)[-1]
    for rec in run:
        if rec["type"] == "machine":
            for k in KEYS:
                rec[k] = ident[k]
            rec["invariant_tsc"] = invariant
        elif rec["type"] == "tsc":
            rec["invariant"] = invariant
            if hpet_ppm is not None:
                slow_hpet(rec, hpet_ppm)
    with open(dst, "w") as out:
        write_run(run, out)


main()
