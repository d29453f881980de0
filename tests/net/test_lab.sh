#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A lab over the network, end to end: OVMF PXE-boots the UEFI probe from the
# tree `make netboot` builds (image/mknetboot.sh) over QEMU's user network, and
# one `tickprobe collect` on 127.0.0.1 (10.0.2.2 from the guests) takes every
# log, as docs/lab.md sets a lab up.
#   default  the default preset over HTTP: the collector's log equals the
#            boot's serial record lines byte for byte, and the store has the
#            run; the time from power-on to the log imported is printed
#   four     4 guests booted at once against the same collector: each log is
#            its own guest's records, none mixed up (the collector's load is
#            tests/net/test_collect_soak.sh's):
#     syslog   the quick preset over UDP with 1 datagram in 20 dropped on
#              purpose (net_drop=20): the log is still complete
#     token    a wrong token: the collector stores nothing, and the guest's
#              begin record says why; its run goes on to its end
#     http1-2  the quick preset over HTTP, the same options twice
# Five OVMF boots under TCG, four of them at once.
. tests/lib/check.sh
. tests/boot/lib.sh
. tests/net/lib.sh
OUT=$BUILD/test-net/lab
rm -rf "$OUT" && mkdir -p "$OUT"
TOKEN=lab-7.token
for f in "$BUILD/tickprobe" "$BUILD/BOOTX64.EFI" "$BUILD/tickprobe.elf32" "$BUILD/mkgrubcfg" "$OVMF"; do
	[ -f "$f" ] || { fail "setup: $f missing (make all, make deps)"; exit 1; }
done
sh image/mknetboot.sh "$BUILD" "$OUT/tree" >"$OUT/mknetboot.out" 2>&1
ok "setup: image/mknetboot.sh builds the tree" $? "$(tail -n 2 "$OUT/mknetboot.out" | tr '\n' ' ')"

# --- the collector ---------------------------------------------------------------
"$BUILD/tickprobe" collect --http 127.0.0.1:0 --syslog 127.0.0.1:0 --token "$TOKEN" --dir "$OUT/logs" \
	--db "$OUT/lab.db" --ready-file "$OUT/ready" >"$OUT/collect.out" 2>"$OUT/collect.err" &
