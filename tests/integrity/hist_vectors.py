# SPDX-License-Identifier: BSD-2-Clause
"""The C encoder's histogram vectors decoded by the Python reader.

Run by tests/integrity/test_hist_codec.sh from the top of the tree.  Arguments: VECTORS_JSONL.
"""
import json, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "tests", "boot"))
from checklog import hist_pairs
good = bad = refused = 0
wrong = []
for line in open(sys.argv[1]):  # the C encoder's vectors, one JSON a line: no log, no crc
    v = json.loads(line)
    try:
        got = [list(p) for p in hist_pairs(v["hist"])]
        err = None
    except ValueError as e:
        got, err = None, str(e)
    if "error" in v:
        refused += 1
        if err != v["error"]:
            wrong.append(f"{v['hist']!r}: C says {v['error']!r}, Python {err!r}")
    else:
        good += 1
        if got != v["pairs"]:
            wrong.append(f"{v['hist'][:40]!r}: C wrote {len(v['pairs'])} bins, Python read {err or len(got)}")
ok = good >= 400 and refused >= 10 and not wrong
print(("PASS" if ok else "FAIL") + f": hist codec: {good} C-encoded histograms decode in Python to their bins, "
      f"{refused} malformed ones refused by both for the same reason" + ("" if ok else ": " + "; ".join(wrong[:5])))
nbins = sum(len(json.loads(l).get("pairs", [])) for l in open(sys.argv[1]))
print(("PASS" if nbins > 10000 else "FAIL") + f": hist codec: the vectors hold {nbins} bins")
