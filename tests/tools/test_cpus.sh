#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# show, compare and report on the multi-CPU records, from three real boots
# of the multiboot kernel under TCG (q35, preset quick): 4 CPUs with a
# latency scan, 4 CPUs with CPU 2's TSC skewed by 10^11 cycles (41 s at the
# TCG rate, far past any uncertainty a round trip under TCG can have, so the
# verdict is NOT synchronized on every boot), and 1 CPU.  What the tools
# print is checked against the logs read with json (tests/tools/cpucheck.py);
# the page is rendered in headless chromium.  Then: a damaged tsc_sync record
# is left out and named by all three; core types (which QEMU cannot make)
# and 256 CPUs come from the first log edited and sealed again.
# Everything stays in $BUILD/test-cpus.  About 25 s on 2 busy cores.
BUILD=${BUILD:-build}
T=$BUILD/tickprobe
K=$BUILD/tickprobe.elf32
OUT=$BUILD/test-cpus
CHECK="python3 tests/tools/cpucheck.py"
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

# --- the logs ------------------------------------------------------------------------
boot() { # name, CPUs, options
	timeout 150 "$T" qemu --kernel="$K" --machine q35 --preset quick --timeout 120 --options "$3" \
		-o "$OUT/$1.log" -- -smp "$2" >"$OUT/$1.out" 2>&1
	rc=$?
	ok "boot $1 (-smp $2 $3): exit 0" "$rc" "exit $rc: $(tail -2 "$OUT/$1.out")"
}
boot a 4 "latency=1"
boot skew 4 "tsc_skew=2:100000000000"
boot one 1 ""
python3 - "$OUT/a.log" "$OUT/skew.log" "$OUT/one.log" <<'EOF'
import json, sys
def rec(f, t):
    return next((json.loads(l) for l in open(f, errors="replace") if l.startswith('{"type":"%s"' % t)), None)
a, s, o = (rec(f, "cpus") or {} for f in sys.argv[1:])
ok = a.get("started") == 4 and s.get("started") == 4 and o.get("count") == 1
ok &= rec(sys.argv[2], "tsc_sync") is not None and rec(sys.argv[2], "tsc_sync")["synchronized"] is False
ok &= rec(sys.argv[1], "latency") is not None and rec(sys.argv[3], "tsc_sync") is None
print(("PASS" if ok else "FAIL") + ": the logs: 4 and 4 CPUs running, the skewed one NOT synchronized, "
      "a latency record, no tsc_sync on 1 CPU")
EOF

# --- show --------------------------------------------------------------------------------
for n in a skew one; do
	"$T" show "$OUT/$n.log" >"$OUT/$n.txt" 2>"$OUT/$n.err"
	ok "show $n: exit 0" $? "$(cat "$OUT/$n.err")"
	$CHECK show "$OUT/$n.log" "$OUT/$n.txt" "show $n"
	"$T" show --json "$OUT/$n.log" >"$OUT/$n.json" 2>/dev/null
	$CHECK json "$OUT/$n.log" "$OUT/$n.json" "show $n"
done

# --- compare -------------------------------------------------------------------------------
"$T" compare "$OUT/a.log" "$OUT/skew.log" "$OUT/one.log" >"$OUT/compare.txt" 2>"$OUT/compare.err"
ok "compare of three logs: exit 0" $? "$(cat "$OUT/compare.err")"
$CHECK compare "$OUT/compare.txt" "$OUT/a.log" "$OUT/skew.log" "$OUT/one.log"
# Too wide for the terminal: the logs become rows, the figures stay.
COLUMNS=50 "$T" compare "$OUT/a.log" "$OUT/skew.log" "$OUT/one.log" >"$OUT/compare-rows.txt" 2>/dev/null
grep -q "^p50 ns  *n=1" "$OUT/compare-rows.txt" && ! grep -q "^readers" "$OUT/compare-rows.txt"
ok "compare at 50 columns lists the logs as rows" $? "$(sed -n '/== contention: hpet/,+8p' "$OUT/compare-rows.txt")"
$CHECK compare "$OUT/compare-rows.txt" "$OUT/a.log" "$OUT/skew.log" "$OUT/one.log" | sed 's/^\(....: \)/\1rows: /'
# Logs without more than one CPU: nothing about CPUs at all.
"$T" compare "$OUT/one.log" "$OUT/one.log" 2>/dev/null | grep -q "== CPUs\|== contention"
ok "compare of one-CPU logs prints no CPU section" $([ $? = 1 ] && echo 0 || echo 1)

