# SPDX-License-Identifier: BSD-2-Clause
"""The report's screenshot: white paper, text shades, the logs' colours.

Run by tests/tools/test_report.sh from the top of the tree.  Arguments: PNG.
"""
# Decode the PNG (stdlib zlib, the five filters) and count colours: a page that
# rendered shows white paper, many text shades, and the logs' own colours.
import collections, struct, sys, zlib
d = open(sys.argv[1], "rb").read()
ok = d[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while ok and pos < len(d):
    n, = struct.unpack(">I", d[pos:pos + 4]); typ = d[pos + 4:pos + 8]; body = d[pos + 8:pos + 8 + n]
    pos += 12 + n
    if typ == b"IHDR": w, h, bd, ct, _, _, il = struct.unpack(">IIBBBBB", body)
    elif typ == b"IDAT": idat += body
if not ok or bd != 8 or ct not in (2, 6) or il:
    print("FAIL: screenshot decodes: not an 8-bit RGB(A) non-interlaced PNG"); sys.exit(0)
raw, bpp = zlib.decompress(idat), 3 if ct == 2 else 4
stride, prev, cols = w * bpp, bytearray(w * bpp), collections.Counter()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for i in range(0, stride, bpp): cols[bytes(line[i:i + 3])] += 1
    prev = line
white = cols.get(b"\xff\xff\xff", 0)
print(("PASS" if len(cols) > 100 and white > w * h // 4 else "FAIL") +
      ": screenshot %dx%d: %d colours, %d%% white" % (w, h, len(cols), 100 * white // (w * h)))
have = {c: cols.get(bytes.fromhex(c), 0) for c in ("0072b2", "d55e00", "009e73")}
print(("PASS" if min(have.values()) >= 30 else "FAIL") + ": screenshot shows the three log colours: %s" % have)
