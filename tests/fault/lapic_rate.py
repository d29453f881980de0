# SPDX-License-Identifier: BSD-2-Clause
"""The lapic timer's measured rate in MHz, the way tickprobe show prints it.

Run by tests/fault/test_faults.sh.  Arguments: LOG.
"""
import json, sys
t = next(json.loads(l) for l in open(sys.argv[1], errors="replace") if l.startswith("{") and "\"name\":\"lapic\"" in l)
print("%.6g MHz" % (t["freq"]["measured_hz"] / 1e6))
