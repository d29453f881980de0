# SPDX-License-Identifier: BSD-2-Clause
"""The report's kernel path section against compare's lineup.

Run by tests/tools/test_report.sh from the top of the tree.  Arguments: HTML COMPARE_OUT LABEL LOG...
"""
import html.parser, os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import read  # noqa: E402
page, cmp, label, logs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
t = open(page, encoding="utf-8").read()
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.sec = 0; s.depth = 0; s.rows = []; s.cell = None; s.nav = 0; s.link = 0
    def handle_starttag(s, tag, attrs):
        a = dict(attrs)
        if tag == "nav": s.nav = 1
        if s.nav and tag == "a" and a.get("href") == "#kernel-path": s.link += 1
        if tag == "section":
            s.depth += 1
            if a.get("id") == "kernel-path": s.sec = s.depth
        if s.sec and tag == "tr" and "data-clocksource" in a: s.rows.append([])
        if s.sec and tag == "td" and s.rows: s.cell = ""
    def handle_endtag(s, tag):
        if tag == "nav": s.nav = 0
        if tag == "td" and s.cell is not None: s.rows[-1].append(" ".join(s.cell.split())); s.cell = None
        if tag == "section":
            if s.sec == s.depth: s.sec = 0
            s.depth -= 1
    def handle_data(s, d):
        if s.cell is not None: s.cell += d
p = P(); p.feed(t); p.close()
def name(c): return re.sub(r"^\[\d+\] ", "", c)
got = []
for r in p.rows:
    if len(r) == 6:  # the numbers' cells make one: fewer than 2 rounds
        got.append((r[0], r[2], r[1], name(r[3]), name(r[4]), "no test"))
    elif len(r) == 9 and " \u00b1 " in r[7]:
        d, e = r[7].split(" \u00b1 ")
        got.append((r[0], r[2], r[1], name(r[3]), name(r[4]), r[5], r[6], d, e, r[8] == "yes"))
    else:
        got.append(("unparsed", r))
want, on = [], False
for line in open(cmp):
    line = line.rstrip("\n")
    if line.startswith("Kernel path over the bare hardware read"): on = True; continue
    if not on or line.startswith("clocksrc"): continue
    m = re.match(r"(\S+) +(\S+) +fewer than 2 rounds: no test +(.*) \((.+) vs (.+)\)$", line)
    if m: want.append((m[1], m[2], m[3], m[4], m[5], "no test")); continue
    m = re.match(r"(\S+) +(\S+) +(\S+) +(\S+) +(\S+) \+/- (\S+)( \(n\.s\.\))? +(.*) \((.+) vs (.+)\)$", line)
    want.append((m[1], m[2], m[8], m[9], m[10], m[3], m[4], m[5], m[6], not m[7]) if m else ("unparsed", line))
# The pairings the logs hold: every OS call on tsc, hpet or acpi_pm that reads
# the counter (the coarse calls read none), times each bare log with that counter.
cmap = {"tsc": "tsc", "hpet": "hpet", "acpi_pm": "acpi-fast"}
tick_calls = {"clock_gettime(MONOTONIC_COARSE)", "time"}
def timers(f):
    return read(f).of("timer")
hw = [{r["name"] for r in timers(f)} for f in logs[:-1]]
pairs = sum(1 for r in timers(logs[-1]) if cmap.get(r.get("clocksource")) and r.get("call") not in tick_calls
            for names in hw if cmap[r["clocksource"]] in names)
ok = 'id="kernel-path"' in t and p.link == 1 and got == want and len(got) == pairs
print(("PASS" if ok else "FAIL") + ": %s: kernel path section, linked once, its %d rows are compare's %d and the logs' %d pairings"
      % (label, len(got), len(want), pairs) + ("" if ok else ": page %s, compare %s" % (got[:2], want[:2])))
print(("PASS" if pairs > 0 else "FAIL") + ": %s: the logs pair OS calls with hardware reads: %s, overheads %s ns"
      % (label, sorted(set("%s-%s" % (r[0], r[1]) for r in got)), [r[7] for r in got if len(r) > 6][:4]))
