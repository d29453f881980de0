# SPDX-License-Identifier: BSD-2-Clause
"""A file size limit that cuts the log in the hpet run's first record.

Run by tests/tools/test_os.sh from the top of the tree.  Arguments: LOG.
"""
import sys
lines = [l for l in open(sys.argv[1], 'rb').read().split(b'\n') if l.startswith(b'{')]
first = next(i for i, l in enumerate(lines) if b'"clocksource":"hpet"' in l)
print(sum(len(l) + 1 for l in lines[:first]) + len(lines[first]) // 2)
