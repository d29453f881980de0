# SPDX-License-Identifier: BSD-2-Clause
"""show on a hybrid (two core types) log.

Run by tests/tools/test_cpus.sh from the top of the tree.  Arguments: LOG SHOW_TEXT EXIT_STATUS.
"""
import os, re, sys
sys.path.insert(0, "tests/tools")
from cpucheck import ns  # cycles -> ns at the run's tsc.hz, as the reader does
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import read  # noqa: E402
recs = read(sys.argv[1]).records
hz = next(r for r in recs if r["type"] == "tsc")["hz"]
t = open(sys.argv[2]).read()
boot = {r["name"]: r for r in recs if r["type"] == "timer" and "cpu" not in r}
on = [r for r in recs if r["type"] == "timer" and "cpu" in r]
table = t.split("\n\n")[1]
once = all(len(re.findall(r"^%s " % re.escape(n), table, re.M)) == 1 for n in boot)
rows = re.findall(r"^  (\S+) +([\d.]+) +CPU 2 \(E-core\) +([\d.]+)$", t, re.M)
want = [(r["name"], "%.1f" % ns(boot[r["name"]]["cost_cycles"]["p50"], hz), "%.1f" % ns(r["cost_cycles"]["p50"], hz))
        for r in on]
ok = sys.argv[3] == "0" and once and rows == want and "core types P-core x2, E-core x2" in t
print(("PASS" if ok else "FAIL") + ": show, core types: the boot CPU's table has each counter once; the %d counters "
      "on CPU 2 (E-core) beside CPU 0's p50 (%s)" % (len(on), rows[:1]))
