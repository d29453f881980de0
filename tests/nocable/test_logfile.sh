#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The log saved on the stick (boot/efi_log.c): OVMF boots a writable copy of
# the image seen as a USB stick, and the log files are read back out of its
# ESP with mtools.  Each file must hold the serial log's record lines byte for
# byte; boots number their files 0000, 0001, ... without touching the older
# ones; an exception ends the file with "failed"; a run killed in the middle
# leaves a file the readers call truncated, its complete records kept.  A
# read-only stick and a CD say why there is no file, and the run goes on (a
# network boot: tests/net/test_uefi_net.sh).
# shellcheck disable=SC2046 # stick prints QEMU's options for a disk, split on purpose
. tests/lib/check.sh
. tests/nocable/lib.sh
OUT=$BUILD/test-nocable/logfile
rm -rf "$OUT" && mkdir -p "$OUT"
need_nocable
S=$OUT/stick.img

# --- the ESP's room ----------------------------------------------------------
free=$(mdir -i "$IMG@@$ESP" :: | awk '/bytes free/ { gsub(/[^0-9]/, ""); print }')
echo "INFO: the image is $(wc -c <"$IMG") bytes; its ESP (offset $ESP) has $free bytes free"

# --- first boot: 0000.log ----------------------------------------------------
copy_image stick quick 0 slow_rates=off # the RTC's rate: not what this tests
qboot first ended $(stick "$S")
first_ms=$ms
checklog first --expect-boot uefi --expect begin.log_file='"\\tickprobe\\logs\\0000.log"' \
	--expect begin.log_file_problem=null --expect begin.secure_boot=false
ended first
logfile "$S" 0000 "$OUT/0000.log"
same_records first "$OUT/0000.log"
show_exit "$OUT/0000.log" 0 first
volume=$(field first begin log_volume)
case $volume in
*TICKPROBE*USB*'loaded from'*) pass "first: begin.log_volume names the volume: $volume" ;;
*) fail "first: begin.log_volume is $volume" ;;
esac
tr -d '\r' <"$OUT/first.log" | grep -aF 'tickprobe: the log is saved as \tickprobe\logs\0000.log on volume "TICKPROBE"' >/dev/null
ok "first: the screen text (on serial too) says where the log went" $?
note=$(tr -d '\r' <"$OUT/first.log" | grep -a 'tickprobe (UEFI): the log is saved as')
[ -n "$note" ]
ok "first: the closing note says where the log went: ${note#tickprobe (UEFI): }" $?
cp "$OUT/0000.log" "$OUT/0000.before"

# --- second boot, the default preset: 0001.log, 0000.log untouched ------------
$NC set-env "$S" default 0 ""
qboot second ended $(stick "$S")
checklog second --expect begin.options.preset='"default"' \
	--expect begin.log_file='"\\tickprobe\\logs\\0001.log"'
ended second
logfile "$S" 0001 "$OUT/0001.log"
same_records second "$OUT/0001.log"
show_exit "$OUT/0001.log" 0 second
logfile "$S" 0000 "$OUT/0000.after"
cmp -s "$OUT/0000.before" "$OUT/0000.after"
ok "second: 0000.log is unchanged" $?
default_bytes=$(wc -c <"$OUT/0001.log")
# 2 KiB clusters (FAT16 from mkfs.fat at this size): a file takes whole ones.
default_on_disk=$(( (default_bytes + 2047) / 2048 * 2048 ))
[ "$free" -ge $(( 100 * default_on_disk )) ]
st=$?
ok "the ESP holds $(( free / default_on_disk )) default-preset logs of $default_bytes bytes ($default_on_disk on disk): at least 100" $st

# --- an exception: the file ends "failed" -----------------------------------
$NC set-env "$S" quick 0 "fault=gp"
qboot fault $QEMU_FAILED $(stick "$S")
checklog fault --expect-status failed --expect begin.log_file='"\\tickprobe\\logs\\0002.log"'
logfile "$S" 0002 "$OUT/0002.log"
same_records fault "$OUT/0002.log"
tail -n 2 "$OUT/0002.log" | grep -q '"type":"exception"' && tail -n 1 "$OUT/0002.log" | grep -q '"status":"failed"'
ok "fault: 0002.log ends with the exception record and the end record, status failed" $?
show_exit "$OUT/0002.log" 0 fault

