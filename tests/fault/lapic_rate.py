# SPDX-License-Identifier: BSD-2-Clause
"""The lapic timer's measured rate in MHz, the way tickprobe show prints it.

Run by tests/fault/test_faults.sh.  Arguments: LOG.
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import read  # noqa: E402
t = next(r for r in read(sys.argv[1]).records if r.get("name") == "lapic")
print("%.6g MHz" % (t["freq"]["measured_hz"] / 1e6))
