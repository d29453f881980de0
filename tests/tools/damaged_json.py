# SPDX-License-Identifier: BSD-2-Clause
"""show --json of the log whose tsc_sync record is damaged (on stdin): tsc_sync
null, the left-out line named, the other records kept.

Run by tests/tools/test_cpus.sh.  Arguments: LINE.
"""
import json, sys
r = json.load(sys.stdin)["runs"][0]
ok = r["tsc_sync"] is None and r["cpu_records_left_out"] == [{"line": int(sys.argv[1]), "in_place_of": "tsc_sync"}]
ok &= r["cpus"]["started"] == 4 and len(r["contention"]) >= 1
print(("PASS" if ok else "FAIL") + ": show --json: tsc_sync null, the left-out line named, the other records kept")
