# SPDX-License-Identifier: BSD-2-Clause
"""show --json of a log and a two-run capture: runs named FILE#N, timer values,
the machine record.  Exits 0 when all hold.

Run by tests/tools/test_show_compare.sh.  Arguments: JSON TWO_LOG.
"""
import json,sys
d=json.load(open(sys.argv[1]))
r=d["runs"]
assert [x["log"] for x in r][1:]==[sys.argv[2]+"#1",sys.argv[2]+"#2"], r
t={x["counter"]:x for x in r[0]["timers"]}
assert t["hpet"]["p50_ns"]==521 and t["tsc"]["healthy"] and not t["i8254"]["healthy"]
assert r[0]["machine"]["cpu_vendor"]=="GenuineIntel" and not r[0]["damaged"]
