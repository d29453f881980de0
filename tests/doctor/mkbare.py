#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""A bare-metal log as this machine would write it: mkbare.py IN OUT MACHINE_JSON

IN is a real capture of the probe under QEMU (TCG: its CPUID has no
invariant-TSC bit, which QEMU cannot emulate).  OUT is the same run with
two changes, so that the doctor's other rules are what the test exercises:
the `machine` record carries MACHINE_JSON's identity (the fingerprint
`tickprobe doctor --json` reads on this host: vendor, brand, family, model,
stepping, microcode, hypervisor, cores) and `invariant_tsc` true, and the
`tsc` record `invariant` true.  Every other record, the TSC sync pairs and
the rates included, is the capture's own.  Each record is written back with
its CRC and the end record with the run's (tests/tools/mkfleet.py).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from mkfleet import read_runs, write_run  # noqa: E402

KEYS = ("cpu_vendor", "cpu_brand", "family", "model", "stepping", "microcode", "hypervisor", "cores")


def main():
    src, dst, ident_path = sys.argv[1:4]
    ident = json.load(open(ident_path))["machine"]
    run = read_runs(src)[-1]
    for rec in run:
        if rec["type"] == "machine":
            for k in KEYS:
                rec[k] = ident[k]
            rec["invariant_tsc"] = True
        elif rec["type"] == "tsc":
            rec["invariant"] = True
    with open(dst, "w") as out:
        write_run(run, out)


main()
