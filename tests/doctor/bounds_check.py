# SPDX-License-Identifier: BSD-2-Clause
# The doctor's memory bounds (tests/doctor/test_doctor.sh): a log of 5,001
# events keeps the latest, its last switch among them, and says how many it
# let go; a log longer than 64 MiB is read from its last 64 MiB and says so.
#   python3 tests/doctor/bounds_check.py OUT
import json
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok  # noqa: E402

out = sys.argv[1]


d = json.load(open(os.path.join(out, "many.json")))
ev = d["events"]
ok(len(ev) <= 4096 and ev[-1]["clocksource"] == "hpet" and ev[-1]["timestamp"] == 5000.0 and
   any("the oldest 2048 were let go" in e for e in d["evidence"]),
   "5,001 events: %d kept, the latest last, the ones let go said" % len(ev))
d = json.load(open(os.path.join(out, "big.json")))
ev = d["events"]
ok(len(ev) == 1 and ev[0]["clocksource"] == "hpet" and any("longer than 64 MiB" in e for e in d["evidence"]),
   "a log of 65 MiB: its last 64 MiB read, the switch at its end found, the skipped start said")
