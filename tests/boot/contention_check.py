# SPDX-License-Identifier: BSD-2-Clause
"""The contention records of an 8-CPU boot: hpet, acpi-fast and tsc at 1, 2,
4 and 8 readers (the curve is shown, its numbers never asserted).

Run by tests/boot/test_smp.sh from the top of the tree.  Arguments: LOG.
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402
recs = {r["counter"]: r for r in read(sys.argv[1]).of("contention")}
good = set(recs) >= {"hpet", "acpi-fast", "tsc"} and all(
    [x["n"] for x in recs[c]["readers"]] == [1, 2, 4, 8] for c in recs)
ok(good, "k-pc-8: contention records for hpet, acpi-fast and tsc at 1, 2, 4 and 8 readers",
   "%r" % {c: [x["n"] for x in r["readers"]] for c, r in recs.items()})
for c, r in sorted(recs.items()):
    print("contention %-9s p50 ns by readers: %s; backward steps %s" % (
        c, ", ".join("%d: %s" % (x["n"], x["p50_ns"]) for x in r["readers"]), r["backwards"]))
