#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe collect's figures, printed, never asserted:
#   - records a second over HTTP on loopback, a record a POST (as the probe
#     sends them) and 64 a POST, over 1 and 8 keep-alive connections of the
#     C sender (tests/bench/collect_send.c: real logs, tests/data/logs/
#     schema1/, lengthened with a verbose run's samples records), with the
#     collector's CPU time per record (each log's import included) and the
#     sender's: the sender must not be what limits the collector;
#   - the collector's peak memory (VmHWM) with 1,000 boots in flight at once,
#     and with one 20 MB log, each complete and imported;
#   - with --soak, the soak's figures (tests/net/test_collect_soak.sh).
# Figures taken while other work shares the machine are noisy: the load
# average is printed first.
#   sh tests/bench/collect.sh [BUILD] [RECORDS] [--soak]   (RECORDS per rate run, default 100000)
BUILD=${1:-build}
N=${2:-100000}
SOAK=${3:-}
T=$BUILD/tickprobe
SEND=$BUILD/bench/collect_send
LOG=tests/data/logs/schema1/q35-bios-default.log
D=$(mktemp -d /tmp/tickprobe-collectbench.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$D"' EXIT

make -s BUILD="$BUILD" "$T" "$BUILD/tickprobe-collect" "$SEND" || exit 1
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"

cpu() { # the collector's user+system CPU, in clock ticks
	awk '{ print $14 + $15 }' "/proc/$pid/stat"
}
hwm() {
	awk '/^VmHWM/ { print $2 }' "/proc/$pid/status"
}
start() { # a collector on a free port, its address in $addr
	rm -rf "$D/logs" "$D/db" "$D/ready"
	"$T" collect --http 127.0.0.1:0 --ready-file "$D/ready" --dir "$D/logs" --db "$D/db" --quiet \
		--max-boots-per-source 1024 >"$D/out" 2>&1 &
	pid=$!
	i=0
	while [ ! -s "$D/ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	addr=$(sed 's/^http=//' "$D/ready")
}
settled() { # until N logs are imported (bounded: 120 s), then the collector stopped
	i=0
	while [ "$(sqlite3 "$D/db" 'SELECT count(*) FROM runs' 2>/dev/null)" != "$1" ] && [ $i -lt 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	peak=$(hwm)
	cpu_end=$(cpu)
	kill -TERM $pid
	wait $pid
	pid=
}

# rate NAME CONNECTIONS PER-BODY: N records from 200 boots, 1 connection or more.
rate() {
	start
	samples=$((N / 200 - 18)) # each log has 18 records of its own
	c0=$(cpu)
	"$SEND" --http "$addr" --log "$LOG" --boots 200 --connections "$2" --per-body "$3" --samples $samples \
		>"$D/send" 2>&1
	settled 200
	ticks=$(getconf CLK_TCK)
	sender=$(sed -n 's/.*sender CPU \([0-9.]*\) s.*/\1/p' "$D/send")
	echo "$1: $(sed -n 's/^records: \([^;]*\);.*/\1/p' "$D/send"); CPU per record: collector" \
		"$(awk -v t=$((cpu_end - c0)) -v k="$ticks" -v n="$N" 'BEGIN { printf "%.1f us", t / k / n * 1e6 }')," \
		"sender $(awk -v s="$sender" -v n="$N" 'BEGIN { printf "%.1f us", s / n * 1e6 }');" \
		"$(grep -o 'failed: [0-9]*' "$D/send")"
}
rate "1 connection, a record a POST" 1 1
rate "8 connections, a record a POST" 8 1
rate "8 connections, 64 records a POST" 8 64

# 1,000 boots in flight: each says hello, then each sends its next record in turn.
start
base=$(hwm)
"$SEND" --http "$addr" --log "$LOG" --boots 1000 --connections 8 --samples 100 --interleave >"$D/send" 2>&1
settled 1000
echo "1,000 boots in flight (118 records each, interleaved): peak memory (VmHWM) $peak KiB," \
	"$base KiB at the start; $(sed -n 's/^records: \([^;]*\);.*/\1/p' "$D/send"); $(grep -o 'failed: [0-9]*' "$D/send")"

# One 20 MB log, 64 records a POST.
start
base=$(hwm)
"$SEND" --http "$addr" --log "$LOG" --boots 1 --samples 200000 --per-body 64 >"$D/send" 2>&1
settled 1
bytes=$(wc -c <"$D/logs/52-54-00-00-01-00/0000.log")
echo "one $((bytes / 1000000)) MB log ($bytes bytes): peak memory (VmHWM) $peak KiB, $base KiB at the start;" \
	"$(sed -n 's/^records: \([^;]*\);.*/\1/p' "$D/send"); $(grep -o 'failed: [0-9]*' "$D/send")"

if [ "$SOAK" = --soak ]; then
	BUILD=$BUILD sh tests/net/test_collect_soak.sh >"$D/soak" 2>&1
	echo "soak: $(grep -c '^PASS' "$D/soak") checks passed, $(grep -c '^FAIL' "$D/soak") failed"
	sed -n 's/^INFO: soak: /soak: /p' "$D/soak"
fi
