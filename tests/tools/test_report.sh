#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe report: logs from two real boots of the probe (QEMU pc and q35,
# -kernel, preset quick) and one `tickprobe os --quick` run on this host make
# one page.  Its structure is checked with Python's html.parser, its
# comparisons against `tickprobe compare`, and it is rendered by headless
# chromium (screenshot pixels and the rendered DOM).  Then: hostile text in a
# log is escaped, a damaged log gives exit 3 with the damage on the page, a
# missing one exit 2.  Pages and screenshots stay in $BUILD/test-report.
BUILD=${BUILD:-build}
T=$BUILD/tickprobe
K=$BUILD/tickprobe.elf32
OUT=$BUILD/test-report
rm -rf "$OUT" && mkdir -p "$OUT"
ABS=$(cd "$OUT" && pwd)

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
ok() { if [ "$2" = 0 ]; then pass "$1"; else fail "$1" "$3"; fi; }

[ -x "$T" ] || { fail setup "$T is not built (make tool)"; exit 1; }
[ -f "$K" ] || { fail setup "$K is not built (make kernel)"; exit 1; }
for t in qemu-system-x86_64 python3 chromium; do
	command -v $t >/dev/null 2>&1 || { fail setup "$t not installed (make deps)"; exit 1; }
done

# --- the logs ---------------------------------------------------------------------
boot() { # machine, log
	timeout 60 qemu-system-x86_64 -cpu max -machine "$1" -kernel "$K" -append "preset=quick" \
		-serial file:"$2" -display none -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		>"$OUT/qemu-$1.err" 2>&1
	rc=$?
	# 33: the probe wrote 16 to the exit port, "status ok".
	ok "boot -machine $1: exit 33" $([ "$rc" = 33 ] && echo 0 || echo 1) "exit $rc: $(tail -2 "$OUT/qemu-$1.err")"
}
boot pc "$OUT/a.log"
boot q35 "$OUT/b.log"
"$T" os --quick -o "$OUT/os.log" 2>"$OUT/os.err"
ok "tickprobe os --quick writes an OS-side log" $? "$(tail -2 "$OUT/os.err")"

chrome() { # html, then chromium's own options
	f=$1
	shift
	chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$OUT/chrome.XXXXXX")" "$@" "file://$ABS/$f"
}

# --- the page from three logs -------------------------------------------------------
"$T" report "$OUT/a.log" "$OUT/b.log" "$OUT/os.log" -o "$OUT/report.html" 2>"$OUT/report.err"
ok "report of three clean logs: exit 0" $? "$(cat "$OUT/report.err")"

# Structure, against the logs themselves (read here with json, not the tool).
python3 - "$OUT/report.html" "$OUT/a.log" "$OUT/b.log" "$OUT/os.log" <<'EOF'
import html.parser, json, re, sys
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
def check(cond, what):
    print(("PASS: " if cond else "FAIL: ") + what)
check(not p.errors and not p.stack, "page: every element closed in order (%s)" % (p.errors[:3] or p.stack[:3]))
# The counters in the logs, keyed as compare keys them; which logs have a histogram.
keys, hist = [], {}
for i, f in enumerate(logs):
    for line in open(f, encoding="utf-8", errors="replace"):
        if not line.startswith("{"): continue
        r = json.loads(line)
        if r.get("type") != "timer": continue
        k = ("os:" if r.get("clocksource") else "") + r["name"]
        if k not in keys: keys.append(k)
        if r.get("hist"): hist.setdefault(k, []).append(i)
hs = [s for s in p.svgs if s["cls"] == "hist"]
got = [s["counter"] for s in hs]
check(sorted(got) == sorted(keys) and len(got) == len(set(got)),
      "one histogram <svg> per counter in the logs (%d counters, %d svgs)" % (len(keys), len(got)))
check(len(keys) >= 15, "the logs hold at least 15 counters (%d)" % len(keys))
for s in hs:
    t = s["texts"]
    want = hist.get(s["counter"], [])
    legend = [i for i in range(len(logs)) if any(x.startswith("[%d] " % (i + 1)) for x in t)]
    marks = t.count("p50")
    if not (set(want) <= set(legend) and marks == len(want) and s["tags"].get("path", 0) >= 2 * len(want) + 1):
        check(False, "svg %s: legend %s, %d p50 marks, bars for logs %s" % (s["counter"], legend, marks, want)); break
