# SPDX-License-Identifier: BSD-2-Clause
"""latency=SECONDS: the log holds exactly one latency record.

Run by tests/boot/test_smp.sh from the top of the tree.  Arguments: LOG.
"""
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402
recs = read(sys.argv[1]).of("latency")
ok(len(recs) == 1, "k-latency: one latency record")
for r in recs:
    print(json.dumps(r)[:600])
