# SPDX-License-Identifier: BSD-2-Clause
"""The log checker of tests/tools/test_os.sh: every record's crc, seq order, the
end record's count and crc32, unique names.  Prints "ok" or what is wrong.

Arguments: LOG [partial].
"""
import os, sys, zlib
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from tplog import parse, record_lines  # noqa: E402
def check(path, want_end=True):
    recs, crc_all = [], 0
    for raw in record_lines(path):  # every record line: a bad one is named, not skipped
        r = parse(raw)
        if r is None:
            return 'bad crc, or not a record, in record %d' % len(recs)
        if r['seq'] != len(recs):
            return 'seq %d at position %d' % (r['seq'], len(recs))
        if r['type'] == 'end' and (r['records'] != len(recs) or int(r['crc32'], 16) != crc_all):
            return 'end record disagrees: records %d crc32 %s' % (r['records'], r['crc32'])
        crc_all = zlib.crc32(raw + b'\n', crc_all)
        recs.append(r)
    if not recs or recs[0]['type'] != 'begin':
        return 'no begin record'
    if want_end and recs[-1]['type'] != 'end':
        return 'no end record'
    names = [r['name'] for r in recs if 'name' in r]
    if len(names) != len(set(names)):
        return 'duplicate names'
    return 'ok'
if __name__ == '__main__':
    print(check(sys.argv[1], sys.argv[2:] != ['partial']))
