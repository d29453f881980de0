# SPDX-License-Identifier: BSD-2-Clause
"""A log with a hostile brand and ACPI problem, its CRCs valid.

Run by tests/tools/test_report.sh from the top of the tree.  Arguments: LOG OUT_LOG.
"""
# Rewrite the machine record's brand and add an ACPI problem, with valid CRCs.
import json, sys, zlib
def seal(body): return body + ',"crc":"%08x"}' % (zlib.crc32(body.encode("latin-1")) & 0xffffffff)
out, run = [], 0
for line in open(sys.argv[1], encoding="latin-1"):
    line = line.rstrip("\r\n")
    if not line.startswith("{"): out.append(line); continue
    body = line[:line.rindex(',"crc":"')]
    if '"type":"machine"' in body:
        body = body.replace('"cpu_brand":"', '"cpu_brand":"<script>alert(\\"x\\")</script> & \'q\' <img src=x onerror=alert(1)>\\u0001 ')
    if '"type":"acpi"' in body:
        body = body.replace('"problems":[]', '"problems":["<b>bold</b> \\u00ff"]')
    if '"type":"end"' in body:
        body = body[:body.index('"crc32":"') + 9] + "%08x" % run + body[body.index('"crc32":"') + 17:]
    line = seal(body)
    if '"type":"end"' not in body: run = zlib.crc32((line + "\n").encode("latin-1"), run)
    out.append(line)
open(sys.argv[2], "w", encoding="latin-1").write("\n".join(out) + "\n")