else:
    check(True, "every svg: a legend row, a p50 mark and bars for each log with a histogram")
ov = [s for s in hs if len(hist.get(s["counter"], [])) >= 2]
check(len(ov) >= 10, "histograms overlaid from two or more logs: %d" % len(ov))
check(p.tags.get("table", 0) >= 10, "tables present (%d)" % p.tags.get("table", 0))
for i in ("logs", "summary", "distributions", "comparisons", "run1", "run2", "run3"):
    if i not in p.ids: check(False, "section id %s present" % i); break
else:
    check(True, "sections: logs, summary, distributions, comparisons, one per machine")
low = text.lower()
check("http://" not in low and "https://" not in low, "no http:// or https:// anywhere")
check("<script" not in low and "<link" not in low and "@import" not in low and "url(" not in low,
      "no script, no stylesheet link, no @import, no url()")
body = "".join(p.text)
for w in ("complete, undamaged", "AuthenticAMD", "TCGTCGTCGTCG", "cpuid-rdtsc/rdtscp-cpuid", "0x608",
          "0xfed00000", "OS clock calls", "Context switches", "Gaps between successive results",
          "Clock call loops", "clock_monotonic_raw", "Difference at 95.0% confidence", "linux", "bios"):
    if w not in body: check(False, "page text has '%s'" % w); break
else:
    check(True, "page text: integrity, fingerprints, overhead, ACPI, OS records, comparisons")
# The summary's p50 cells are the logs' cost_cycles.p50 in ns at the run's tsc.hz.
def ns(cycles, hz):
    return cycles * 1e9 / hz
a = {json.loads(l)["name"]: json.loads(l) for l in open(logs[0]) if '"type":"timer"' in l}
hz = next(json.loads(l) for l in open(logs[0]) if l.startswith('{"type":"tsc"'))["hz"]
want = "%.1f" % ns(a["hpet"]["cost_cycles"]["p50"], hz)
check(re.search(r'<tr data-counter="hpet"><td>hpet</td><td class="n[^"]*">' + re.escape(want), text) is not None,
      "summary: hpet p50 of log 1 is the log's %s ns" % want)
EOF

# The kernel path over the bare hardware read: the page's rows are compare's,
# pairing for pairing and number for number (both print the overhead with %g),
# and there are as many as the logs themselves (read with json) pair up.
lineup() { # page, compare's output, label, the logs (bare-metal ones first, then the OS log)
	python3 - "$@" <<'EOF'
import html.parser, json, re, sys
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
    return [r for r in map(json.loads, (l for l in open(f, encoding="utf-8", errors="replace") if l.startswith("{")))
            if r.get("type") == "timer"]
hw = [{r["name"] for r in timers(f)} for f in logs[:-1]]
pairs = sum(1 for r in timers(logs[-1]) if cmap.get(r.get("clocksource")) and r.get("call") not in tick_calls
            for names in hw if cmap[r["clocksource"]] in names)
ok = 'id="kernel-path"' in t and p.link == 1 and got == want and len(got) == pairs
print(("PASS" if ok else "FAIL") + ": %s: kernel path section, linked once, its %d rows are compare's %d and the logs' %d pairings"
      % (label, len(got), len(want), pairs) + ("" if ok else ": page %s, compare %s" % (got[:2], want[:2])))
print(("PASS" if pairs > 0 else "FAIL") + ": %s: the logs pair OS calls with hardware reads: %s, overheads %s ns"
      % (label, sorted(set("%s-%s" % (r[0], r[1]) for r in got)), [r[7] for r in got if len(r) > 6][:4]))
EOF
}

# Significance marks: the same counters as `tickprobe compare` stars, at two levels.
for lvl in 95 99.5; do
	"$T" report -c $lvl "$OUT/a.log" "$OUT/b.log" "$OUT/os.log" -o "$OUT/report-c$lvl.html" 2>/dev/null
	python3 - "$OUT/report-c$lvl.html" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
