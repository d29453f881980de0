# SPDX-License-Identifier: BSD-2-Clause
"""show --json of the cpu-x2apic-all boot (on stdin): absent names lapic-x2 and
its reason, and 6 counters in all.  Exits 0 when it does.

Run by tests/fault/test_faults.sh.
"""
import json, sys
a = json.load(sys.stdin)["runs"][0]["absent"]
sys.exit(0 if a.get("lapic-x2") == "CPUID.01H:ECX[21] clear: no x2APIC" and len(a) == 6 else 1)