# --- killed in the middle: truncated, the complete records kept --------------
$NC set-env "$S" default 0 "calib_ms=20 slow_rates=off"
t0=$(now_ms)
# shellcheck disable=SC2086
$QEMU -bios "$OVMF" -serial file:"$OUT/kill.log" $(stick "$S") >"$OUT/kill.err" 2>&1 &
qpid=$!
n=0
while [ $n -lt 1200 ] && kill -0 $qpid 2>/dev/null && ! grep -qa '"type":"timer"' "$OUT/kill.log" 2>/dev/null; do
	sleep 0.1
	n=$((n + 1))
done
kill -KILL $qpid 2>/dev/null
wait $qpid 2>/dev/null
echo "boot kill: killed $(( $(now_ms) - t0 )) ms after start, at the first timer record"
logfile "$S" 0003 "$OUT/0003.log"
$NC records "$OUT/kill.log" "$OUT/kill.rec"
if grep -q '"type":"end"' "$OUT/kill.rec"; then
	fail "kill: the run ended before QEMU was killed: no mid-run kill tested"
fi
$NC prefix --cut "$OUT/0003.log" "$OUT/kill.rec"
st=$?
ok "kill: 0003.log's $(grep -c '^{' "$OUT/0003.log" 2>/dev/null) records are the first of the serial log's $(grep -c . "$OUT/kill.rec")" $st
grep -q '"type":"plan"' "$OUT/0003.log"
ok "kill: 0003.log keeps every record before the measurements (begin ... plan)" $?
show_exit "$OUT/0003.log" 3 kill
grep -q "no end record" "$OUT/0003.log.show-err"
st=$?
ok "kill: tickprobe show calls it cut short: $(grep -m1 "no end record" "$OUT/0003.log.show-err")" $st
if grep -v "no end record" "$OUT/0003.log.show-err" | grep -qi "crc\|damaged"; then
	fail "kill: a record of 0003.log is damaged: $(head -c 300 "$OUT/0003.log.show-err")"
else
	pass "kill: no record of 0003.log is damaged"
fi

# --- the readers on the logs directory ---------------------------------------
mcopy -s -n -i "$S@@$ESP" ::tickprobe "$OUT/copied" 2>/dev/null
"$TP" logs "$OUT/copied/logs" >"$OUT/logs.txt" 2>&1
[ "$(grep -c '\.log\|^ *[0-9]' "$OUT/logs.txt")" -ge 4 ]
st=$?
ok "tickprobe logs lists the 4 files: $(tr '\n' '|' <"$OUT/logs.txt" | head -c 400)" $st
"$TP" show --latest "$OUT/copied/logs" >/dev/null 2>"$OUT/latest.err"
grep -q "0003.log" "$OUT/latest.err"
st=$?
ok "tickprobe show --latest reads 0003.log, the newest: $(head -n 1 "$OUT/latest.err")" $st

# --- log=none: no file; the time the file writes take -------------------------
copy_image nolog quick 0 "slow_rates=off log=none"
qboot nolog ended $(stick "$OUT/nolog.img")
checklog nolog --expect begin.log_file=null \
	--expect begin.log_file_problem='"not asked for (log=none)"'
ended nolog
mdir -i "$OUT/nolog.img@@$ESP" ::tickprobe >/dev/null 2>&1
[ $? -ne 0 ]
ok "nolog: no \\tickprobe directory was made" $?
opening=$(plain "$OUT/first.log" | sed -n 's/.*opening the file took \([0-9]*\) TSC cycles.*/\1/p')
cycles=$(plain "$OUT/first.log" | sed -n 's/.*TSC cycles, file writes \([0-9]*\)).*/\1/p')
hz=$(field first tsc hz)
echo "INFO: in the guest (TSC at $hz Hz), opening the file took" \
	"$(awk -v c="$opening" -v h="$hz" 'BEGIN { printf "%.1f", c / h * 1000 }') ms and writing its" \
	"$(grep -c . "$OUT/0000.log") records ($(wc -c <"$OUT/0000.log") bytes)" \
	"$(awk -v c="$cycles" -v h="$hz" 'BEGIN { printf "%.1f", c / h * 1000 }') ms;" \
	"boot wall time log=file $first_ms ms, log=none $ms ms"