rows = re.findall(r'<tr data-counter="([^"]*)">(.*?)</tr>', t)
open(sys.argv[1] + ".sig", "w").write("".join(k + "\n" for k, r in sorted(rows) if "sig " in r))
EOF
	"$T" compare -c $lvl "$OUT/a.log" "$OUT/b.log" "$OUT/os.log" >"$OUT/compare-c$lvl.txt" 2>/dev/null
	sed -n '/^Summary/,/^$/p' "$OUT/compare-c$lvl.txt" | awk 'NR > 1 && /\*/ {print $1}' |
		sort >"$OUT/compare-c$lvl.sig"
	grep -q "confidence level $lvl" "$OUT/report-c$lvl.html" && cmp -s "$OUT/report-c$lvl.html.sig" "$OUT/compare-c$lvl.sig"
	ok "-c $lvl: the differences marked are compare's ($(tr '\n' ' ' <"$OUT/compare-c$lvl.sig"))" $? \
		"report: $(tr '\n' ' ' <"$OUT/report-c$lvl.html.sig") compare: $(tr '\n' ' ' <"$OUT/compare-c$lvl.sig")"
	lineup "$OUT/report-c$lvl.html" "$OUT/compare-c$lvl.txt" "-c $lvl" "$OUT/a.log" "$OUT/b.log" "$OUT/os.log"
done
# Without an OS log, or with nothing else, there is nothing to line up: no
# section, no link (and compare prints no such table).
"$T" report "$OUT/a.log" "$OUT/b.log" -o "$OUT/bare.html" 2>/dev/null &&
	"$T" report "$OUT/os.log" -o "$OUT/os-only.html" 2>/dev/null
rc=$?
n=$(cat "$OUT/bare.html" "$OUT/os-only.html" | grep -c 'kernel-path\|Kernel path')
"$T" compare "$OUT/a.log" "$OUT/b.log" 2>/dev/null | grep -q "Kernel path"
c=$?
[ "$rc" = 0 ] && [ "$n" = 0 ] && [ "$c" = 1 ] && grep -q 'id="kernel-path"' "$OUT/report.html"
ok "kernel path section only with both kinds of log" $? "exit $rc, $n mentions without both kinds, compare grep $c"

# --- rendering in chromium ------------------------------------------------------------
chrome report.html --screenshot="$ABS/report.png" --window-size=1280,2400 >"$OUT/chrome.out" 2>&1
rc=$?
sz=$(wc -c <"$OUT/report.png" 2>/dev/null || echo 0)
[ "$rc" = 0 ] && [ "$sz" -gt 50000 ]
ok "chromium screenshot: exit 0, PNG of $sz bytes" $? "exit $rc, $sz bytes: $(tail -2 "$OUT/chrome.out")"
python3 - "$OUT/report.png" <<'EOF'
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
EOF
chrome report.html --dump-dom >"$OUT/dom.html" 2>"$OUT/chrome-dom.err"
n=$(grep -o '<svg class="hist"' "$OUT/dom.html" | wc -l)
w=$(grep -o '<svg class="hist"' "$OUT/report.html" | wc -l)
[ "$n" -gt 0 ] && [ "$n" = "$w" ] && grep -q '<path fill="#0072b2"' "$OUT/dom.html"
ok "rendered DOM keeps the $w histogram SVGs and their bars" $? "DOM has $n of $w"

# --- hostile text is escaped ------------------------------------------------------------
EVIL="$OUT/ev\"il<i>&'.log"
python3 - "$OUT/a.log" "$EVIL" <<'EOF'
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
EOF
"$T" report "$EVIL" -o "$OUT/evil.html" 2>"$OUT/evil.err"
ok "hostile log is clean (exit 0)" $? "$(cat "$OUT/evil.err")"
python3 - "$OUT/evil.html" <<'EOF'
import html.parser, sys
t = open(sys.argv[1], encoding="utf-8").read()
tags = set()
class P(html.parser.HTMLParser):
    def handle_starttag(s, tag, a): tags.add(tag)