COLLECT=$!
trap 'kill "$COLLECT" 2>/dev/null' EXIT
n=0
while [ ! -s "$OUT/ready" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
HTTP=$(sed -n 's/.*http=127\.0\.0\.1:\([0-9]*\).*/\1/p' "$OUT/ready")
SYSLOG=$(sed -n 's/.*syslog=127\.0\.0\.1:\([0-9]*\).*/\1/p' "$OUT/ready")
[ -n "$HTTP" ] && [ -n "$SYSLOG" ]
ok "collector: listening on 127.0.0.1 (http $HTTP, syslog $SYSLOG)" $? "$(cat "$OUT/ready" "$OUT/collect.err")"

# guest NAME MAC CFG: one PXE boot in the background from a boot directory of its
# own (the tree's BOOTX64.EFI and presets.cfg, CFG as its tickprobe.cfg); its
# serial line in $OUT/NAME.log, QEMU's exit status in $OUT/NAME.rc.
guest() {
	mkdir -p "$OUT/$1.tftp"
	cp "$OUT/tree/BOOTX64.EFI" "$OUT/tree/presets.cfg" "$OUT/$1.tftp/"
	printf '%s\n' "$3" >"$OUT/$1.tftp/tickprobe.cfg"
	(ovmf 400 "$1" "tftp=$OUT/$1.tftp,bootfile=BOOTX64.EFI" "mac=$2" -boot n
	 echo $? >"$OUT/$1.rc") &
	GUESTS="$GUESTS $!"
}

# Waits for the guests started since the last call (not the collector).
wait_guests() {
	for p in $GUESTS; do wait "$p"; done
	GUESTS=
}

ended() { # NAME: the run ended as usual, its record lines in $OUT/NAME.rec
	rc=$(cat "$OUT/$1.rc" 2>/dev/null)
	[ "$rc" = 33 ] || [ "$rc" = 35 ]
	ok "$1: the run ends as usual (QEMU exit 33 or 35)" $? "exit $rc: $(tail -n 2 "$OUT/$1.err" | tr '\n' ' ')"
	$NET records "$OUT/$1.log" "$OUT/$1.rec"
}

# collected NAME MACHINE: the collector's one log of MACHINE equals the boot's records.
collected() {
	f=$OUT/logs/$2/0000.log
	if [ -s "$OUT/$1.rec" ] && cmp -s "$OUT/$1.rec" "$f" && [ ! -e "$OUT/logs/$2/0001.log" ]; then
		pass "$1: $2/0000.log holds the boot's $(grep -c . "$f") record lines, byte for byte"
	else
		fail "$1: $2/0000.log is not the boot's records" \
			"$(wc -c <"$f" 2>/dev/null || echo none) against $(wc -c <"$OUT/$1.rec") bytes; $(ls "$OUT/logs/$2" 2>&1)"
	fi
}

imported() { # MACHINE: the collector said the log was complete and imported
	n=0
	while ! grep -q "^$1 0000.log: complete, [0-9]* records, imported\$" "$OUT/collect.out" && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	grep -q "^$1 0000.log: complete, [0-9]* records, imported\$" "$OUT/collect.out"
}

# --- default: power-on to the log stored -------------------------------------------
t0=$(now_ms)
guest default 52:54:00:00:10:01 "net=http://10.0.2.2:$HTTP/log net_token=$TOKEN"
wait_guests
imported 52-54-00-00-10-01
ok "default: the collector says the log is complete and imported" $? "$(cat "$OUT/collect.out")"
echo "INFO: default: power-on to the log imported: $(( $(now_ms) - t0 )) ms"
ended default
collected default 52-54-00-00-10-01
expect_preset=$($NET field "$OUT/default.log" begin options | "$PYTHON3" -c 'import json, sys; print(json.load(sys.stdin).get("preset"))')
check "default: the default preset ran" "[ '$expect_preset' = default ]" "$expect_preset"
got=$($NET field "$OUT/default.log" begin cmdline)
[ "$got" = "\"net=http://10.0.2.2:$HTTP/log net_token=(hidden)\"" ]
ok "default: the begin record shows the command line with the token hidden: $got" $?
runs=$(sqlite3 "$OUT/lab.db" "SELECT m.name, r.preset, r.complete, r.records FROM runs r JOIN machines m ON m.id = r.machine_id" 2>&1)
[ "$runs" = "52-54-00-00-10-01|default|1|$(grep -c . "$OUT/default.rec")" ]
ok "default: the store has the run, complete, under the machine's name: $runs" $?

# --- four guests at once ---------------------------------------------------------------
guest syslog 52:54:00:00:10:02 "preset=quick slow_rates=off net=syslog://10.0.2.2:$SYSLOG net_drop=20 net_token=$TOKEN"
guest token 52:54:00:00:10:03 "preset=quick slow_rates=off net=http://10.0.2.2:$HTTP/log net_token=not-the-token"
for i in 1 2; do
	guest "http$i" "52:54:00:00:20:0$i" "preset=quick slow_rates=off net=http://10.0.2.2:$HTTP/log net_token=$TOKEN"
done
t0=$(now_ms)
wait_guests
echo "INFO: four: 4 guests at once took $(( $(now_ms) - t0 )) ms"
ended syslog
imported 52-54-00-00-10-02
ok "syslog: the collector says the log is complete and imported" $?
collected syslog 52-54-00-00-10-02
n=$(grep -c . "$OUT/syslog.rec")
[ "$n" -ge 20 ]
ok "syslog: $n records, so net_drop=20 dropped $((n / 20)) in the first pass" $?
ended token
[ ! -e "$OUT/logs/52-54-00-00-10-03" ]
ok "token: the collector stored nothing of it" $? "$(ls -R "$OUT/logs/52-54-00-00-10-03" 2>&1)"
got=$($NET field "$OUT/token.log" begin net_problem)
[ "$got" = "\"the collector at http://10.0.2.2:$HTTP/log refused the token (HTTP 403)\"" ]
ok "token: the guest's begin record says why: $got" $?
got=$($NET field "$OUT/token.log" begin net)
check "token: begin.net is null: nothing is sent" "[ '$got' = null ]" "$got"
got=$($NET field "$OUT/token.log" end status)
case $got in
'"ok"' | '"ok-absent"') pass "token: the run went on to its end: status $got" ;;
*) fail "token: the run did not end as usual" "end status $got" ;;
esac
for i in 1 2; do
	ended "http$i"
	imported "52-54-00-00-20-0$i"
	ok "http$i: complete and imported" $?
	collected "http$i" "52-54-00-00-20-0$i"
done
# The two ran the same options on the same virtual machine, so their logs
# differ only in what they measured: two different logs, each under its own
# guest's MAC (above), is none mixed up.
logs=$(for i in 1 2; do sha256sum <"$OUT/logs/52-54-00-00-20-0$i/0000.log"; done | sort -u | wc -l)
check "http: 2 different logs, in 2 machines' directories" "[ $logs = 2 ]" "$logs"

# --- the stop ------------------------------------------------------------------------------
kill -TERM "$COLLECT"
wait "$COLLECT"
ok "collector: SIGTERM, exit 0" $?
trap - EXIT
grep -q '^tickprobe collect: machines: 4 complete, 0 in progress, 0 incomplete' "$OUT/collect.out"
ok "collector: the summary counts 4 complete logs" $? "$(tail -n 3 "$OUT/collect.out")"
runs=$(sqlite3 "$OUT/lab.db" "SELECT count(*), count(DISTINCT content_key) FROM runs WHERE complete = 1")
check "the store: 4 complete runs, each its own" "[ '$runs' = '4|4' ]" "$runs"
