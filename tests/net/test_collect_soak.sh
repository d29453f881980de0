#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The collector under ASan and UBSan (BUILD/asan/tickprobe-collect, make
# sanitize) on loopback, for a bounded time and count, with good senders and
# every hostile case at once:
#   good: 600 boots from tests/bench/collect_send.c (200 in flight at once,
#         400 one after the other in bodies of 8 records), one 5 MB log,
#         and collect_client.py's probes: one in order, one shuffled, one
#         over syslog losing a record in 20 of its first pass;
#   hostile: the hello that once crashed the collector, garbage, a wrong or
#         missing token, 100 MB bodies, senders at a byte a second, 1,100
#         forged syslog datagrams, a log past --max-log-bytes, a machine
#         folder swapped for a link.
# Then: no sanitizer report and exit 0 at SIGTERM, every good log whole,
# complete and imported, nothing stored for a bad token, and the peak
# memory within docs/collect.md's bound for these options (with what ASan
# itself adds, below).  Prints its figures on an INFO: line.  About 30 s of
# wall time on a busy 2-core machine; every wait is bounded.
. tests/lib/check.sh
BUILD=${BUILD:-build}
COLLECTOR=$BUILD/asan/tickprobe-collect
SEND=$BUILD/bench/collect_send
CLIENT=tests/net/collect_client.py
LOG=tests/data/logs/schema1/q35-bios-default.log
D=$(mktemp -d /tmp/tickprobe-soak.XXXXXX)
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	rm -rf "$D"
}
trap cleanup EXIT

mkdir -p "$BUILD"
# The lock: tests/run.sh may run the other builds into BUILD at the same time.
if ! flock "$BUILD/.make.lock" make -s BUILD="$BUILD" "$COLLECTOR" "$SEND" >"$BUILD/soak-build.log" 2>&1; then
	fail "soak: build failed: $(grep -m1 -E 'error|Error' "$BUILD/soak-build.log")"
	exit 1
fi

# The options, and docs/collect.md's bound for them, in MiB: held records 64,
# bodies --max-connections × (--max-body + 32 KiB), the record checks 10 a
# receiving thread (2), the table's bookkeeping 6, the reader and importer
# 12, SQLite's page caches 4.
CONNS=64
MAX_LOG=6291456
BOUND=$((64 + CONNS * (256 + 32) / 1024 + 2 * 10 + 6 + 12 + 4))
# What ASan adds on top: its shadow, an eighth of what is allocated, and the
# redzones around each block (an eighth more, for blocks past 128 bytes);
# its quarantine of freed blocks, held to 16 MiB here; and its runtime,
# counted in the resident size at the start.
QUARANTINE=16
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:quarantine_size_mb=$QUARANTINE
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
TOKEN=soak.T0ken
printf '%s\n' "$TOKEN" >"$D/token"
chmod 0600 "$D/token"

"$COLLECTOR" --http 127.0.0.1:0 --syslog 127.0.0.1:0 --ready-file "$D/ready" --dir "$D/logs" --db "$D/fleet.db" \
	--token-file "$D/token" --max-connections $CONNS --max-log-bytes $MAX_LOG >"$D/out" 2>"$D/err" &
pid=$!
PIDS="$pid"
i=0
while [ ! -s "$D/ready" ] && [ $i -lt 300 ] && kill -0 $pid 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
if ! grep -qE '^http=127\.0\.0\.1:[0-9]+ syslog=' "$D/ready" 2>/dev/null; then
	fail "soak: the collector under ASan did not start" "$(head -c 600 "$D/err")"
	exit 1
fi
start_kb=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
addr=$(sed 's/^http=\([^ ]*\) .*/\1/' "$D/ready")
t0=$(date +%s)

# The good senders, and the hostile ones beside them, all at once.
mkdir -p "$D/expect"
export TICKPROBE_TOKEN=$TOKEN
"$SEND" --http "$addr" --log "$LOG" --boots 200 --connections 4 --samples 100 --interleave --base 0x10000 \
	--expect "$D/expect" >"$D/send.A" 2>&1 &
A=$!
"$SEND" --http "$addr" --log "$LOG" --boots 400 --connections 4 --samples 40 --per-body 8 --base 0x20000 \
	--expect "$D/expect" >"$D/send.B" 2>&1 &
B=$!
"$SEND" --http "$addr" --log "$LOG" --boots 1 --samples 50000 --per-body 64 --base 0x30000 \
	--expect "$D/expect" >"$D/send.C" 2>&1 &
