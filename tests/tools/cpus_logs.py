# SPDX-License-Identifier: BSD-2-Clause
"""The three logs of test_cpus.sh: CPUs running, the skewed one not synchronized.

Run by tests/tools/test_cpus.sh from the top of the tree.  Arguments: A_LOG SKEW_LOG ONE_LOG.
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import read  # noqa: E402
def rec(f, t):
    return read(f).first(t)
a, s, o = (rec(f, "cpus") or {} for f in sys.argv[1:])
ok = a.get("started") == 4 and s.get("started") == 4 and o.get("count") == 1
ok &= rec(sys.argv[2], "tsc_sync") is not None and rec(sys.argv[2], "tsc_sync")["synchronized"] is False
ok &= rec(sys.argv[1], "latency") is not None and rec(sys.argv[3], "tsc_sync") is None
print(("PASS" if ok else "FAIL") + ": the logs: 4 and 4 CPUs running, the skewed one NOT synchronized, "
      "a latency record, no tsc_sync on 1 CPU")
