# SPDX-License-Identifier: BSD-2-Clause
"""relabel.py IN OUT OLD NEW: the log IN's records, in each the first OLD
(bytes as the record line writes them, JSON escapes and all) replaced by NEW, each
record's crc and the end record's crc32 made right again, written to OUT:
a log whose text is hostile and whose integrity still holds."""
import sys
import zlib

TAIL = len(',"crc":"xxxxxxxx"}')


def main(src, dst, old, new):
    out, crc, done = [], 0, False
    for line in open(src, "rb"):
        line = line.rstrip(b"\r\n")
        if not line.startswith(b"{"):
            continue
        body = line[:-TAIL]
        if b'"type":"end"' in body:
            i = body.index(b'"crc32":"') + 9
            body = body[:i] + b"%08x" % crc + body[i + 8:]
        elif old in body:
            body = body.replace(old, new, 1)
            done = True
        rec = body + b',"crc":"%08x"}' % (zlib.crc32(body) & 0xFFFFFFFF)
        if b'"type":"end"' not in body:
            crc = zlib.crc32(rec + b"\n", crc)
        out.append(rec)
    if not done:
        sys.exit("relabel.py: %s holds no %r" % (src, old))
    open(dst, "wb").write(b"\n".join(out) + b"\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3].encode(), sys.argv[4].encode())
