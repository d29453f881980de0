#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe report: logs from two real boots of the probe (QEMU pc and q35,
# -kernel, preset quick) and one `tickprobe os --quick` run on this host make
# one page.  Its structure is checked with Python's html.parser, its
# comparisons against `tickprobe compare`, and it is rendered by headless
# chromium (screenshot pixels and the rendered DOM).  Then: hostile text in a
# log is escaped, on its page and on the fleet page of a store that holds it,
# whose -o name is hostile too; a damaged log gives exit 3 with the damage on
# the page, a missing one exit 2.  Pages and screenshots stay in
# $BUILD/test-report.
. tests/lib/check.sh
. tests/lib/boot.sh
T=$TP
K=$BUILD/tickprobe.elf32
OUT=$BUILD/test-report
rm -rf "$OUT" && mkdir -p "$OUT"
ABS=$(cd "$OUT" && pwd)
ABS_T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")


[ -x "$T" ] || { fail setup "$T is not built (make tool)"; exit 1; }
[ -f "$K" ] || { fail setup "$K is not built (make kernel)"; exit 1; }
for t in qemu-system-x86_64 python3 chromium sqlite3; do
	command -v $t >/dev/null 2>&1 || { fail setup "$t not installed (make deps)"; exit 1; }
done

# --- the logs ---------------------------------------------------------------------
boot a 0 --kernel="$K" --machine pc --preset quick --options slow_rates=off --timeout 60
boot b 0 --kernel="$K" --machine q35 --preset quick --options slow_rates=off --timeout 60
"$T" os --quick -o "$OUT/os.log" 2>"$OUT/os.err"
ok "tickprobe os --quick writes an OS-side log" $? "$(tail -2 "$OUT/os.err")"
# The kernel-path checks need an OS log whose clocksource the bare logs read
# (tsc, hpet, acpi_pm).  A KVM guest's host offers only kvm-clock, which
# pairs with none of them; a real `tickprobe os --quick` capture on tsc
# (tests/data/logs/schema1/README.md) stands in for it there.
cs=$(grep -o '"clocksource":"[a-z_-]*"' "$OUT/os.log" | head -n 1 | cut -d'"' -f4)
case $cs in
tsc | hpet | acpi_pm) ;;
*)
	echo "note: this host's clocksource is '$cs': the OS log is tests/data/logs/schema1/os-quick.log"
	cp tests/data/logs/schema1/os-quick.log "$OUT/os.log"
	;;
esac

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
python3 tests/tools/report_page.py "$OUT/report.html" "$OUT/a.log" "$OUT/b.log" "$OUT/os.log"

# The kernel path over the bare hardware read: the page's rows are compare's,
# pairing for pairing and number for number (both print the overhead with %g),
# and there are as many as the logs themselves (read with json) pair up.
lineup() { # page, compare's output, label, the logs (bare-metal ones first, then the OS log)
	python3 tests/tools/report_lineup.py "$@"
}

# Significance marks: the same counters as `tickprobe compare` stars, at two levels.
for lvl in 95 99.5; do
	"$T" report -c $lvl "$OUT/a.log" "$OUT/b.log" "$OUT/os.log" -o "$OUT/report-c$lvl.html" 2>/dev/null
	python3 tests/tools/report_levels.py "$OUT/report-c$lvl.html"
	"$T" compare -c $lvl "$OUT/a.log" "$OUT/b.log" "$OUT/os.log" >"$OUT/compare-c$lvl.txt" 2>/dev/null
	sed -n '/^Summary/,/^$/p' "$OUT/compare-c$lvl.txt" | awk 'NR > 1 && /\*/ {print $1}' |
		sort >"$OUT/compare-c$lvl.sig"
	grep -q "confidence level $lvl" "$OUT/report-c$lvl.html" && cmp -s "$OUT/report-c$lvl.html.sig" "$OUT/compare-c$lvl.sig"
	st=$?
	ok "-c $lvl: the differences marked are compare's ($(tr '\n' ' ' <"$OUT/compare-c$lvl.sig"))" $st \
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
python3 tests/tools/report_png.py "$OUT/report.png"
chrome report.html --dump-dom >"$OUT/dom.html" 2>"$OUT/chrome-dom.err"
n=$(grep -o '<svg class="hist"' "$OUT/dom.html" | wc -l)
w=$(grep -o '<svg class="hist"' "$OUT/report.html" | wc -l)
[ "$n" -gt 0 ] && [ "$n" = "$w" ] && grep -q '<path fill="#0072b2"' "$OUT/dom.html"
ok "rendered DOM keeps the $w histogram SVGs and their bars" $? "DOM has $n of $w"

# --- hostile text is escaped ------------------------------------------------------------
EVIL="$OUT/ev\"il<i>&'.log"
python3 tests/tools/evil_log.py "$OUT/a.log" "$EVIL"
"$T" report "$EVIL" -o "$OUT/evil.html" 2>"$OUT/evil.err"
ok "hostile log is clean (exit 0)" $? "$(cat "$OUT/evil.err")"
python3 tests/tools/evil_page.py "$OUT/evil.html"
python3 tests/tools/evil_text.py "the hostile log's page" "$OUT/evil.html" 10 5

# The fleet page of a store that holds hostile logs, under a hostile -o name:
# the links are percent-encoded relative paths that still lead to the pages.
python3 tests/tools/evil_log.py "$OUT/os.log" "$OUT/evil-os.log"
"$T" db import "$OUT/evil.db" "$EVIL" "$OUT/evil-os.log" >"$OUT/evil.err" 2>&1
ok "a store of the hostile logs" $? "$(cat "$OUT/evil.err")"
machines=$(sqlite3 "$OUT/evil.db" 'SELECT COUNT(*) FROM machines')
NAME=$(printf 'x"><svg onload=alert(1)>#?%%:\303\251')
"$T" report --db "$OUT/evil.db" -o "$OUT/$NAME.html" 2>"$OUT/evil.err"
ok "report --db -o a hostile name: exit 0" $? "$(cat "$OUT/evil.err")"
python3 tests/tools/evil_page.py --fleet "$OUT/$NAME.html" "$machines"
for f in "$OUT/$NAME-machines"/*.html; do
	python3 tests/tools/evil_text.py "machine page $(basename "$f")" "$f" 1 1
done
(cd "$OUT" && "$ABS_T" report --db evil.db -o 'javascript:alert(document.domain)' 2>"$ABS/evil.err")
ok "report --db -o javascript:...: exit 0" $? "$(cat "$OUT/evil.err")"
python3 tests/tools/evil_page.py --fleet "$OUT/javascript:alert(document.domain)" "$machines"

# --- damage, unreadable, usage -------------------------------------------------------------
python3 tests/tools/damage_bit.py "$OUT/a.log" "$OUT/damaged.log"
"$T" report "$OUT/damaged.log" "$OUT/b.log" -o "$OUT/damaged.html" 2>"$OUT/damaged.err"
rc=$?
ok "damaged log: exit 3" "$([ "$rc" = 3 ] && echo 0 || echo 1)" "exit $rc: $(cat "$OUT/damaged.err")"
python3 tests/tools/damaged_page.py "$OUT/damaged.html" "$OUT/damaged.err"
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
	ok "exit $want: $n" "$([ "$got" = "$want" ] && echo 0 || echo 1)" "got $got ($(head -c 200 "$OUT/err"))"
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
