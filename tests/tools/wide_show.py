# SPDX-License-Identifier: BSD-2-Clause
"""show on a 256-CPU log: the CPUs grouped.

Run by tests/tools/test_cpus.sh from the top of the tree.  Arguments: SHOW_TEXT.
"""
import re, sys
t = open(sys.argv[1]).read()
part = t[t.index("\ncpus "):t.index("\nteam ")]
groups = re.findall(r"^  (\S+) +(\d+)  (\S+) +\S+ +\S+ +(bsp|running|disabled) ", part, re.M)
ok = len(part.splitlines()) <= 8 and sum(int(g[1]) for g in groups) == 256 and \
     [g[3] for g in groups] == ["bsp", "running", "running", "disabled"] and "2 packages" in part
print(("PASS" if ok else "FAIL") + ": show, 256 CPUs: %d lines, groups %s" % (len(part.splitlines()),
      [(g[0], g[1], g[3]) for g in groups]))