C=$!
PIDS="$PIDS $A $B $C"
client() { # client NAME SCENARIO ARGS...: its output in client.NAME
	name=$1
	scenario=$2
	shift 2
	"$PYTHON3" "$CLIENT" "$scenario" "$D/ready" "$D/logs" "$@" >"$D/client.$name" 2>&1
}
client slow slow 3 52-54-00-05-00-01 &
SLOW=$!
PIDS="$PIDS $SLOW"
client one one 52-54-00-05-00-02
client shuffled shuffled 52-54-00-05-00-03
client syslog syslog 52-54-00-05-00-04
client crash crash
client garbage garbage 52-54-00-05-00-05
client token token "$TOKEN" 52-54-00-05-00-06
client big big 0
client flood flood 1100 52-54-00-05-00-07
client cut cut $MAX_LOG 52-54-00-05-00-08 64
client link link 52-54-00-05-00-09 "$D/victim"
HOSTILE="crash garbage token big slow flood cut link"
for p in $A $B $C $SLOW; do
	wait "$p"
done
for f in "$D"/client.*; do
	sed "s/^\(PASS\|FAIL\): /\1: soak $(basename "$f" | cut -d. -f2): /" "$f"
done
for s in A B C; do
	check "soak: sender $s: every record answered 204" "grep -q 'failed: 0\$' '$D/send.$s'" "$(cat "$D/send.$s")"
done

# Every good log: whole, and its line says complete and imported.  The
# Python probes' good logs: one, shuffled, syslog, the one beside the slow
# senders, the token's right sender and the flood's probe.
PY_GOOD="52-54-00-05-00-01 52-54-00-05-00-02 52-54-00-05-00-03 52-54-00-05-00-04 52-54-00-05-00-06 52-54-00-05-00-07"
good=$(find "$D/expect" -name "*.log" | wc -l)
want=$((good + 6))
i=0
while [ "$(grep -c ': complete, [0-9]* records, imported$' "$D/out")" -lt $want ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
peak_kb=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
kill -TERM $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
wait $pid
rc=$?
spent=$(($(date +%s) - t0))
report=$(grep -m1 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: ' "$D/err")
check "soak: the collector stopped by SIGTERM, exit 0, no sanitizer report" "[ $rc = 0 ] && [ -z '$report' ]" \
	"exit $rc: ${report:-$(tail -n 3 "$D/err")}"
client expect expect "$D/expect" "$D/out"
sed "s/^\(PASS\|FAIL\): /\1: soak: the C senders: /" "$D/client.expect"
missing=""
for m in $PY_GOOD; do
	grep -q "^$m 0000.log: complete, [0-9]* records, imported\$" "$D/out" || missing="$missing $m"
done
check "soak: the Python probes' 6 good logs complete and imported" "[ -z '$missing' ]" "not:$missing"
runs=$(sqlite3 "$D/fleet.db" "SELECT count(*) FROM runs WHERE complete = 1")
check "soak: the store holds the $want good logs as complete runs, and no other" "[ '$runs' = $want ]" \
	"$runs complete runs"
check "soak: nothing stored for a bad token (every refusal counted, the one machine's log from its good sender)" \
	"grep -qE 'requests: [0-9]+ bad \\(400\\), [1-9][0-9]* refused \\(403\\)' '$D/out' &&
	 [ \"\$(sqlite3 '$D/fleet.db' \"SELECT count(*) FROM runs r JOIN machines m ON m.id = r.machine_id
	     WHERE m.name = '52-54-00-05-00-06'\")\" = 1 ]" "$(grep 'http:' "$D/out")"
limit_kb=$((start_kb + (BOUND * 1024 * 5 / 4) + QUARANTINE * 1024))
check "soak: peak memory $((peak_kb / 1024)) MiB, within the bound ($BOUND MiB, with ASan's: $((limit_kb / 1024)) MiB)" \
	"[ '$peak_kb' -gt 0 ] && [ '$peak_kb' -le $limit_kb ]" "VmHWM $peak_kb kB"

requests=$(sed -n 's/^tickprobe collect: http: \([0-9]*\) requests.*/\1/p' "$D/out")
datagrams=$(sed -n 's/^tickprobe collect: syslog: \([0-9]*\) datagrams.*/\1/p' "$D/out")
turned=$(sed -n 's/^tickprobe collect: http: [0-9]* requests: \([0-9]*\) bad (400), \([0-9]*\) refused (403), \([0-9]*\) too large (413), \([0-9]*\) busy (503); \([0-9]*\) connections cut.*/\1 \2 \3 \4 \5/p' "$D/out")
echo "INFO: soak: ${spent} s, $requests HTTP requests and $datagrams datagrams; hostile cases: $HOSTILE;" \
	"turned away (400 403 413 503 cut): $turned; good logs stored: $runs; peak memory (VmHWM, under ASan)" \
	"$((peak_kb / 1024)) MiB, $((start_kb / 1024)) MiB at the start"
