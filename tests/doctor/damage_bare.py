# SPDX-License-Identifier: BSD-2-Clause
# A copy of a bare log with one byte of its tsc_sync record changed, so that
# the record's CRC no longer matches: the doctor must name it and not trust it.
#   python3 tests/doctor/damage_bare.py IN OUT
import sys

lines = open(sys.argv[1]).read().splitlines(True)
out = [l.replace('"synchronized":true', '"synchronized":tru3') if '"type":"tsc_sync"' in l else l for l in lines]
open(sys.argv[2], "w").write("".join(out))
