#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe collect on loopback (tools/collect/): the senders are
# tests/net/collect_client.py speaking HTTP and syslog as the probe does,
# with real logs' records (tests/data/logs/schema1/).  One collector takes
# every kind of sender and hostile input, then SIGTERM; a second has a token
# and a short --incomplete-after; a third is stopped in the middle of 40
# senders.  Every server listens on 127.0.0.1 only, on ports the kernel
# picks (--ready-file says which).
. tests/lib/check.sh
BUILD=${BUILD:-build}
T=$BUILD/tickprobe
CLIENT=tests/net/collect_client.py
D=$(mktemp -d /tmp/tickprobe-collect.XXXXXX)
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	rm -rf "$D"
}
trap cleanup EXIT

if [ ! -x "$T" ]; then
	fail setup "build $T first (make tool)"
	exit 1
fi

# start NAME [OPTIONS...]: a collector on free ports, its pid in $pid.
start() {
	name=$1
	shift
	rm -f "$D/$name.ready"
	"$T" collect --http 127.0.0.1:0 --syslog 127.0.0.1:0 --ready-file "$D/$name.ready" --dir "$D/$name" \
		--db "$D/$name.db" "$@" >"$D/$name.out" 2>"$D/$name.err" &
	pid=$!
	PIDS="$PIDS $pid"
	i=0
	while [ ! -s "$D/$name.ready" ] && [ $i -lt 100 ] && kill -0 "$pid" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	check "collector $name: listening ($(cat "$D/$name.ready" 2>/dev/null))" \
		"grep -qE '^http=127\.0\.0\.1:[0-9]+ syslog=127\.0\.0\.1:[0-9]+\$' '$D/$name.ready'" "$(cat "$D/$name.err")"
}

# stop PID: SIGTERM, and its exit status in $rc (bounded: 20 s).
stop() {
	kill -TERM "$1"
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	wait "$1"
	rc=$?
}

client() { "$PYTHON3" "$CLIENT" "$@"; }
runs() { sqlite3 "$1" "SELECT count(*) FROM runs WHERE complete = 1" 2>&1; }

# --- bad options, and the static build ------------------------------------------------
bad_option() {
	what=$1
	shift
	"$T" collect --dir "$D/never" "$@" >"$D/bad.out" 2>"$D/bad.err" </dev/null
	rc=$?
	if [ "$rc" = 2 ] && [ ! -s "$D/bad.out" ] && grep -q "^tickprobe collect: " "$D/bad.err"; then
		pass "bad option, $what: exit 2, \"$(head -n 1 "$D/bad.err")\""
	else
		fail "bad option, $what" "exit $rc: $(head -c 200 "$D/bad.err")"
	fi
}
bad_option "unknown" --bogus
bad_option "an address that is a name" --http localhost:8514
bad_option "no port" --http 127.0.0.1
bad_option "a port past 65535" --syslog 127.0.0.1:70000
bad_option "a token with a space" --token "two words"
bad_option "a body bound under 1 KiB" --max-body 10
bad_option "no connections" --max-connections 0
bad_option "an operand" stray
"$T" collect --help >"$D/help" 2>&1
check "--help: exit 0, the usage" "grep -q '^usage: tickprobe collect ' '$D/help'"
# The collector is a program of its own (tools/collect/exec.c): the command
# loads no libmicrohttpd, and one with no tickprobe-collect near it, as the
# static build in an initramfs, says so.
ldd "$T" | grep -q libmicrohttpd
check "the command itself loads no libmicrohttpd; tickprobe-collect does" \
	"[ $? = 1 ] && ldd '$BUILD/tickprobe-collect' | grep -q libmicrohttpd"
if [ -x "$BUILD/tickprobe-static" ]; then
	mkdir -p "$D/alone" && cp "$BUILD/tickprobe-static" "$D/alone/tickprobe"
	"$D/alone/tickprobe" collect --http 127.0.0.1:0 >"$D/static.out" 2>"$D/static.err"
	rc=$?
	check "a tickprobe with no tickprobe-collect near it says so, exit 2" \
		"[ $rc = 2 ] && grep -q 'no tickprobe-collect beside this tickprobe or in ../lib/tickprobe/' '$D/static.err'" \
		"exit $rc: $(cat "$D/static.err")"
fi

