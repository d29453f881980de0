# SPDX-License-Identifier: BSD-2-Clause
# The doctor's verdicts as show, show --json, report and report --db give
# them for the synchronised and skewed bare logs of tests/doctor/test_doctor.sh.
#   python3 tests/doctor/show_report_check.py OUT
import json
import os
import re
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok  # noqa: E402

out = sys.argv[1]


t = open(out + "/show-skew.txt").read()
ok("Verdicts:" in t and "TSC: unreliable: CPU 2's TSC" in t and "Linux would use hpet" in t and
   "FreeBSD would use" in t and "Cheapest correct counter" in t and "ACPI-fast or HPET" in t,
   "show: the skewed log's Verdicts: the TSC, Linux, FreeBSD, the cheapest counter, ACPI-fast or HPET")
v = json.load(open(out + "/show-sync.json"))["runs"][0]["verdicts"]
ok(v["tsc_verdict"] == "reliable" and v["linux"]["clocksource"] == "tsc" and v["freebsd"]["timecounter"] == "TSC-low",
   "show --json: the synchronised log: reliable, Linux tsc, FreeBSD TSC-low")
h = open(out + "/report.html").read()
ok(h.count("<h3>Verdicts</h3>") == 2 and "reliable</b>" in h and "unreliable</b>" in h,
   "report: a Verdicts section per run")
f = open(out + "/fleet.html").read()
m = re.search(r'id="fleet-verdicts">(.*?)</table>', f, re.S)
ok(m and "<th>reliable</th><td>1</td>" in m.group(1) and "<th>unreliable</th><td>1</td>" in m.group(1),
   "report --db: 1 machine reliable, 1 unreliable")
