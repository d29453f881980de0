# SPDX-License-Identifier: BSD-2-Clause
"""A log with one bit of the hpet timer record flipped.

Run by tests/tools/test_report.sh from the top of the tree.  Arguments: LOG OUT_LOG.
"""
# Flip one bit of a digit inside the hpet timer record: its crc no longer matches.
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
for i, l in enumerate(lines):
    if l.startswith(b'{"type":"timer"') and b'"name":"hpet"' in l:
        k = l.index(b'"cost_cycles":{"min":') + 21
        lines[i] = l[:k] + bytes([l[k] ^ 1]) + l[k + 1:]
open(sys.argv[2], "wb").write(b"\n".join(lines))