# --- report ----------------------------------------------------------------------------------
"$T" report "$OUT/a.log" "$OUT/skew.log" "$OUT/one.log" -o "$OUT/report.html" 2>"$OUT/report.err"
ok "report of three logs: exit 0" $? "$(cat "$OUT/report.err")"
$CHECK report "$OUT/report.html" "$OUT/a.log" "$OUT/skew.log" "$OUT/one.log"
grep -q '<a href="#cpus">CPUs</a>' "$OUT/report.html" && grep -q 'Latency (gaps between TSC reads)' "$OUT/report.html"
ok "report: the CPUs section is linked; the latency bins are shown" $?
"$T" report "$OUT/a.log" "$OUT/one.log" -o "$OUT/report-1multi.html" 2>/dev/null
$CHECK report "$OUT/report-1multi.html" "$OUT/a.log" "$OUT/one.log" | sed 's/^\(....: \)/\1one multi-CPU log: /'

chrome() { # html, then chromium's own options
	f=$1
	shift
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$OUT/chrome.XXXXXX")" "$@" "file://$ABS/$f"
}
chrome report.html --dump-dom >"$OUT/dom.html" 2>"$OUT/chrome-dom.err"
for cls in offsets contention; do
	n=$(grep -o "<svg class=\"$cls\"" "$OUT/dom.html" | wc -l)
	w=$(grep -o "<svg class=\"$cls\"" "$OUT/report.html" | wc -l)
	[ "$n" -gt 0 ] && [ "$n" = "$w" ]
	ok "chromium's DOM keeps the $w $cls SVGs" $? "DOM has $n of $w"
done
# The page, scrolled to the skewed log's CPUs (a frame opened at its anchor):
# the screenshot holds its CPU table, verdict and offset plot, and stays small
# enough to decode in Python (1000 x 1400).
printf '<!DOCTYPE html><html><body style="margin:0"><iframe src="report.html#run2-cpus" width="1000" height="1400" style="border:0"></iframe></body></html>\n' >"$OUT/frame.html"
chrome frame.html --screenshot="$ABS/report.png" --window-size=1000,1400 >"$OUT/chrome.out" 2>&1
rc=$?
sz=$(wc -c <"$OUT/report.png" 2>/dev/null || echo 0)
[ "$rc" = 0 ] && [ "$sz" -gt 20000 ]
ok "chromium renders the page: exit 0, PNG of $sz bytes" $? "exit $rc: $(tail -2 "$OUT/chrome.out")"
python3 - "$OUT/report.png" <<'EOF'
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
EOF

# --- a damaged tsc_sync record: left out, named, never a verdict ---------------------------------
line=$($CHECK flip "$OUT/skew.log" "$OUT/damaged.log" tsc_sync)
"$T" show "$OUT/damaged.log" >"$OUT/damaged.txt" 2>"$OUT/damaged.err"
rc=$?
[ "$rc" = 3 ] && grep -q "damaged.log:$line: bad record crc" "$OUT/damaged.err" &&
	grep -q "^tsc sync  line $line: damaged, left out (by its place, the tsc_sync record)" "$OUT/damaged.txt" &&
	! grep -q "synchronized\|largest |offset|" "$OUT/damaged.txt" && grep -q "^contention: " "$OUT/damaged.txt"
ok "show: the damaged tsc_sync (line $line) is named, exit 3, no verdict; the rest is shown" $? \
	"exit $rc: $(grep -i "sync\|line $line" "$OUT/damaged.txt" "$OUT/damaged.err" | head -5)"
"$T" show --json "$OUT/damaged.log" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)["runs"][0]
ok = r["tsc_sync"] is None and r["cpu_records_left_out"] == [{"line": int(sys.argv[1]), "in_place_of": "tsc_sync"}]
ok &= r["cpus"]["started"] == 4 and len(r["contention"]) >= 1
print(("PASS" if ok else "FAIL") + ": show --json: tsc_sync null, the left-out line named, the other records kept")
' "$line"
$CHECK damage "$OUT/a.log" "$T" "$OUT"
"$T" compare "$OUT/a.log" "$OUT/damaged.log" >"$OUT/compare-damaged.txt" 2>/dev/null
$CHECK compare "$OUT/compare-damaged.txt" "$OUT/a.log" "$OUT/damaged.log" | grep "\[2\]"
"$T" report "$OUT/a.log" "$OUT/damaged.log" -o "$OUT/damaged.html" 2>/dev/null
rc=$?
ok "report with the damaged log: exit 3" $([ "$rc" = 3 ] && echo 0 || echo 1) "exit $rc"
$CHECK report "$OUT/damaged.html" "$OUT/a.log" "$OUT/damaged.log" | grep "\[2\]"

