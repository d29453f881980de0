# SPDX-License-Identifier: BSD-2-Clause
"""Damaged, truncated and two-boot copies of a log.

Run by tests/tools/test_db.sh from the top of the tree.  Arguments: LOG OUT_DIR OS_LOG.
"""
import sys
src, out = sys.argv[1], sys.argv[2]
lines = open(src).read().splitlines(keepends=True)
t = next(i for i, l in enumerate(lines) if '"type":"timer"' in l)
flipped = lines[:]; flipped[t] = flipped[t].replace('"samples":', '"sampels":', 1)
open(out + "/damaged.log", "w").write("".join(flipped))
# Cut in the middle of the first timer record, whatever its length: a cut
# at a fixed offset past its start can land on the text line after a short
# (unhealthy) one, and the truncated log then has no damaged record.
cut = "".join(lines[:t]) + lines[t][: len(lines[t]) // 2]
open(out + "/truncated.log", "w").write(cut)
open(out + "/twoboots.log", "w").write("".join(lines) + "\x1b[2J\x1b[01;01HBdsDxe: loading Boot0001\r\n" + open(sys.argv[3]).read())
