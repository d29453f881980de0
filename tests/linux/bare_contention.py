# SPDX-License-Identifier: BSD-2-Clause
"""The bare-metal log with its contention records kept and the end record
sealed again.

Run by tests/linux/test_linux.sh from the top of the tree.  Arguments: LOG OUT_LOG.
"""
import json, os, sys, zlib
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from tplog import read, sealed  # noqa: E402
log = read(sys.argv[1])
if log.bad or not log.records or log.records[-1]['type'] != 'end':
    sys.exit('%s: not a whole log (%d damaged records, or no end record)' % (sys.argv[1], log.bad))
recs = log.records[:-1]                                # without the end record
recs = [r for r in recs if r['type'] != 'contention']  # the probe's own: replaced by known figures
for k, counter in enumerate(('hpet', 'acpi-fast', 'tsc')):
    recs.append({'type': 'contention', 'counter': counter,
                 'readers': [{'n': 1, 'p50_ns': 101.5 + k, 'p99_ns': 201.5 + k, 'reads_per_s': 3000001 + k},
                             {'n': 2, 'p50_ns': 111.5 + k, 'p99_ns': 211.5 + k, 'reads_per_s': 4000001 + k}],
                 'backwards': 0})
out, crc_all = [], 0
def emit(r):
    global crc_all
    body = {'type': r.pop('type'), 'seq': len(out)}
    body.update((k, v) for k, v in r.items() if k not in ('seq', 'crc'))
    t = json.dumps(body, separators=(',', ':')).encode()[:-1]
    line = sealed(t)
    crc_all = zlib.crc32(line + b'\n', crc_all)
    out.append(line)
for r in recs:
    emit(r)
end = log.records[-1]
emit({'type': 'end', 'records': len(out), 'crc32': '%08x' % crc_all, 'status': end['status'], 'bytes': 0})
open(sys.argv[2], 'wb').write(b'\n'.join(out) + b'\n')