# --- core types and 256 CPUs, from the first log edited --------------------------------------------
$CHECK hybrid "$OUT/a.log" "$OUT/hybrid.log"
"$T" show "$OUT/hybrid.log" >"$OUT/hybrid.txt" 2>"$OUT/hybrid.err"
rc=$?
python3 - "$OUT/hybrid.log" "$OUT/hybrid.txt" "$rc" <<'EOF'
import json, re, sys
sys.path.insert(0, "tests/tools")
from cpucheck import ns  # cycles -> ns at the run's tsc.hz, as the reader does
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
hz = next(r for r in recs if r["type"] == "tsc")["hz"]
t = open(sys.argv[2]).read()
boot = {r["name"]: r for r in recs if r["type"] == "timer" and "cpu" not in r}
on = [r for r in recs if r["type"] == "timer" and "cpu" in r]
table = t.split("\n\n")[1]
once = all(len(re.findall(r"^%s " % re.escape(n), table, re.M)) == 1 for n in boot)
rows = re.findall(r"^  (\S+) +([\d.]+) +CPU 2 \(E-core\) +([\d.]+)$", t, re.M)
want = [(r["name"], "%.1f" % ns(boot[r["name"]]["cost_cycles"]["p50"], hz), "%.1f" % ns(r["cost_cycles"]["p50"], hz))
        for r in on]
ok = sys.argv[3] == "0" and once and rows == want and "core types P-core x2, E-core x2" in t
print(("PASS" if ok else "FAIL") + ": show, core types: the boot CPU's table has each counter once; the %d counters "
      "on CPU 2 (E-core) beside CPU 0's p50 (%s)" % (len(on), rows[:1]))
EOF
"$T" report "$OUT/hybrid.log" -o "$OUT/hybrid.html" 2>/dev/null
python3 - "$OUT/hybrid.html" "$OUT/hybrid.log" <<'EOF'
import json, re, sys
sys.path.insert(0, "tests/tools")
from cpucheck import ns, HYBRID_P50_CYCLES
t = open(sys.argv[1]).read()
hz = next(json.loads(l) for l in open(sys.argv[2]) if l.startswith('{"type":"tsc"'))["hz"]
cell = "%.1f" % ns(HYBRID_P50_CYCLES, hz)  # the p50 cpucheck.py hybrid gave the counters on CPU 2
m = t[t.index("The counters on other core types"):]
rows = re.findall(r"<tr><td>([\w-]+)</td><td class=\"n\">[\d.]+</td><td>CPU 2 \(E-core\)</td><td class=\"n\">%s</td>"
                  % re.escape(cell), m[:m.index("</table>")])
res = t[t.index("<h3>Results</h3>"):]
res = res[:res.index("</table>")]
ok = len(rows) == 3 and len(re.findall(r"<tr><td><b>tsc</b>", res)) == 1
print(("PASS" if ok else "FAIL") + ": report, core types: a table of the 3 counters on CPU 2; the results table "
      "has tsc once (%s)" % rows)
EOF
$CHECK wide "$OUT/a.log" "$OUT/wide.log" 256
"$T" show "$OUT/wide.log" >"$OUT/wide.txt" 2>/dev/null
python3 - "$OUT/wide.txt" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
part = t[t.index("\ncpus "):t.index("\nteam ")]
groups = re.findall(r"^  (\S+) +(\d+)  (\S+) +\S+ +\S+ +(bsp|running|disabled) ", part, re.M)
ok = len(part.splitlines()) <= 8 and sum(int(g[1]) for g in groups) == 256 and \
     [g[3] for g in groups] == ["bsp", "running", "running", "disabled"] and "2 packages" in part
print(("PASS" if ok else "FAIL") + ": show, 256 CPUs: %d lines, groups %s" % (len(part.splitlines()),
      [(g[0], g[1], g[3]) for g in groups]))
EOF
rm -rf "$OUT"/chrome.*
