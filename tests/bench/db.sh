#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The fleet store's speed, printed, never asserted: import of N logs made
# from real QEMU and OS captures (tests/tools/mkfleet.py), summary and paired
# comparison on the store, the fleet report, peak memory, the store's size,
# and, for scale, reading the same logs again without the store.
#   sh tests/bench/db.sh [BUILD] [N]     (N logs, default 10000)
# shellcheck disable=SC2046 # secs prints two numbers, split into $1 and $2 on purpose
BUILD=${1:-build}
N=${2:-10000}
T=$BUILD/tickprobe
D=$(mktemp -d /tmp/tickprobe-dbbench.XXXXXX)
trap 'rm -rf "$D"' EXIT

secs() { # command...: wall seconds and peak RSS (KiB) of one run
	/usr/bin/time -f "%e %M" -o "$D/time" "$@" >"$D/out" 2>&1
	cat "$D/time"
}
timeout 120 "$T" qemu --kernel -o "$D/bare.log" >/dev/null 2>&1
timeout 120 "$T" os --quick -o "$D/os.log" >/dev/null 2>&1
start=$(date +%s)
python3 "$(dirname "$0")/../tools/mkfleet.py" "$D/fleet" $((N / 2)) 1 "$D/bare.log" "$D/os.log"
echo "generated $N logs ($(du -sh "$D/fleet" | cut -f1)) in $(( $(date +%s) - start )) s"

set -- $(secs "$T" db import -q "$D/fleet.db" "$D/fleet")
echo "import $N logs: $1 s, peak RSS $2 KiB ($(tail -1 "$D/out"))"
size=$(stat -c %s "$D/fleet.db")
echo "store: $size bytes, $((size * 1000 / N)) bytes per 1,000 runs"
set -- $(secs "$T" db import -q "$D/fleet.db" "$D/fleet")
echo "import again (nothing new): $1 s"
set -- $(secs "$T" db summary "$D/fleet.db")
echo "summary: $1 s, peak RSS $2 KiB"
set -- $(secs "$T" db summary "$D/fleet.db" --by vendor)
echo "summary --by vendor: $1 s"
set -- $(secs "$T" db compare "$D/fleet.db" hpet acpi-fast)
echo "compare hpet acpi-fast: $1 s, peak RSS $2 KiB"
sed 's/^/    /' "$D/out"
set -- $(secs "$T" report --db "$D/fleet.db" --no-pages -o "$D/fleet.html")
echo "fleet report (the page alone): $1 s, peak RSS $2 KiB, $(stat -c %s "$D/fleet.html") bytes"
set -- $(secs "$T" report --db "$D/fleet.db" -o "$D/fleet.html")
echo "fleet report with a page per machine ($(ls "$D/fleet-machines" | wc -l)): $1 s, peak RSS $2 KiB"
set -- $(secs sh -c "find '$D/fleet' -name '*.log' | xargs '$T' show --json >/dev/null")
echo "without the store, show --json over the same $N logs: $1 s"
set -- $(secs "$T" report "$D/fleet" --no-pages -o "$D/fleet-logs.html")
echo "without the store, the fleet page straight from the $N logs: $1 s, peak RSS $2 KiB"
