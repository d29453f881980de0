#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The UEFI network console (boot/efi_net.c) and the config from the boot
# server: OVMF PXE-boots build/BOOTX64.EFI over QEMU's TFTP (its own network
# stack, romfile= keeps iPXE out), reads tickprobe.cfg from the TFTP
# directory as its command line, and sends the records to tests/net/receiver.py
# on 127.0.0.1 (10.0.2.2 from the guest).
#   http      the quick preset over HTTP: the records received equal the serial
#             record lines byte for byte; begin.net is the URL; the hello carried
#             the MAC and the boot id; no log file, as a network boot has no file
#             system, and begin and the screen say so
#   syslog    over UDP with net_drop=20 and a token: the first pass misses a
#             datagram, the second fills it: complete
#   nobody    nothing listens: begin.net_problem says "did not answer"
#   stop      the receiver answers 503 after 5 records: the sending stops there,
#             the 5 it stored are the log's first 5, the end note says why
#   disk      a disk boot given net= (tickprobe.env's tp_options): OVMF starts no
#             PXE base code for it, and net_problem says so
#   bios      the BIOS path (-kernel) given net=: net_problem says it cannot send
# A wrong token (the collector's 403) is tests/net/test_lab.sh's, against the
# real collector.  Five OVMF boots and one -kernel boot.
. tests/lib/check.sh
. tests/boot/lib.sh
. tests/net/lib.sh
OUT=$BUILD/test-net/uefi
rm -rf "$OUT" && mkdir -p "$OUT"
for f in "$BUILD/BOOTX64.EFI" "$BUILD/tickprobe.elf32" "$BUILD/mkgrubcfg" "$OVMF"; do
	[ -f "$f" ] || { fail "setup: $f missing (make all, make deps)"; exit 1; }
done
# The boot server's directory: the tree `make netboot` builds (image/mknetboot.sh);
# each boot below writes its own tickprobe.cfg into it.
rm -rf "$OUT/tftp"
sh image/mknetboot.sh "$BUILD" "$OUT/tftp" >"$OUT/mknetboot.out" 2>&1
ok "setup: image/mknetboot.sh builds the TFTP tree" $? "$(tail -n 2 "$OUT/mknetboot.out" | tr '\n' ' ')"

RX_PID=
stop_receiver() {
	[ -n "$RX_PID" ] && kill "$RX_PID" 2>/dev/null && wait "$RX_PID" 2>/dev/null
	RX_PID=
}
trap stop_receiver EXIT

# start_receiver DIR [--token T]: the receiver, its ports in $HTTP_PORT, $SYSLOG_PORT.
start_receiver() {
	dir=$1
	shift
	"$PYTHON3" tests/net/receiver.py --out "$dir" "$@" &
	RX_PID=$!
	n=0
	while [ ! -f "$dir/ready.txt" ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	HTTP_PORT=$(sed -n 's/.*http=\([0-9]*\).*/\1/p' "$dir/ready.txt" 2>/dev/null)
	SYSLOG_PORT=$(sed -n 's/.*syslog=\([0-9]*\).*/\1/p' "$dir/ready.txt" 2>/dev/null)
	[ -n "$HTTP_PORT" ] && [ -n "$SYSLOG_PORT" ]
	ok "receiver: listening on 127.0.0.1 (http $HTTP_PORT, syslog $SYSLOG_PORT)" $?
}

# pxe NAME CFG: one PXE boot with CFG as tickprobe.cfg; the serial line in
# $OUT/NAME.log, its record lines in $OUT/NAME.rec; sets ms and t0.
pxe() {
	name=$1
	printf '%s\n' "$2" >"$OUT/tftp/tickprobe.cfg"
	t0=$(now_ms)
	ovmf 150 "$name" "tftp=$OUT/tftp,bootfile=BOOTX64.EFI" "" -boot n
	rc=$?
	ms=$(( $(now_ms) - t0 ))
	echo "INFO: boot $name: QEMU exit $rc in $ms ms"
	[ "$rc" -eq 33 ] || [ "$rc" -eq 35 ]
	ok "$name: the run ends as usual (QEMU exit 33 or 35)" $? "exit $rc: $(tail -n 2 "$OUT/$name.err" | tr '\n' ' ')"
	$NET records "$OUT/$name.log" "$OUT/$name.rec"
}

field() { $NET field "$OUT/$1.log" "$2" "$3"; }

expect() { # NAME TYPE KEY WANT
	got=$(field "$1" "$2" "$3")
	[ "$got" = "$4" ]
	ok "$1: $2.$3 is $4" $? "it is $got"
}

expect_like() { # NAME TYPE KEY GLOB
	got=$(field "$1" "$2" "$3")
	# shellcheck disable=SC2254 # $4 is a glob, on purpose
	case $got in
	$4) pass "$1: $2.$3: $got" ;;
	*) fail "$1: $2.$3 is not like $4" "$got" ;;
	esac
}

