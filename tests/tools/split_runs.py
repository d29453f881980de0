# SPDX-License-Identifier: BSD-2-Clause
"""One SMP log split into runs with mkfleet's reader and writer.

Run by tests/tools/test_db.sh from the top of the tree.  Arguments: TESTS_TOOLS_DIR LOG OUT_LOG.
"""
import sys
sys.path.insert(0, sys.argv[1])
from mkfleet import read_runs, write_run
recs = read_runs(sys.argv[2])[0]
out = []
for r in recs:
    out.append(r)
    if r["type"] == "tsc_sync":
        cols = r["pairs"]
        r["pairs"] = {k: v[:-1] for k, v in cols.items()}
        out.append({"type": "tsc_sync_pairs", "first": len(cols["cpu"]) - 1, "pairs": {k: v[-1:] for k, v in cols.items()}})
with open(sys.argv[3], "w") as f:
    write_run(out, f)
