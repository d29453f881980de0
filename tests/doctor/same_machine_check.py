# SPDX-License-Identifier: BSD-2-Clause
# The doctor with another machine's bare log and --same-machine: the log is
# used, the override is said in the JSON and the text, and the QEMU CPU's
# missing invariant TSC makes the verdict unreliable.
#   python3 tests/doctor/same_machine_check.py OUT
import json
import sys

d = json.load(open(sys.argv[1] + "/other-same.json"))
t = open(sys.argv[1] + "/other-same.txt").read()
ok = d["same_machine_override"] and "--same-machine" in d["bare_log_note"] and "--same-machine" in t \
    and d["tsc_verdict"] == "unreliable" and any("invariant" in s for s in d["evidence"])
print(("PASS" if ok else "FAIL") + ": --same-machine: used, and said so; the QEMU CPU's missing invariant TSC makes it unreliable")