# --- collector A: every kind of sender ---------------------------------------------
start A
A=$pid
R=$D/A.ready
client slow "$R" "$D/A" 3 52-54-00-00-00-05 >"$D/slow.txt" 2>&1 &
SLOW=$!
client one "$R" "$D/A" 52-54-00-00-00-01
client shuffled "$R" "$D/A" 52-54-00-00-00-02
client syslog "$R" "$D/A" 52-54-00-00-00-03
client garbage "$R" "$D/A" 52-54-00-00-00-04
client big "$R" "$D/A" "$A"
client many "$R" "$D/A" 200 256 >"$D/many.txt"
grep -v '^records:' "$D/many.txt"
# The slow senders are cut COLLECT_REQUEST_S (10 s) after they connect:
# collectors B to E run meanwhile, and collector A is finished after them.

# --- collector B: a token, and a short silence --------------------------------------
start B --token s3cret.T0ken --incomplete-after 2
B=$pid
client token "$D/B.ready" "$D/B" s3cret.T0ken 52-54-00-00-01-01
client part "$D/B.ready" "$D/B" 52-54-00-00-01-02 5 s3cret.T0ken
i=0
while ! grep -q '52-54-00-00-01-02 ' "$D/B.out" && [ $i -lt 60 ]; do sleep 0.1; i=$((i + 1)); done
check "collector B: a boot silent for --incomplete-after is incomplete, its records kept" \
	"grep -qx '52-54-00-00-01-02 0000.log: incomplete (no end after 2 s), 5 records' '$D/B.out'" "$(cat "$D/B.out")"
stop "$B"
ok "collector B: SIGTERM, exit 0" "$rc"
check "collector B: the refusals counted" "grep -q 'http: [0-9]* requests: 0 bad (400), 38 refused (403)' '$D/B.out' &&
	grep -q 'syslog: 18 datagrams: 0 bad, 18 refused (token)' '$D/B.out'" "$(grep -E 'http:|syslog:' "$D/B.out")"
check "collector B: the summary" \
	"grep -qx 'tickprobe collect: machines: 1 complete, 0 in progress, 1 incomplete (no end after 2 s)' '$D/B.out'"