same_bytes() { # NAME FILE
	if [ -s "$OUT/$1.rec" ] && cmp -s "$OUT/$1.rec" "$2"; then
		pass "$1: $(basename "$2") holds the serial log's $(grep -c . "$2") record lines, byte for byte"
	else
		fail "$1: $(basename "$2") differs from the serial records" \
			"$(wc -c <"$2" 2>/dev/null || echo 0) against $(wc -c <"$OUT/$1.rec") bytes"
	fi
}

# --- http: the quick preset, byte for byte ---------------------------------------
start_receiver "$OUT/rx-http"
pxe http "# the lab's options, one per line
preset=quick
slow_rates=off   # the RTC's rate: not what this tests
net=http://10.0.2.2:$HTTP_PORT/log   # the collector"
same_bytes http "$OUT/rx-http/http.log"
expect http begin cmdline "\"preset=quick slow_rates=off net=http://10.0.2.2:$HTTP_PORT/log\""
expect http begin net "\"http://10.0.2.2:$HTTP_PORT/log\""
expect http begin net_problem null
grep -Eq "^204 /log machine=52-54-00-12-34-56 boot=52-54-00-12-34-56-[0-9a-f]{16}\$" "$OUT/rx-http/hellos.txt"
ok "http: one hello, answered 204, with the MAC and the boot id: $(cat "$OUT/rx-http/hellos.txt")" $?
n=$(grep -c . "$OUT/http.rec")
note=$($NET note "$OUT/http.log")
case $note in
*"the log was sent to http://10.0.2.2:$HTTP_PORT/log: $n records."*) pass "http: the end note: $note" ;;
*) fail "http: the end note does not say $n records went" "$note" ;;
esac
last=$(cat "$OUT/rx-http/last.txt" 2>/dev/null || echo 0)
echo "INFO: http: QEMU start to the last record received: $(awk -v a="$last" -v b="$t0" 'BEGIN { printf "%.2f", a - b / 1000 }') s"
expect http begin log_file null
expect_like http begin log_file_problem '"*no file system*no other writable volume*"'
tr -d '\r' <"$OUT/http.log" | grep -aq "^tickprobe: no log file: .*no file system"
ok "http: the serial line (and the screen) say there is no log file, and why" $?
stop_receiver

# --- syslog: net_drop=20, the second pass completes the log ---------------------
start_receiver "$OUT/rx-syslog" --token lab.7
pxe syslog "preset=quick slow_rates=off net=syslog://10.0.2.2:$SYSLOG_PORT net_drop=20 net_token=lab.7"
same_bytes syslog "$OUT/rx-syslog/syslog.log"
expect syslog begin net "\"syslog://10.0.2.2:$SYSLOG_PORT\""
n=$(grep -c . "$OUT/syslog.rec")
dropped=$(( n / 20 ))
first=$(sed -n 's/^first //p' "$OUT/rx-syslog/passes.txt")
again=$(sed -n 's/^again //p' "$OUT/rx-syslog/passes.txt")
[ "$first" = $((n - dropped)) ] && [ "$again" = "$n" ] && [ "$dropped" -ge 1 ]
ok "syslog: the first pass left out $dropped of $n on purpose ($first arrived), the second sent all ($again)" $?
echo "INFO: syslog: $($NET note "$OUT/syslog.log")"
stop_receiver

