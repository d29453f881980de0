#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# runs=N on UEFI (boot/efi_after.c, probe/series.c): OVMF boots a writable
# copy of the image as a USB stick with runs=3 after=poweroff.  Each boot
# writes its own log, keeps the count in \tickprobe\series and resets; the
# firmware boots the stick again, and after the third QEMU powers off by
# itself: 0000.log to 0002.log, one series, two QMP RESET events, then
# SHUTDOWN.  A second stick gets fault=gp for its second boot (the options
# are changed between two QEMU runs, -no-reboot making each reset an exit):
# that boot ends failed, the series stops there, the file says why, and
# after= applies.
# shellcheck disable=SC2046 # stick prints QEMU's options for a disk, split on purpose
. tests/lib/check.sh
. tests/nocable/lib.sh
OUT=$BUILD/test-remote/series
rm -rf "$OUT" && mkdir -p "$OUT"
need_nocable
# QEMU itself, not `tickprobe qemu`: a USB stick, and QMP to tell the resets.
WATCH="python3 tests/remote/qemuwatch.py"
BASE="qemu-system-x86_64 -machine q35 -accel tcg -cpu max -m 256 -nic none -monitor none -display none
 -device $QEMU_EXIT_DEVICE -bios $OVMF"
OPTS="counters=tsc smp=off"

# watch NAME TIMEOUT QEMU-ARGS...: as in test_after.sh.
watch() {
	name=$1 limit=$2
	shift 2
	t0=$(now_ms)
	# shellcheck disable=SC2086
	$WATCH "$limit" "$OUT/$name.log" -- $BASE "$@" >"$OUT/$name.watch" 2>&1
	wrc=$?
	echo "boot $name: $(tr '\n' ' ' <"$OUT/$name.watch")in $(( $(now_ms) - t0 )) ms"
}

# begin_series FILE: begin.series of a log file, as compact JSON; end_of FILE:
# its end record's status, after, series and series_stopped.  The records
# whose crc holds (tests/lib/tplog.py).
begin_series() {
	python3 -c 'import json,sys
sys.path.insert(0, "tests/lib")
from tplog import read
for r in read(sys.argv[1]).of("begin"):
    print(json.dumps(r.get("series"), separators=(",", ":")))' "$1"
}
end_of() {
	python3 -c 'import sys
sys.path.insert(0, "tests/lib")
from tplog import read
for r in read(sys.argv[1]).of("end"):
    print(r["status"], r.get("after"), r.get("series"), r.get("series_stopped", ""))' "$1"
}

# --- runs=3: three boots in one QEMU, then power off ------------------------------
copy_image three quick 0 "$OPTS runs=3 after=poweroff"
watch three 600 $(stick "$OUT/three.img")
[ "$wrc" -eq 0 ] && [ "$(grep -c '^event RESET guest-reset$' "$OUT/three.watch")" -eq 2 ] &&
	[ "$(tail -n 2 "$OUT/three.watch" | head -n 1)" = "event SHUTDOWN guest-shutdown" ]
ok "three: two resets, then QEMU powered off by itself" $? "$(tr '\n' ' ' <"$OUT/three.watch")"
mdir -b -i "$OUT/three.img@@$ESP" ::tickprobe/logs >"$OUT/three.dir" 2>&1
[ "$(grep -c '\.log$' "$OUT/three.dir")" -eq 3 ]
ok "three: exactly 0000.log, 0001.log, 0002.log on the stick" $? "$(tr '\n' ' ' <"$OUT/three.dir")"
id=
for i in 0 1 2; do
	logfile "$OUT/three.img" 000$i "$OUT/three-000$i.log"
	s=$(begin_series "$OUT/three-000$i.log")
	[ -z "$id" ] && id=$(echo "$s" | sed 's/.*"id":"\([^"]*\)".*/\1/')
	[ "$s" = "{\"id\":\"$id\",\"index\":$((i + 1)),\"of\":3}" ]
	ok "three: 000$i.log is boot $((i + 1)) of 3 of series $id" $? "begin.series $s"
	e=$(end_of "$OUT/three-000$i.log")
	case $i in 2) want="poweroff done" ;; *) want="reboot continues" ;; esac
	case $e in ok*" $want "*) true ;; *) false ;; esac
	ok "three: 000$i.log ends '$want'" $? "end: $e"
done
mtype -i "$OUT/three.img@@$ESP" ::tickprobe/series >"$OUT/three.series" 2>&1
grep -qx 'state=done' "$OUT/three.series" && grep -qx 'ended=3' "$OUT/three.series" && grep -qx "id=$id" "$OUT/three.series"
ok "three: \\tickprobe\\series says done, 3 of 3" $? "$(tr '\n' ' ' <"$OUT/three.series")"
mkdir -p "$OUT/sticklogs" && cp "$OUT"/three-000?.log "$OUT/sticklogs/"
"$TP" logs "$OUT/sticklogs" >"$OUT/three.logs" 2>&1
grep -q "^series $id: 3 of 3 boots here (three-0000.log three-0001.log three-0002.log), the last done" "$OUT/three.logs"
ok "three: tickprobe logs groups the three logs into one series" $? "$(tail -n 2 "$OUT/three.logs")"
"$TP" compare "$OUT"/three-000?.log >"$OUT/three.compare" 2>&1
ok "three: tickprobe compare reads the series' three logs" $? "$(tail -n 3 "$OUT/three.compare")"

# --- a boot that fails stops the series --------------------------------------------
BASE="$BASE -no-reboot"
copy_image gp quick 0 "$OPTS runs=3 after=poweroff"
watch gp-1 300 $(stick "$OUT/gp.img")
grep -qx 'event SHUTDOWN guest-reset' "$OUT/gp-1.watch"
ok "gp: boot 1 of 3 reset for the next boot" $? "$(tr '\n' ' ' <"$OUT/gp-1.watch")"
$NC set-env "$OUT/gp.img" quick 0 "$OPTS runs=3 after=poweroff fault=gp"
watch gp-2 300 $(stick "$OUT/gp.img")
grep -qx 'event SHUTDOWN guest-shutdown' "$OUT/gp-2.watch"
ok "gp: boot 2 failed, and after=poweroff applied" $? "$(tr '\n' ' ' <"$OUT/gp-2.watch")"
logfile "$OUT/gp.img" 0001 "$OUT/gp-0001.log"
e=$(end_of "$OUT/gp-0001.log")
[ "$e" = "failed poweroff stopped boot 2 of 3 ended failed" ]
ok "gp: 0001.log ends failed, the series stopped, and says why" $? "end: $e"
mtype -i "$OUT/gp.img@@$ESP" ::tickprobe/series >"$OUT/gp.series" 2>&1
grep -qx 'state=stopped' "$OUT/gp.series" && grep -qx 'why=boot 2 of 3 ended failed' "$OUT/gp.series"
ok "gp: \\tickprobe\\series says stopped and why" $? "$(tr '\n' ' ' <"$OUT/gp.series")"
[ "$(mdir -b -i "$OUT/gp.img@@$ESP" ::tickprobe/logs 2>/dev/null | grep -c '\.log$')" -eq 2 ]
ok "gp: no third log" $?
