# SPDX-License-Identifier: BSD-2-Clause
"""Two JSON outputs equal but for the members that name their files.

Run by tests/integrity/test_schema1.sh from the top of the tree.  Arguments: A_JSON B_JSON.
"""
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if not (isinstance(x, dict) and "crc" in x) and k != "log"}
    return [strip(x) for x in v] if isinstance(v, list) else v
a, b = (strip(json.load(open(f))) for f in sys.argv[1:])
print(("PASS" if a == b and a["runs"] else "FAIL") +
      ": schemas 1 and 2: tickprobe show --json: the same run gives the same values (embedded records aside)")
