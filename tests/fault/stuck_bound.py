# SPDX-License-Identifier: BSD-2-Clause
"""A counter that never moves: its timer record's reason shows the wait
reaching its bound (2^28 cycles or 2^22 reads).  Exits 0 when it does.

Run by tests/fault/test_faults.sh from the top of the tree.  Arguments: LOG COUNTER.
"""
import os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import read  # noqa: E402
for r in read(sys.argv[1]).records:
    if r.get("name") == sys.argv[2]:
        m = re.search(r"for (\d+) reads, (\d+) TSC cycles", r["reason"])
        sys.exit(0 if m and (int(m.group(2)) >= 1 << 28 or int(m.group(1)) >= 1 << 22) else 1)
sys.exit(1)
