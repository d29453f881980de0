# SPDX-License-Identifier: BSD-2-Clause
"""The report of a damaged log: every problem shown, the banner, the exclusion.

Run by tests/tools/test_report.sh from the top of the tree.  Arguments: HTML STDERR.
"""
import html, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
msgs = [l.split(": ", 2)[2].strip() for l in open(sys.argv[2]) if l.count(": ") >= 2 and ": wrote " not in l]
plain = html.unescape(re.sub(r"<[^>]+>", " ", t))
miss = [m for m in msgs if m.split(": ", 1)[-1] not in plain]
print(("PASS" if msgs and not miss else "FAIL") + ": every problem on stderr is on the page (%d; missing %s)" % (len(msgs), miss))
ok = 'id="damage"' in t and "bad record crc" in plain and "excluded" in plain
print(("PASS" if ok else "FAIL") + ": damage banner, the bad crc and the exclusion shown")
row = re.search(r'<tr data-counter="hpet">(.*?)</tr>', t)
cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1)) if row else []
print(("PASS" if len(cells) == 3 and cells[1] == "&ndash;" else "FAIL") +
      ": the damaged hpet record's numbers are not used (%s)" % cells[1:])
