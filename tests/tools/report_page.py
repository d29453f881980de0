# SPDX-License-Identifier: BSD-2-Clause
"""The HTML report of two bare-metal logs and an OS log.

Run by tests/tools/test_report.sh from the top of the tree.  Arguments: HTML LOG...
"""
import html.parser, os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402
page, logs = sys.argv[1], sys.argv[2:]
text = open(page, encoding="utf-8").read()
VOID = {"meta", "br", "rect", "line", "path", "img", "hr", "input", "link"}
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.stack = []; s.errors = []; s.tags = {}; s.svgs = []; s.cur = None
        s.ids = set(); s.text = []
    def handle_starttag(s, tag, attrs):
        a = dict(attrs); s.tags[tag] = s.tags.get(tag, 0) + 1
        if "id" in a: s.ids.add(a["id"])
        if tag == "svg": s.cur = {"counter": a.get("data-counter"), "cls": a.get("class"), "texts": [], "tags": {}}
        if tag == "text" and s.cur is not None: s.cur["texts"].append("")
        elif s.cur is not None: s.cur["tags"][tag] = s.cur["tags"].get(tag, 0) + 1
        if tag not in VOID: s.stack.append(tag)
    def handle_startendtag(s, tag, attrs):
        s.handle_starttag(tag, attrs)
        if tag not in VOID: s.stack.pop()
    def handle_endtag(s, tag):
        if tag in VOID: return
        if not s.stack or s.stack[-1] != tag:
            s.errors.append("</%s> closes <%s>" % (tag, s.stack[-1] if s.stack else "nothing")); return
        s.stack.pop()
        if tag == "svg": s.svgs.append(s.cur); s.cur = None
    def handle_data(s, d):
        if s.cur is not None and s.stack and s.stack[-1] == "text": s.cur["texts"][-1] += d
        s.text.append(d)
p = P(); p.feed(text); p.close()
fails = []
ok(not p.errors and not p.stack, "page: every element closed in order (%s)" % (p.errors[:3] or p.stack[:3]))
# The counters in the logs, keyed as compare keys them; which logs have a histogram.
keys, hist = [], {}
for i, f in enumerate(logs):
    for r in read(f).of("timer"):
        k = ("os:" if r.get("clocksource") else "") + r["name"]
        if k not in keys: keys.append(k)
        if r.get("hist"): hist.setdefault(k, []).append(i)
hs = [s for s in p.svgs if s["cls"] == "hist"]
got = [s["counter"] for s in hs]
ok(sorted(got) == sorted(keys) and len(got) == len(set(got)),
   "one histogram <svg> per counter in the logs (%d counters, %d svgs)" % (len(keys), len(got)))
ok(len(keys) >= 15, "the logs hold at least 15 counters (%d)" % len(keys))
for s in hs:
    t = s["texts"]
    want = hist.get(s["counter"], [])
    legend = [i for i in range(len(logs)) if any(x.startswith("[%d] " % (i + 1)) for x in t)]
    marks = t.count("p50")
    if not (set(want) <= set(legend) and marks == len(want) and s["tags"].get("path", 0) >= 2 * len(want) + 1):
        ok(False, "svg %s: legend %s, %d p50 marks, bars for logs %s" % (s["counter"], legend, marks, want)); break
else:
    ok(True, "every svg: a legend row, a p50 mark and bars for each log with a histogram")
ov = [s for s in hs if len(hist.get(s["counter"], [])) >= 2]
ok(len(ov) >= 10, "histograms overlaid from two or more logs: %d" % len(ov))
ok(p.tags.get("table", 0) >= 10, "tables present (%d)" % p.tags.get("table", 0))
for i in ("logs", "summary", "distributions", "comparisons", "run1", "run2", "run3"):
    if i not in p.ids: ok(False, "section id %s present" % i); break
else:
    ok(True, "sections: logs, summary, distributions, comparisons, one per machine")
low = text.lower()
ok("http://" not in low and "https://" not in low, "no http:// or https:// anywhere")
ok("<script" not in low and "<link" not in low and "@import" not in low and "url(" not in low,
   "no script, no stylesheet link, no @import, no url()")
body = "".join(p.text)
for w in ("complete, undamaged", "AuthenticAMD", "TCGTCGTCGTCG", "cpuid-rdtsc/rdtscp-cpuid", "0x608",
          "0xfed00000", "OS clock calls", "Context switches", "Gaps between successive results",
          "Clock call loops", "clock_monotonic_raw", "Difference at 95.0% confidence", "linux", "bios"):
    if w not in body: ok(False, "page text has '%s'" % w); break
else:
    ok(True, "page text: integrity, fingerprints, overhead, ACPI, OS records, comparisons")
# The summary's p50 cells are the logs' cost_cycles.p50 in ns at the run's tsc.hz.
def ns(cycles, hz):
    return cycles * 1e9 / hz
a = {r["name"]: r for r in read(logs[0]).of("timer")}
hz = read(logs[0]).first("tsc")["hz"]
want = "%.1f" % ns(a["hpet"]["cost_cycles"]["p50"], hz)
ok(re.search(r'<tr data-counter="hpet"><td>hpet</td><td class="n[^"]*">' + re.escape(want), text) is not None,
   "summary: hpet p50 of log 1 is the log's %s ns" % want)
