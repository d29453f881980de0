# SPDX-License-Identifier: BSD-2-Clause
"""A counter that never moves: its timer record's reason shows the wait
reaching its bound (2^28 cycles or 2^22 reads).  Exits 0 when it does.

Run by tests/fault/test_faults.sh from the top of the tree.  Arguments: LOG COUNTER.
"""
import json, re, sys
for line in open(sys.argv[1], errors="replace"):
    if line.startswith("{") and '"name":"%s"' % sys.argv[2] in line:
        m = re.search(r"for (\d+) reads, (\d+) TSC cycles", json.loads(line)["reason"])
        sys.exit(0 if m and (int(m.group(2)) >= 1 << 28 or int(m.group(1)) >= 1 << 22) else 1)
sys.exit(1)