# --- a read-only stick, and a CD: no file, the reason, the run goes on --------
# A boot that could write no log: begin.log_file null, log_file_problem
# matching PATTERN (a case pattern), and the serial line (the screen's text)
# saying so with TEXT.
no_file() { # name, pattern, text
	checklog "$1" --expect-boot uefi --expect begin.log_file=null
	ended "$1"
	problem=$(field "$1" begin log_file_problem)
	# shellcheck disable=SC2254 # $2 is a glob, on purpose
	case $problem in
	$2) pass "$1: begin.log_file_problem: $problem" ;;
	*) fail "$1: begin.log_file_problem is $problem" ;;
	esac
	tr -d '\r' <"$OUT/$1.log" | grep -aq "^tickprobe: no log file: .*$3"
	ok "$1: the serial line (and the screen) say there is no log file, and why" $?
}
copy_image ro quick 0 slow_rates=off
qboot readonly ended $(stick "$OUT/ro.img" readonly)
no_file readonly "*read-only*" "read-only"

qboot cd ended -cdrom "$OUT/ro.img"
no_file cd "*CD boot image*read-only*" "read-only"

# --- a full boot volume: the log goes to the next volume holding \EFI ----------
# The stick keeps 100 KiB free (boot/efi_log.c wants 128 KiB); a second stick
# holds an empty \EFI.
copy_image full quick 0 slow_rates=off
free=$(mdir -i "$OUT/full.img@@$ESP" :: | awk '/bytes free/ { gsub(/[^0-9]/, ""); print }')
head -c $((free - 100 * 1024)) /dev/zero >"$OUT/junk.bin"
mcopy -i "$OUT/full.img@@$ESP" "$OUT/junk.bin" ::junk.bin && rm -f "$OUT/junk.bin"
mkfs.fat -C -n OTHER "$OUT/other.img" 4096 >/dev/null && mmd -i "$OUT/other.img" ::EFI
ok "full: a stick with 100 KiB free, and another holding \\EFI" $?
qboot full ended $(stick "$OUT/full.img") \
	-drive if=none,id=other,format=raw,file="$OUT/other.img" -device usb-storage,drive=other
checklog full --expect begin.log_file='"\\tickprobe\\logs\\0000.log"'
ended full
volume=$(field full begin log_volume)
case $volume in
*OTHER*'not writable'*) pass "full: begin.log_volume: $volume" ;;
*) fail "full: begin.log_volume is $volume" ;;
esac
mtype -i "$OUT/other.img" ::tickprobe/logs/0000.log >"$OUT/other-0000.log" 2>/dev/null
same_records full "$OUT/other-0000.log"
mdir -i "$OUT/full.img@@$ESP" ::tickprobe >/dev/null 2>&1
[ $? -ne 0 ]
ok "full: nothing was written to the full stick" $?

# --- the volume fills up in the middle: the file stops at a whole record ---------
# 10,000 raw costs per counter make records of about 50 KB; 160 KiB free
# passes the check at the start and runs out a few counters later.
copy_image midfull quick 0 "slow_rates=off raw=10000"
free=$(mdir -i "$OUT/midfull.img@@$ESP" :: | awk '/bytes free/ { gsub(/[^0-9]/, ""); print }')
head -c $((free - 160 * 1024)) /dev/zero >"$OUT/junk.bin"
mcopy -i "$OUT/midfull.img@@$ESP" "$OUT/junk.bin" ::junk.bin && rm -f "$OUT/junk.bin"
qboot midfull ended $(stick "$OUT/midfull.img")
checklog midfull --expect begin.log_file='"\\tickprobe\\logs\\0000.log"'
ended midfull
logfile "$OUT/midfull.img" 0000 "$OUT/midfull-0000.log"
$NC records "$OUT/midfull.log" "$OUT/midfull.rec"
$NC prefix "$OUT/midfull-0000.log" "$OUT/midfull.rec" &&
	[ "$(grep -c . "$OUT/midfull-0000.log")" -lt "$(grep -c . "$OUT/midfull.rec")" ]
st=$?
ok "midfull: the file's $(grep -c . "$OUT/midfull-0000.log") records ($(wc -c <"$OUT/midfull-0000.log") bytes) are the first of the serial log's $(grep -c . "$OUT/midfull.rec")" $st
show_exit "$OUT/midfull-0000.log" 3 midfull
note=$(plain "$OUT/midfull.log" | grep -a "stops after")
case $note in
*"the volume is full"*) pass "midfull: the closing note says so: ${note#tickprobe (UEFI): }" ;;
*) fail "midfull: no closing note on the full volume: $note" ;;
esac
