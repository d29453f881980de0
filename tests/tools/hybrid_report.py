# SPDX-License-Identifier: BSD-2-Clause
"""report on a hybrid (two core types) log.

Run by tests/tools/test_cpus.sh from the top of the tree.  Arguments: HTML LOG.
"""
import os, re, sys
sys.path.insert(0, "tests/tools")
from cpucheck import ns, HYBRID_P50_CYCLES
t = open(sys.argv[1]).read()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import read  # noqa: E402
hz = read(sys.argv[2]).first("tsc")["hz"]
cell = "%.1f" % ns(HYBRID_P50_CYCLES, hz)  # the p50 cpucheck.py hybrid gave the counters on CPU 2
m = t[t.index("The counters on other core types"):]
rows = re.findall(r"<tr><td>([\w-]+)</td><td class=\"n\">[\d.]+</td><td>CPU 2 \(E-core\)</td><td class=\"n\">%s</td>"
                  % re.escape(cell), m[:m.index("</table>")])
res = t[t.index("<h3>Results</h3>"):]
res = res[:res.index("</table>")]
ok = len(rows) == 3 and len(re.findall(r"<tr><td><b>tsc</b>", res)) == 1
print(("PASS" if ok else "FAIL") + ": report, core types: a table of the 3 counters on CPU 2; the results table "
      "has tsc once (%s)" % rows)