P().feed(t)
bad = tags & {"script", "img", "i"}
print(("PASS" if not bad else "FAIL") + ": hostile text makes no tags (%s)" % sorted(bad))
want = ["&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; &lt;img", "\\x01",
        "&lt;b&gt;bold&lt;/b&gt; \\xff", "ev&quot;il&lt;i&gt;&amp;&#39;.log"]
miss = [w for w in want if w not in t]
print(("PASS" if not miss else "FAIL") + ": hostile brand, ACPI problem, bytes and file name shown escaped %s" % miss)
EOF

# --- damage, unreadable, usage -------------------------------------------------------------
python3 - "$OUT/a.log" "$OUT/damaged.log" <<'EOF'
# Flip one bit of a digit inside the hpet timer record: its crc no longer matches.
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
for i, l in enumerate(lines):
    if l.startswith(b'{"type":"timer"') and b'"name":"hpet"' in l:
        k = l.index(b'"cost_cycles":{"min":') + 21
        lines[i] = l[:k] + bytes([l[k] ^ 1]) + l[k + 1:]
open(sys.argv[2], "wb").write(b"\n".join(lines))
EOF
"$T" report "$OUT/damaged.log" "$OUT/b.log" -o "$OUT/damaged.html" 2>"$OUT/damaged.err"
rc=$?
ok "damaged log: exit 3" $([ "$rc" = 3 ] && echo 0 || echo 1) "exit $rc: $(cat "$OUT/damaged.err")"
python3 - "$OUT/damaged.html" "$OUT/damaged.err" <<'EOF'
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
EOF
"$T" report "$OUT/a.log" "$OUT/no-such.log" -o "$OUT/missing.html" 2>"$OUT/missing.err"
rc=$?
[ "$rc" = 2 ] && grep -q "no-such.log.*cannot open" "$OUT/missing.err" && grep -q "no-such.log" "$OUT/missing.html"
ok "missing log: exit 2, said on stderr and on the page" $? "exit $rc: $(cat "$OUT/missing.err")"
"$T" report "$OUT/no-such.log" -o "$OUT/none.html" 2>/dev/null
rc=$?
[ "$rc" = 2 ] && [ ! -e "$OUT/none.html" ]
ok "only a missing log: exit 2, no page" $? "exit $rc"
code() { # name, expected, command...
	n=$1 want=$2; shift 2
	"$@" >"$OUT/out" 2>"$OUT/err"; got=$?
	ok "exit $want: $n" $([ "$got" = "$want" ] && echo 0 || echo 1) "got $got ($(head -c 200 "$OUT/err"))"
}
code "no -o" 1 "$T" report "$OUT/a.log"
code "bad -c" 1 "$T" report -c 97 "$OUT/a.log" -o "$OUT/x.html"
code "unknown option" 1 "$T" report --bogus "$OUT/a.log" -o "$OUT/x.html"
code "no logs" 1 "$T" report -o "$OUT/x.html"
code "--help" 0 "$T" report --help
code "unwritable -o" 1 "$T" report "$OUT/a.log" -o "$OUT/no/such/dir/x.html"
"$T" report "$OUT/b.log" -o - --title 'q35 <alone>' >"$OUT/stdout.html" 2>/dev/null
head -c 15 "$OUT/stdout.html" | grep -q '<!DOCTYPE html>' && grep -q '<h1>q35 &lt;alone&gt;</h1>' "$OUT/stdout.html" &&
	! grep -q 'id="comparisons"' "$OUT/stdout.html"
ok "-o - writes the page to stdout; --title escaped; one log has no comparisons" $?
# A special file is written in place, never renamed over: the same path as
# -o /dev/null, tried on a pipe so that a regression breaks only this test.
rm -f "$OUT/pipe" "$OUT/pipe.out"
mkfifo "$OUT/pipe"
timeout 20 cat "$OUT/pipe" >"$OUT/pipe.out" &
reader=$!
timeout 20 "$T" report "$OUT/a.log" -o "$OUT/pipe" 2>/dev/null
rc=$?
wait $reader
[ "$rc" = 0 ] && [ -p "$OUT/pipe" ] && head -c 15 "$OUT/pipe.out" | grep -q '<!DOCTYPE html>'
ok "-o onto a pipe writes through it and leaves it a pipe" $? "exit $rc"
rm -rf "$OUT"/chrome.*
