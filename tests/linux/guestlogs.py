# SPDX-License-Identifier: BSD-2-Clause
"""What the Linux-guest test's checks share: PASS/FAIL lines, and the records
of a log whose CRC holds (a damaged record is no evidence of anything)."""
import json
import zlib


def say(good, name, why=''):
    print(('PASS: %s' % name) if good else ('FAIL: %s: %s' % (name, why)))


def records(path):
    out = []
    for raw in open(path, 'rb').read().split(b'\n'):
        raw = raw.rstrip(b'\r')
        if raw.startswith(b'{'):
            k = raw.rfind(b',"crc":"')
            if k > 0 and zlib.crc32(raw[:k]) == int(raw[k + 8:k + 16], 16):
                out.append(json.loads(raw))
    return out