# --- nobody: nothing listens on the port ----------------------------------------
free=$("$PYTHON3" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pxe nobody "preset=quick slow_rates=off net=http://10.0.2.2:$free/log"
expect nobody begin net null
expect_like nobody begin net_problem "\"the collector at http://10.0.2.2:$free/log did not answer*"
expect_like nobody end status '"ok*'

# --- stop: a collector that breaks down part-way --------------------------------
start_receiver "$OUT/rx-stop" --fail-after 5
pxe stop "preset=quick slow_rates=off net=http://10.0.2.2:$HTTP_PORT/log"
head -n 5 "$OUT/stop.rec" >"$OUT/stop-first5.rec"
cmp -s "$OUT/stop-first5.rec" "$OUT/rx-stop/http.log" && [ "$(grep -c . "$OUT/stop.rec")" -gt 5 ]
ok "stop: the receiver holds the log's first 5 record lines, byte for byte, of $(grep -c . "$OUT/stop.rec")" $?
expect stop begin net "\"http://10.0.2.2:$HTTP_PORT/log\""
note=$($NET note "$OUT/stop.log")
case $note in
*"sending the log to http://10.0.2.2:$HTTP_PORT/log stopped after 5 records: the collector answered HTTP 503."*)
	pass "stop: the end note: $note" ;;
*) fail "stop: the end note does not say the sending stopped after 5 records" "$note" ;;
esac
expect_like stop end status '"ok*'
stop_receiver

# --- disk: a disk boot has no PXE base code to send with -------------------------
# A FAT disk with the app, presets.cfg and a GRUB environment block giving the
# options (boot/efi.c reads tickprobe.env beside the app), and the NIC as above.
D=$OUT/disk.img
rm -f "$D"
{ printf '# GRUB Environment Block\ntp_preset=quick\ntp_timeout=0\ntp_options=slow_rates=off net=http://10.0.2.2:9/log\n'
	head -c 1024 /dev/zero | tr '\0' '#'; } | head -c 1024 >"$OUT/tickprobe.env"
mkfs.fat -C "$D" 4096 >/dev/null && mmd -i "$D" ::EFI ::EFI/BOOT &&
	mcopy -i "$D" "$BUILD/BOOTX64.EFI" image/presets.cfg "$OUT/tickprobe.env" ::EFI/BOOT/
ok "disk: a FAT disk with the app and tp_options=slow_rates=off net=http://10.0.2.2:9/log" $?
t0=$(now_ms)
ovmf 150 disk "" "" -drive if=none,id=d0,format=raw,file="$D" -device virtio-blk-pci,drive=d0,bootindex=0
rc=$?
echo "INFO: boot disk: QEMU exit $rc in $(( $(now_ms) - t0 )) ms"
[ "$rc" -eq 33 ] || [ "$rc" -eq 35 ]
ok "disk: the run ends as usual (QEMU exit 33 or 35)" $? "exit $rc: $(tail -n 2 "$OUT/disk.err" | tr '\n' ' ')"
expect disk begin net null
expect_like disk begin net_problem '"net=http://10.0.2.2:9/log: this boot did not come through PXE*"'

# --- bios: net= has nowhere to go ------------------------------------------------
timeout 60 qemu-system-x86_64 -machine q35 -accel tcg -cpu max -m 256 -display none -monitor none -no-reboot \
	-device "$QEMU_EXIT_DEVICE" -serial file:"$OUT/bios.log" \
	-kernel "$BUILD/tickprobe.elf32" -append "preset=quick slow_rates=off net=http://10.0.2.2:8514/log" >"$OUT/bios.err" 2>&1
rc=$?
[ "$rc" -eq 33 ] || [ "$rc" -eq 35 ]
ok "bios: the run ends as usual (QEMU exit 33 or 35)" $? "exit $rc"
expect bios begin net null
expect bios begin net_problem '"the BIOS path has no network stack (GRUB hands over none): the log goes to serial and the screen only"'
grep -aq "tickprobe: network: the BIOS path has no network stack" "$OUT/bios.log"
ok "bios: the screen text says so too" $?
