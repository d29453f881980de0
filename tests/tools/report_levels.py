# SPDX-License-Identifier: BSD-2-Clause
"""The report's results table at one confidence level.

Run by tests/tools/test_report.sh from the top of the tree.  Arguments: HTML.
"""
import re, sys
t = open(sys.argv[1]).read()
rows = re.findall(r'<tr data-counter="([^"]*)">(.*?)</tr>', t)
open(sys.argv[1] + ".sig", "w").write("".join(k + "\n" for k, r in sorted(rows) if "sig " in r))
