#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe collect's speed, printed, never asserted: records a second over
# HTTP on loopback from one sender and from 200 at once (each a real log,
# tests/data/logs/schema1/, lengthened with a verbose run's samples records:
# tests/net/collect_client.py, its raw sender), the collector's CPU time per
# record (the import of the finished logs included), and its peak memory
# (VmHWM).  The senders are Python: on a 2-core machine they share the CPUs
# with the collector and are the bound, hence the CPU figure.
#   sh tests/bench/collect.sh [BUILD] [RECORDS]   (RECORDS per run, default 20000)
BUILD=${1:-build}
N=${2:-20000}
T=$BUILD/tickprobe
CLIENT=$(dirname "$0")/../net/collect_client.py
D=$(mktemp -d /tmp/tickprobe-collectbench.XXXXXX)
trap 'kill $pid 2>/dev/null; rm -rf "$D"' EXIT

cpu() { # the collector's user+system CPU, in clock ticks
	awk '{ print $14 + $15 }' "/proc/$pid/stat"
}
run() { # name senders records-per-sender
	rm -rf "$D/logs" "$D/db" "$D/ready"
	"$T" collect --http 127.0.0.1:0 --ready-file "$D/ready" --dir "$D/logs" --db "$D/db" --quiet >"$D/out" 2>&1 &
	pid=$!
	i=0
	while [ ! -s "$D/ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	c0=$(cpu)
	# each log has 18 records of its own: the rest are samples records
	python3 "$CLIENT" many "$D/ready" "$D/logs" "$2" 256 0 $(($3 - 18)) raw >"$D/client" 2>&1
	c1=$(cpu)
	hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
	kill -TERM $pid
	wait $pid
	rate=$(sed -n 's/^records: //p' "$D/client")
	fails=$(grep -c '^FAIL' "$D/client")
	ticks=$(getconf CLK_TCK)
	echo "$1: $rate; collector CPU $(awk -v t=$((c1 - c0)) -v k="$ticks" -v n=$(($2 * $3)) \
		'BEGIN { printf "%.2f s, %.1f us a record", t / k, t / k / n * 1e6 }'); peak memory (VmHWM) $hwm KiB;" \
		"$fails failed checks"
	sed -n 's/^tickprobe collect: machines/    machines/p' "$D/out"
}
run "1 sender" 1 "$N"
run "200 senders" 200 $((N / 200))
