# SPDX-License-Identifier: BSD-2-Clause
"""latency=SECONDS: the log holds exactly one latency record.

Run by tests/boot/test_smp.sh from the top of the tree.  Arguments: LOG.
"""
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1], errors="replace") if l.startswith('{"type":"latency"')]
print(("PASS" if len(recs) == 1 else "FAIL") + ": k-latency: one latency record")
for r in recs:
    print(json.dumps(r)[:600])
