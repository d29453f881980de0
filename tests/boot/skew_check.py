# SPDX-License-Identifier: BSD-2-Clause
"""A skewed CPU's tsc_sync record: its offset, its warps, the verdict.

Run by tests/boot/test_smp.sh from the top of the tree.  Arguments: LOG SKEW_CYCLES NAME.
"""
import json, os, sys
sys.path.insert(0, "tests/boot")
from checklog import as_read  # the pairs are written as columns
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402
path, skew, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
recs = [as_read(r) for r in read(path).of("tsc_sync")]
def out(good, what, why=""):
    return ok(good, name + ": " + what, why)
out(len(recs) == 1, "one tsc_sync record", str(len(recs)))
if recs:
    r = recs[0]
    pairs = {p["cpu"]: p for p in r["pairs"]}
    p2 = pairs.get(2, {})
    off, unc = p2.get("offset_cycles", 0), p2.get("uncertainty_cycles", -1)
    out(abs(off - skew) <= unc, "CPU 2's offset equals the skew within its uncertainty",
        "offset %s, uncertainty %s, skew %d" % (off, unc, skew))
    out(p2.get("warps", 0) > 0, "the warp test finds warps on CPU 2", json.dumps(p2))
    others = [p for c, p in pairs.items() if c != 2]
    out(all(p["warps"] == 0 and abs(p["offset_cycles"]) <= p["uncertainty_cycles"] for p in others),
        "no other CPU warps or is off", json.dumps(others)[:300])
    out(r["synchronized"] is False and r["linux_would_mark_unstable"] is True and r["warps"] > 0,
        "verdict: not synchronized, and Linux would mark the TSC unstable",
        json.dumps({k: r[k] for k in ("synchronized", "linux_would_mark_unstable", "warps")}))
    print("%s: CPU 2 offset %d +/- %d cycles for a skew of %d; %d warps, largest %d" % (
        name, off, unc, skew, p2.get("warps", 0), p2.get("max_warp_cycles", 0)))
