# SPDX-License-Identifier: BSD-2-Clause
# The doctor on a kernel log cut in the middle of the watchdog's reference
# line (made by tests/doctor/test_doctor.sh): the mark is still found and the
# cut is said.
#   python3 tests/doctor/cut_log_check.py OUT
import json
import sys

d = json.load(open(sys.argv[1] + "/cut.json"))
rc = open(sys.argv[1] + "/cut.rc").read().split()
m = [e for e in d["events"] if e["kind"] == "watchdog-unstable"]
ok = rc[0] == "4" and len(m) == 1 and any("cut short" in s for s in d["evidence"])
print(("PASS" if ok else "FAIL") + ": a kernel log cut mid-line: the mark is found, the cut is said, exit %s" % rc[0])
