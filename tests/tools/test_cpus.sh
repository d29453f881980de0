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
# Everything stays in $BUILD/test-cpus.
. tests/lib/check.sh
. tests/lib/boot.sh
T=$TP
K=$BUILD/tickprobe.elf32
OUT=$BUILD/test-cpus
CHECK="python3 tests/tools/cpucheck.py"
rm -rf "$OUT" && mkdir -p "$OUT"
ABS=$(cd "$OUT" && pwd)


[ -x "$T" ] || { fail setup "$T is not built (make tool)"; exit 1; }
[ -f "$K" ] || { fail setup "$K is not built (make kernel)"; exit 1; }
for t in qemu-system-x86_64 python3 chromium; do
	command -v $t >/dev/null 2>&1 || { fail setup "$t not installed (make deps)"; exit 1; }
done

# --- the logs ------------------------------------------------------------------------
# run NAME CPUS PROBE_OPTIONS: a q35 boot that ends ok, its CPUs taking turns
# on one host thread (the records are the subject, not CPUs at once).
run() {
	boot "$1" 0 --kernel="$K" --machine q35 --preset quick --timeout 120 --options "slow_rates=off $3" --smp "$2" \
		--tcg=single
}
run a 4 "latency=1"
run skew 4 "tsc_skew=2:100000000000"
run one 1 ""
python3 tests/tools/cpus_logs.py "$OUT/a.log" "$OUT/skew.log" "$OUT/one.log"

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
ok "compare of one-CPU logs prints no CPU section" "$([ $? = 1 ] && echo 0 || echo 1)"

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
python3 tests/tools/cpus_png.py "$OUT/report.png"

# --- a damaged tsc_sync record: left out, named, never a verdict ---------------------------------
line=$($CHECK flip "$OUT/skew.log" "$OUT/damaged.log" tsc_sync)
"$T" show "$OUT/damaged.log" >"$OUT/damaged.txt" 2>"$OUT/damaged.err"
rc=$?
[ "$rc" = 3 ] && grep -q "damaged.log:$line: bad record crc" "$OUT/damaged.err" &&
	grep -q "^tsc sync  line $line: damaged, left out (by its place, the tsc_sync record)" "$OUT/damaged.txt" &&
	! grep -q "synchronized\|largest |offset|" "$OUT/damaged.txt" && grep -q "^contention: " "$OUT/damaged.txt"
ok "show: the damaged tsc_sync (line $line) is named, exit 3, no verdict; the rest is shown" $? \
	"exit $rc: $(grep -i "sync\|line $line" "$OUT/damaged.txt" "$OUT/damaged.err" | head -5)"
"$T" show --json "$OUT/damaged.log" 2>/dev/null | python3 tests/tools/damaged_json.py "$line"
$CHECK damage "$OUT/a.log" "$T" "$OUT"
"$T" compare "$OUT/a.log" "$OUT/damaged.log" >"$OUT/compare-damaged.txt" 2>/dev/null
$CHECK compare "$OUT/compare-damaged.txt" "$OUT/a.log" "$OUT/damaged.log" | grep "\[2\]"
"$T" report "$OUT/a.log" "$OUT/damaged.log" -o "$OUT/damaged.html" 2>/dev/null
rc=$?
ok "report with the damaged log: exit 3" "$([ "$rc" = 3 ] && echo 0 || echo 1)" "exit $rc"
$CHECK report "$OUT/damaged.html" "$OUT/a.log" "$OUT/damaged.log" | grep "\[2\]"

# --- core types and 256 CPUs, from the first log edited --------------------------------------------
$CHECK hybrid "$OUT/a.log" "$OUT/hybrid.log"
"$T" show "$OUT/hybrid.log" >"$OUT/hybrid.txt" 2>"$OUT/hybrid.err"
rc=$?
python3 tests/tools/hybrid_show.py "$OUT/hybrid.log" "$OUT/hybrid.txt" "$rc"
"$T" report "$OUT/hybrid.log" -o "$OUT/hybrid.html" 2>/dev/null
python3 tests/tools/hybrid_report.py "$OUT/hybrid.html" "$OUT/hybrid.log"
$CHECK wide "$OUT/a.log" "$OUT/wide.log" 256
"$T" show "$OUT/wide.log" >"$OUT/wide.txt" 2>/dev/null
python3 tests/tools/wide_show.py "$OUT/wide.txt"

# --- hostile text in the multi-CPU records: shown escaped ------------------------------------------
# Every string of the logs above made hostile (tests/tools/evil_log.py): CPU
# states, core types, latency verdicts, contention counters, rules.
for n in a skew hybrid wide; do
	python3 tests/tools/evil_log.py "$OUT/$n.log" "$OUT/evil-$n.log"
	"$T" show "$OUT/evil-$n.log" >"$OUT/evil-$n.txt" 2>"$OUT/evil-$n.err"
	python3 tests/tools/evil_text.py "show, hostile $n" "$OUT/evil-$n.txt" 10 5
	python3 tests/tools/evil_text.py "show, hostile $n, stderr" "$OUT/evil-$n.err" 0 0
done
"$T" compare "$OUT/evil-a.log" "$OUT/evil-skew.log" >"$OUT/evil-compare.txt" 2>&1
python3 tests/tools/evil_text.py "compare, hostile CPU records" "$OUT/evil-compare.txt" 2 1
"$T" report "$OUT/evil-a.log" "$OUT/evil-skew.log" "$OUT/evil-hybrid.log" -o "$OUT/evil.html" 2>/dev/null
python3 tests/tools/evil_text.py "report, hostile CPU records" "$OUT/evil.html" 20 10
rm -rf "$OUT"/chrome.*
