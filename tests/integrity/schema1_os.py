# SPDX-License-Identifier: BSD-2-Clause
"""A schema-1 OS log: its histograms and rounds read by the Python reader.

Run by tests/integrity/test_schema1.sh from the top of the tree.  Arguments: LOG.
"""
import os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "tests", "boot"))
from checklog import hist_pairs, round_values
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import read  # noqa: E402
recs = read(sys.argv[1]).records
n = recs[0]["options"]["rounds"]
hists = [r for r in recs if "hist" in r]
ok = len(hists) >= 9 and all(sum(c for _, c in hist_pairs(r["hist"])) == r["samples"] for r in hists)
print(("PASS" if ok else "FAIL") + f": schema 1: {os.path.basename(sys.argv[1])}: {len(hists)} histograms hold every sample")
rounds = [r for r in recs if "rounds" in r]
ok = len(rounds) >= 10 and all(len(round_values(r["rounds"], m)) == n for r in rounds for m in ("p50", "mean"))
print(("PASS" if ok else "FAIL") + f": schema 1: {os.path.basename(sys.argv[1])}: {len(rounds)} records with {n} rounds")
