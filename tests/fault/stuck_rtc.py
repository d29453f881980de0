# SPDX-License-Identifier: BSD-2-Clause
"""An RTC that never ticks: the reason shows a 1.25 s wait of the TSC.
Exits 0 when it does.

Run by tests/fault/test_faults.sh from the top of the tree.  Arguments: LOG.
"""
import os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import read  # noqa: E402
recs = read(sys.argv[1]).records
hz = next(r for r in recs if r["type"] == "tsc")["hz"]
why = next(r for r in recs if r.get("name") == "rtc")["reason"]
m = re.search(r"for (\d+) reads, (\d+) TSC cycles", why)
sys.exit(0 if m and 1.25 <= int(m.group(2)) / hz < 1.3 else 1)