# --- collector C: SIGTERM while 40 senders are sending -------------------------------
start C
C=$pid
client many "$D/C.ready" "$D/C" 40 4096 0.05 >"$D/C.many" 2>&1 &
M=$!
# Stopped once the first logs are whole and others are not (bounded: 20 s).
i=0
while [ "$(grep -c ': complete, ' "$D/C.out")" -lt 3 ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
stop "$C"
ok "collector C: SIGTERM in the middle of 40 senders, exit 0" "$rc" "exit $rc: $(tail -n 3 "$D/C.err")"
wait $M
client prefixes "$D/C.ready" "$D/C" 40 4096 >"$D/C.prefix"
grep -v '^complete=' "$D/C.prefix"
done_files=$(sed -n 's/^complete=//p' "$D/C.prefix")
lines=$(grep -c ': complete, [0-9]* records, imported$' "$D/C.out")
check "collector C: some logs whole ($done_files of 40), and every one imported before the exit" \
	"[ '$done_files' -ge 3 ] && [ '$done_files' -lt 40 ] && [ '$done_files' = '$lines' ] && [ \"\$(runs '$D/C.db')\" = '$lines' ]" \
	"$done_files complete files, $lines lines, $(runs "$D/C.db") runs"

# --- collector D: the attacks of a second look ---------------------------------------
# Each of these once crashed the collector, or locked every new boot out.
start D --max-log-bytes 131072
D4=$pid
client crash "$D/D.ready" "$D/D"
check "collector D: still running after the request that once crashed it" "kill -0 $D4"
client one "$D/D.ready" "$D/D" 52-54-00-00-02-01
client flood "$D/D.ready" "$D/D" 1100 52-54-00-00-02-02
client cut "$D/D.ready" "$D/D" 131072 52-54-00-00-02-03
i=0
while ! grep -q '^52-54-00-00-02-03 0000.log: cut at' "$D/D.out" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
stop "$D4"
ok "collector D: SIGTERM, exit 0" "$rc" "exit $rc: $(tail -n 3 "$D/D.err")"
check "collector D: the log cut at the limit says so, and is imported as far as it goes" \
	"grep -qE '^52-54-00-00-02-03 0000.log: cut at the 131072-byte limit \(--max-log-bytes\), [0-9]+ records, partial: no end record \(cut short\), [0-9]+ problem\(s\), imported$' '$D/D.out'" \
	"$(grep 02-03 "$D/D.out")"
check "collector D: the forged boots made room, and the summary counts them" \
	"grep -qE '^tickprobe collect: boots: [1-9][0-9]* evicted for a boot that said hello' '$D/D.out'" \
	"$(grep 'boots:' "$D/D.out")"

# --- collector E: a 20 MB log, streamed ---------------------------------------------
# Its memory must not grow with the log: 64 MiB is docs/collect.md's bound for
# one sender at a time.
start E
E5=$pid
client biglog "$D/E.ready" "$D/E" "$E5" 20 64 52-54-00-00-03-01 "$D/E.out"
stop "$E5"
ok "collector E: SIGTERM, exit 0" "$rc"
check "collector E: the 20 MB log complete and imported" \
	"grep -qE '^52-54-00-00-03-01 0000.log: complete, [0-9]+ records, imported$' '$D/E.out'" "$(cat "$D/E.out")"
check "collector E: its records in the store" \
	"[ \"\$(sqlite3 '$D/E.db' 'SELECT records FROM runs')\" -gt 60000 ]" "$(sqlite3 "$D/E.db" 'SELECT records FROM runs')"
# --- collector A, once its slow senders are cut ----------------------------------
wait $SLOW
cat "$D/slow.txt"

# A second collector on A's port.
port=$(sed 's/^http=127\.0\.0\.1:\([0-9]*\) .*/\1/' "$R")
"$T" collect --http "127.0.0.1:$port" --dir "$D/inuse" >"$D/inuse.out" 2>"$D/inuse.err"
rc=$?
check "a port in use: exit 2 and why" "[ $rc = 2 ] && grep -q 'cannot listen on 127.0.0.1:$port (TCP): Address already in use' '$D/inuse.err'" \
	"exit $rc: $(cat "$D/inuse.err")"

client part "$R" "$D/A" 52-54-00-00-00-06 7
# Every complete log's line is out (the main thread imports within 0.1 s of its end).
i=0
while [ "$(grep -c ': complete, ' "$D/A.out")" -lt 204 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
stop "$A"
ok "collector A: SIGTERM, exit 0" "$rc" "exit $rc: $(tail -n 3 "$D/A.err")"
n=$(grep -c ': complete, [0-9]* records, imported$' "$D/A.out")
check "collector A: 204 logs complete and imported, one line each" "[ $n = 204 ]" "$n: $(grep -v imported "$D/A.out" | head -n 5)"
check "collector A: the line of the first sender" \
	"grep -qx '52-54-00-00-00-01 0000.log: complete, 18 records, imported' '$D/A.out'"
check "collector A: the boot cut short is named at the stop, its 7 records kept" \
	"grep -qx '52-54-00-00-00-06 0000.log: in progress when the collector stopped, 7 records kept' '$D/A.out'"
check "collector A: the summary" \
	"grep -qx 'tickprobe collect: machines: 204 complete, 1 in progress, 0 incomplete (no end after 10 min)' '$D/A.out'" \
	"$(grep machines: "$D/A.out")"
check "collector A: the garbage counted (6 bad HTTP bodies, 2 too large, 4 bad datagrams)" \
	"grep -q 'http: [0-9]* requests: 6 bad (400), 0 refused (403), 2 too large (413), 0 busy (503)' '$D/A.out' &&
	 grep -q 'syslog: [0-9]* datagrams: 4 bad, 0 refused' '$D/A.out'" "$(grep -E 'http:|syslog:' "$D/A.out")"
check "collector A: the slow senders counted as cut" "grep -qE 'busy \(503\); [3-9][0-9]* connections cut' '$D/A.out'" \
	"$(grep http: "$D/A.out")"
check "collector A: the store has the 204 complete runs" "[ \"\$(runs '$D/A.db')\" = 204 ]" "$(runs "$D/A.db")"
check "collector A: the first sender's run in the store under its machine" \
	"[ \"\$(sqlite3 '$D/A.db' \"SELECT r.records FROM runs r JOIN machines m ON m.id = r.machine_id WHERE m.name = '52-54-00-00-00-01'\")\" = 18 ]"
"$T" db import "$D/A.db" "$D/A" --machine-from-dir -q >"$D/reimport.out" 2>&1
check "collector A: tickprobe db import --machine-from-dir of its logs adds only the cut-short one" \
	"grep -q '205 runs: 1 imported, 204 already in the store' '$D/reimport.out'" "$(cat "$D/reimport.out")"

# With A's logs whole: tickprobe db import reads a long log as the collector
# does, in two streamed passes, in its turn among the short ones it loads
# ahead: its memory does not grow with the log either, and it stores the same.
"$PYTHON3" -c 'import resource, subprocess, sys
out = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, text=True)
print(out.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, out.stdout.strip())' \
	"$T" db import -q "$D/E2.db" "$D/A" "$D/E" --machine-from-dir >"$D/E2.out"
read -r rc rss rest <"$D/E2.out"
echo "INFO: tickprobe db import of collector A's 205 logs and the 21.8 MB log: peak memory (ru_maxrss) $rss kB"
check "tickprobe db import of 205 short logs and the 20 MB one: exit 3 (one cut short), every run imported" \
	"[ '$rc' = 3 ] && grep -q '206 runs: 206 imported' '$D/E2.out'" "exit $rc: $rest"
check "... its peak memory under 64 MiB ($rss kB)" "[ '$rss' -lt 65536 ]" "$rss kB"
check "... and the long log's run is what the collector stored" \
	"[ \"\$(sqlite3 '$D/E2.db' \"SELECT content_key, records, log_bytes FROM runs WHERE records > 60000\")\" = \
	   \"\$(sqlite3 '$D/E.db' 'SELECT content_key, records, log_bytes FROM runs')\" ]" \
	"$(sqlite3 "$D/E2.db" 'SELECT content_key, records, log_bytes FROM runs WHERE records > 60000')"

# --- the log directory, the store and the token, as an attacker or operator finds them --
mkdir -p "$D/open" && chmod 0777 "$D/open"
bad_option "a --dir other users can write" --dir "$D/open"
check "... and the message says why" "grep -q 'can be written by other users (mode 0777)' '$D/bad.err'" "$(cat "$D/bad.err")"
bad_option "a --db in a directory other users can write" --dir "$D/F" --db "$D/open/f.db"
mkdir -p "$D/G" "$D/elsewhere"
printf 'secret\n' >"$D/elsewhere/0000.log"
ln -s "$D/elsewhere" "$D/G/52-54-00-00-04-01"
start G
G7=$pid
client part "$D/G.ready" "$D/G" 52-54-00-00-04-01 1 >"$D/G.client" 2>&1
stop "$G7"
check "a machine folder swapped for a link: not followed, the file it points at untouched" \
	"[ \"\$(cat '$D/elsewhere/0000.log')\" = secret ] && [ ! -e '$D/elsewhere/0001.log' ]" "$(ls -l "$D/elsewhere")"
check "... and the sender of its record 0 is answered 503" \
	"grep -q 'a boot cut short after 1 records: taken: {503}' '$D/G.client'" "see $D/G.client"
ln -s "$D/elsewhere/0000.log" "$D/link.db"
bad_option "a --db that is a link" --dir "$D/H" --db "$D/link.db"

printf 'T0ken.from.file\n' >"$D/token"
chmod 0600 "$D/token"
start T --token-file "$D/token"
T8=$pid
client token "$D/T.ready" "$D/T" T0ken.from.file 52-54-00-00-05-01
stop "$T8"
chmod 0644 "$D/token"
bad_option "a --token-file every user can read" --token-file "$D/token"
export TICKPROBE_TOKEN=T0ken.from.env
start U
U9=$pid
unset TICKPROBE_TOKEN
client token "$D/U.ready" "$D/U" T0ken.from.env 52-54-00-00-05-02
stop "$U9"
start V --token T0ken.on.the.line
V10=$pid
check "--token on the command line warns that ps shows it" "grep -q 'visible to every local user in ps' '$D/V.err'"
check "... and ps no longer shows it once the collector runs" \
	"! tr '\\0' ' ' </proc/$V10/cmdline | grep -q T0ken.on.the.line" "$(tr '\0' ' ' </proc/$V10/cmdline)"
stop "$V10"
