# SPDX-License-Identifier: BSD-2-Clause
"""The three logs of test_cpus.sh: CPUs running, the skewed one not synchronized.

Run by tests/tools/test_cpus.sh from the top of the tree.  Arguments: A_LOG SKEW_LOG ONE_LOG.
"""
import json, sys
def rec(f, t):
    return next((json.loads(l) for l in open(f, errors="replace") if l.startswith('{"type":"%s"' % t)), None)
a, s, o = (rec(f, "cpus") or {} for f in sys.argv[1:])
ok = a.get("started") == 4 and s.get("started") == 4 and o.get("count") == 1
ok &= rec(sys.argv[2], "tsc_sync") is not None and rec(sys.argv[2], "tsc_sync")["synchronized"] is False
ok &= rec(sys.argv[1], "latency") is not None and rec(sys.argv[3], "tsc_sync") is None
print(("PASS" if ok else "FAIL") + ": the logs: 4 and 4 CPUs running, the skewed one NOT synchronized, "
      "a latency record, no tsc_sync on 1 CPU")
