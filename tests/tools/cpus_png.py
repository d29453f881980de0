# SPDX-License-Identifier: BSD-2-Clause
"""The CPU page's screenshot: the skewed CPU's bar in red.

Run by tests/tools/test_cpus.sh from the top of the tree.  Arguments: PNG.
"""
# The skewed CPU's error bar is drawn in the page's red (#b00020) and the
# others in the log's colour: decode the PNG (stdlib zlib, the five filters).
import collections, struct, sys, zlib
d = open(sys.argv[1], "rb").read()
pos, idat, hdr = 8, b"", None
while d[:8] == b"\x89PNG\r\n\x1a\n" and pos < len(d):
    n, = struct.unpack(">I", d[pos:pos + 4]); typ = d[pos + 4:pos + 8]; body = d[pos + 8:pos + 8 + n]; pos += 12 + n
    if typ == b"IHDR": hdr = struct.unpack(">IIBBBBB", body)
    elif typ == b"IDAT": idat += body
if not hdr or hdr[2] != 8 or hdr[3] not in (2, 6) or hdr[6]:
    print("FAIL: screenshot decodes: not an 8-bit RGB(A) non-interlaced PNG"); sys.exit(0)
w, h, bpp = hdr[0], hdr[1], 3 if hdr[3] == 2 else 4
raw, stride, prev, cols = zlib.decompress(idat), w * bpp, bytearray(w * bpp), collections.Counter()
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
have = {c: cols.get(bytes.fromhex(c), 0) for c in ("d55e00", "b00020")}
white = cols.get(b"\xff\xff\xff", 0)
print(("PASS" if min(have.values()) >= 20 and len(cols) > 50 and white > w * h // 4 else "FAIL") +
      ": screenshot %dx%d of log 2's CPUs: %d colours, the log's colour and the red of the proven offset: %s"
      % (w, h, len(cols), have))
