#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The fleet page: a directory of 1,000 logs (500 machines, from real QEMU
# and OS captures through tests/tools/mkfleet.py) through `tickprobe report`,
# and the same fleet through `report --db`.  In headless Chromium the page
# loads, its table sorts (the #sort= link runs the same code as a click),
# and its plots exist; every machine link leads to a page that exists.
. tests/lib/check.sh
BUILD=${BUILD:-build}
T=$BUILD/tickprobe
D=$(mktemp -d /tmp/tickprobe-fleet.XXXXXX)
trap 'rm -rf "$D"' EXIT
HERE=$(dirname "$0")

for t in python3 chromium sqlite3; do
	command -v $t >/dev/null 2>&1 || { fail setup "$t not installed (make deps)"; exit 1; }
done
chrome() { # URL, then chromium's own options
	u=$1
	shift
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$D/chrome.XXXXXX")" "$@" "$u"
}

timeout 120 "$T" qemu --kernel --preset quick --options slow_rates=off -o "$D/bare.log" >/dev/null 2>&1
timeout 120 "$T" os --quick -o "$D/os.log" >/dev/null 2>&1
python3 "$HERE/mkfleet.py" "$D/fleet" 500 11 "$D/bare.log" "$D/os.log" || fail mkfleet "generator failed"
n=$(find "$D/fleet" -name '*.log' | wc -l)
check "1,000 logs made" "[ $n = 1000 ]" "$n"

start=$(date +%s)
"$T" report "$D/fleet" -o "$D/fleet.html" 2>"$D/err"; rc=$?
check "report of a 1,000-log directory: exit 0" "[ $rc = 0 ]" "exit $rc: $(tail -3 "$D/err")"
echo "report of 1,000 logs with 500 machine pages: $(( $(date +%s) - start )) s"
check "the fleet page, not the per-log page" "grep -q 'id=\"fleet\"' '$D/fleet.html'" ""
rows=$(grep -c '^<tr><td><a href="fleet-machines/machine-' "$D/fleet.html")
check "one table row per machine" "[ $rows = 500 ]" "$rows rows"
pages=$(ls "$D/fleet-machines" | wc -l)
check "one page per machine" "[ $pages = 500 ]" "$pages pages"
missing=0
# shellcheck disable=SC2013 # each href is one word: fleet-machines/machine-N.html
for href in $(grep -o 'href="fleet-machines/[^"]*"' "$D/fleet.html" | cut -d'"' -f2); do
	[ -f "$D/$href" ] || missing=$((missing + 1))
done
check "every machine link leads to a page" "[ $missing = 0 ]" "$missing missing"
check "a machine page is the ordinary report of its two runs" \
	"grep -q '2 runs' '$D/fleet-machines/machine-1.html' && grep -q 'Kernel path' '$D/fleet-machines/machine-1.html'" ""

# --- in Chromium ------------------------------------------------------------------
U="file://$D/fleet.html"
chrome "$U" --dump-dom --screenshot="$D/fleet.png" --window-size=1280,1600 >"$D/dom.html" 2>/dev/null
check "Chromium renders the page" "grep -q '</html>' '$D/dom.html'" "$(head -c 200 "$D/dom.html")"
boxes=$(grep -o 'class="boxrow"' "$D/dom.html" | wc -l)
check "a box plot per counter" "[ $boxes -ge 15 ]" "$boxes boxes"
check "the paired comparison of hpet and acpi-fast, one dot per machine" \
	"grep -q 'data-a=\"hpet\" data-machines=\"500\"' '$D/dom.html'" ""
chrome "$U#sort=hpet" --dump-dom >"$D/sorted.html" 2>/dev/null
python3 tests/tools/fleet_sort.py "$D/dom.html" "$D/sorted.html"
sz=$(wc -c <"$D/fleet.png" 2>/dev/null || echo 0)
check "Chromium screenshot of the fleet page" "[ $sz -gt 50000 ]" "$sz bytes"
[ -n "$KEEP" ] && cp "$D/fleet.png" "$KEEP"

# --- from a store --------------------------------------------------------------------
"$T" db import -q "$D/fleet.db" "$D/fleet" >/dev/null 2>&1
"$T" report --db "$D/fleet.db" -o "$D/db.html" 2>"$D/err"; rc=$?
check "report --db: exit 0" "[ $rc = 0 ]" "exit $rc: $(cat "$D/err")"
check "report --db: the same machines" "[ \$(grep -c '^<tr><td><a href=\"db-machines/' '$D/db.html') = 500 ]" ""
"$T" report --db "$D/fleet.db" --no-pages -o "$D/nopages.html" 2>/dev/null
check "--no-pages: no links, no directory" "! grep -q 'nopages-machines' '$D/nopages.html' && [ ! -d '$D/nopages-machines' ]" ""
# SOURCE_DATE_EPOCH fixes the "Generated" line, as on the per-log page:
# two pages a second apart are the same bytes.
SOURCE_DATE_EPOCH=86400 "$T" report --db "$D/fleet.db" --no-pages -o "$D/sde1.html" 2>/dev/null
sleep 1
SOURCE_DATE_EPOCH=86400 "$T" report --db "$D/fleet.db" --no-pages -o "$D/sde2.html" 2>/dev/null
check "SOURCE_DATE_EPOCH: the fleet page is reproducible" \
	"grep -q 'Generated 1970-01-02 00:00:00 UTC' '$D/sde1.html' && cmp -s '$D/sde1.html' '$D/sde2.html'" ""
"$T" report --db "$D/none.db" -o "$D/x.html" 2>"$D/err"; rc=$?
check "report --db of a missing store: exit 2" "[ $rc = 2 ]" "exit $rc"
