#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# `tickprobe qemu --event` (tools/qemu/events*.c, qmp.c): pauses and live
# migrations during the probe's watch, on a real QEMU under --kernel.
#   - usage errors: bad SPECs, no watch, an event at or after the watch's
#     end, --linux, --menu, too many events;
#   - --dry-run shows the first QEMU's command and a migration
#     destination's, with their sockets, COM2 after COM1, -incoming and the
#     log appended to;
#   - the probe's own run (--icount=2, 2 CPUs, a 10 s watch): the run ends ok,
#     its log whole, the events' lines; the guest's watch_event records: the
#     pause's clocks stood still, nothing moved (vm_events_check.py), as
#     show says; a TSC step of CPU 1 during a migration found at its size;
#   - the host's side against a guest played on the channel's socket
#     (tests/boot/events_qemu.sh, events_guest.py), with the probe running
#     in QEMU: a migration, then two pauses, the second one held back until
#     the first ended, every "done" line and its time, the log whole across
#     the two QEMUs, the guest's bad lines counted; a guest that never
#     answers, given up after 30 s, the watch's end saying what was not
#     sent;
#   - every exit path (the end, --timeout mid-pause after a migration,
#     Ctrl-C) removes the private directory and leaves no QEMU running.
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
OUT=$BUILD/test-events
WRAP=tests/boot/events_qemu.sh
rm -rf "$OUT" && mkdir -p "$OUT"
if [ ! -x "$TP" ] || [ ! -f "$BUILD/tickprobe.elf32" ]; then
	fail "setup: $TP or $BUILD/tickprobe.elf32 missing (make tool kernel)"
	exit 1
fi
command -v qemu-system-x86_64 >/dev/null 2>&1 || { fail "setup: qemu-system-x86_64 not installed (make deps)"; exit 1; }
K="--kernel=$BUILD/tickprobe.elf32"

# The private directory a run used, from the command -v printed.
dir_of() { sed -n 's|.*-qmp unix:\(/tmp/tickprobe-qemu-[A-Za-z0-9]*\)/qmp.sock.*|\1|p' "$1" | head -n 1; }
# The processes whose command line names directory $1 (its last letter in
# brackets: grep's own command line does not match).
left() {
	last=${1#"${1%?}"}
	grep -la "${1%?}[$last]" /proc/[0-9]*/cmdline 2>/dev/null
}
# name err: the directory the run made is gone, and no process names it.
cleaned() {
	d=$(dir_of "$2")
	check "$1: the private directory ($d) is gone" "[ -n '$d' ] && [ ! -e '$d' ]"
	check "$1: no QEMU of the run is left" "[ -n '$d' ] && [ -z \"\$(left '$d')\" ]" "$(left "$d")"
}
# LOG LABEL: one run, its records all there in sequence, ended ok.
log_whole() {
	"$PYTHON3" - "$1" "$2" <<'PY'
import sys
sys.path.insert(0, "tests/lib")
from tplog import read  # the records whose crc holds; a bad one fails the run
path, label = sys.argv[1:3]
log = read(path)
recs = log.records
good = bool(recs) and log.bad == 0
seqs = [r["seq"] for r in recs] if good else []
good = good and seqs == list(range(len(recs))) and [r["type"] for r in recs].count("begin") == 1
good = good and recs[-1]["type"] == "end" and recs[-1]["status"] == "ok" and recs[-1]["records"] == len(recs) - 1
print("%s: %s: one run, %d records in sequence, ended ok" % ("PASS" if good else "FAIL", label, len(recs)))
PY
}

# played MODE NAME tickprobe-qemu-arguments...: $OUT/NAME.{log,err,rec}; sets rc and secs.
played() {
	mode=$1
	name=$2
	shift 2
	t0=$(date +%s)
	EVENTS_MODE=$mode EVENTS_LOG=$OUT/$name.log EVENTS_RECORD=$OUT/$name.rec "$TP" qemu --qemu "$WRAP" "$K" "$@" \
		-q -v -o "$OUT/$name.log" >"$OUT/$name.out" 2>"$OUT/$name.err"
	rc=$?
	secs=$(($(date +%s) - t0))
	touch "$OUT/$name.rec"
}
# Two runs below only wait (a guest that never answers, a pause cut short by
# --timeout; their QEMUs stay stopped): they start now, in the background,
# and are checked where they stand once joined.  played_bg MODE NAME ARGS...:
# played in a subshell ($! is its process); joined PID NAME waits for it and
# sets rc and secs.
played_bg() {
	(
		played "$@"
		echo "$rc $secs" >"$OUT/$2.status"
	) &
}
joined() {
	wait "$1"
	read -r rc secs <"$OUT/$2.status" || { rc=none; secs=none; }
}
# A guest that never answers: given up after 30 s; its watch's end names the
# event not sent.  QEMU stays stopped (-S) and is ended by the played guest.
played_bg silent silent --preset quick --options "watch=60" --event pause=1s@0 --event pause=1s@40s --timeout 120
silent_pid=$!
# --timeout during a pause, after a migration: the new QEMU, stopped, is killed.
played_bg now late --preset quick --options "slow_rates=off watch=60" --event migrate@0 --event pause=60s@0.5s \
	--timeout 20
late_pid=$!

# ---- usage errors: exit 1, one line that says why ---------------------------
usage() { # name, the text the message holds, arguments...
	name=$1
	# shellcheck disable=SC2034 # read by the check's eval below
	want=$2
	shift 2
	"$TP" qemu "$@" -n >"$OUT/usage.out" 2>"$OUT/usage.err"
	rc=$?
	check "usage: $name: exit 1, said so" "[ $rc = 1 ] && grep -qF -- \"\$want\" '$OUT/usage.err'" \
		"exit $rc: $(cat "$OUT/usage.err")"
}
usage "no watch" "--event needs a watch" "$K" --preset quick --event pause=1s@1
usage "AT at the watch's end" "AT must come before the watch's end, 6 s" "$K" --preset quick --options watch=6 \
	--event migrate@6
usage "AT in minutes past the preset watch's 10 m" "AT must come before the watch's end, 600 s" "$K" \
	--preset watch --event pause=1s@10m
for spec in pause=1s pause=x@1 pause=50ms@1 pause=2h@1 migrate@25h stop@1 migrate@1x pause=1.2345s@1 \
	migrate=1s@1 "pause=1s@ 1" migrate@-1; do
	usage "bad SPEC '$spec'" "--event " "$K" --preset quick --options watch=6 --event "$spec"
done
usage "--linux" "not with --linux or --menu" --linux --event migrate@1
usage "--menu" "not with --linux or --menu" --menu --event migrate@1
usage "9 events" "at most 8 events" "$K" --options watch=60 --event migrate@1 --event migrate@2 --event migrate@3 \
	--event migrate@4 --event migrate@5 --event migrate@6 --event migrate@7 --event migrate@8 --event migrate@9

# ---- --dry-run: both commands --------------------------------------------------
"$TP" qemu "$K" --preset quick --options watch=6 --event pause=1s@1 --event migrate@2 -n -o "$OUT/dry.log" \
	>"$OUT/dry.out" 2>"$OUT/dry.err"
ok "dry run: exit 0" $? "$(cat "$OUT/dry.err")"
check "dry run: two commands, the first QEMU's and a migration's destination's" \
	"[ \$(wc -l <'$OUT/dry.out') = 2 ]" "$(cat "$OUT/dry.out")"
D=/tmp/tickprobe-qemu-XXXXXX
first=$(sed -n 1p "$OUT/dry.out")
second=$(sed -n 2p "$OUT/dry.out")
check "dry run: the probe gets events=0x2f8" "printf '%s' '$first' | grep -qF 'watch=6 events=0x2f8 -chardev'"
check "dry run: QMP and the channel in the private directory, COM2 after COM1" \
	"printf '%s' '$first' | grep -qF -- '-serial chardev:ser0 -qmp unix:$D/qmp.sock,server=on,wait=off -chardev socket,id=events,path=$D/events.sock,server=on,wait=off -serial chardev:events'"
check "dry run: the destination has its own sockets, appends to the log, restores from the state file" \
	"printf '%s' '$second' | grep -qF -- 'path=$OUT/dry.log,append=on -serial chardev:ser0 -qmp unix:$D/qmp2.sock,' &&
	 printf '%s' '$second' | grep -qF -- 'path=$D/events2.sock,' &&
	 printf '%s' '$second' | grep -q -- '-incoming exec:cat $D/state\$'"
check "dry run: no destination without a migration" \
	"[ \$(\"$TP\" qemu \"$K\" --preset quick --options watch=6 --event pause=1s@1 -n | wc -l) = 1 ]"

# ---- the probe's own run: --icount=2, 2 CPUs, a 10 s watch ----------------------
# The host times the events from the watch's start on its own clock, and at
# 4 ns an instruction the guest's clocks run ahead of it: 10 s of watch leave
# the migration time to be done before the watch ends on a faster host too.
# The guest's clocks run on from the host's announcing the pause to QEMU's
# stop, a delay a loaded host makes longer; "stood still" is under a tenth of
# the pause, so the pause is a long one: a stopped QEMU costs no CPU.
"$TP" qemu "$K" --icount=2 --smp 2 --preset quick --options "slow_rates=off watch=10" --event pause=5s@1s \
	--event migrate@7s --timeout 300 -q -v -o "$OUT/real.log" >"$OUT/real.out" 2>"$OUT/real.err"
ok "probe: the run ends ok" $? "$(tail -n 3 "$OUT/real.err")"
log_whole "$OUT/real.log" "probe"
cleaned "probe" "$OUT/real.err"
check "probe: event 1's line" "grep -q '^tickprobe qemu: event 1: pause for 5.0 s at [0-9.]* s of the watch: stop to cont [0-9.]* s\$' '$OUT/real.err'" \
	"$(grep 'event 1' "$OUT/real.err")"
check "probe: event 2's line" "grep -q '^tickprobe qemu: event 2: migrate at [0-9.]* s of the watch: [0-9.]* MB of state, [0-9.]* s to the new QEMU running (migration [0-9.]* s, [0-9]* ms of downtime, then [0-9.]* s to restore)\$' '$OUT/real.err'" \
	"$(grep 'event 2' "$OUT/real.err")"
check "probe: no event said not done" "! grep -q 'not done' '$OUT/real.err'" "$(grep 'not done' "$OUT/real.err")"
# The guest's side (probe/watch_event.c): under -icount every clock of the
# guest runs off QEMU's virtual clock, which stops while the VM is stopped
# and travels with a migration, so across the pause the clocks stand still
# and across either event nothing moves.
"$PYTHON3" tests/method/vm_events_check.py "$OUT/real.log" 1 pause 5 still 0
"$PYTHON3" tests/method/vm_events_check.py "$OUT/real.log" 2 migrate 0 any 0
"$TP" show "$OUT/real.log" >"$OUT/real.txt" 2>&1
check "probe: show says the pause's clocks stood still and nothing moved" \
	"grep -q 'pause (event 1) at .*they stood still while it lasted.*; nothing moved: no clock jumped against the others or went back, and every CPU.s TSC kept its offset' '$OUT/real.txt'" \
	"$(grep -A1 'VM events' "$OUT/real.txt")"
check "probe: show says the migration moved nothing" "grep -q 'migrate (event 2) at .*nothing moved' '$OUT/real.txt'" \
	"$(grep 'migrate' "$OUT/real.txt")"
check "probe: show says where the host's line was listened on, 2 events, no bad line" \
	"grep -q 'VM events: the host.s line at port 0x2f8, 2 event(s); 0 line(s) not understood, 0 out of turn' '$OUT/real.txt'" \
	"$(grep 'VM events' "$OUT/real.txt")"

# A known answer: CPU 1's TSC stepped back 50000 cycles while a migration
# goes on must be found on that CPU at that size, and no clock blamed.
"$TP" qemu "$K" --icount=2 --smp 2 --preset quick --options "slow_rates=off watch=10 fault=tsc_step:1:-50000@event" \
	--event migrate@1s --timeout 300 -q -o "$OUT/stepped.log" >"$OUT/stepped.out" 2>&1
ok "stepped: the run ends ok" $? "$(tail -n 3 "$OUT/stepped.out")"
"$PYTHON3" tests/method/vm_events_check.py "$OUT/stepped.log" 1 migrate 0 any 1 1 -50000
"$TP" show "$OUT/stepped.log" >"$OUT/stepped.txt" 2>&1
check "stepped: show says CPU 1's TSC moved -50000 cycles across the migration" \
	"grep -Eq 'migrate \(event 1\) at .*CPU 1.s TSC moved -500(0[0-9]|1[0-9]) cycles' '$OUT/stepped.txt'" \
	"$(grep 'migrate' "$OUT/stepped.txt")"

# --timeout 5: killed before the watch, the directory removed all the same.
"$TP" qemu "$K" --icount --preset quick --options "slow_rates=off watch=6" --event pause=1s@1s --timeout 5 -q -v \
	-o "$OUT/timeout.log" >"$OUT/timeout.out" 2>"$OUT/timeout.err"
rc=$?
check "--timeout 5: exit 12, timed out" "[ $rc = 12 ] && grep -q 'timed out after 5 s' '$OUT/timeout.err'" \
	"exit $rc: $(tail -n 2 "$OUT/timeout.err")"
cleaned "--timeout 5" "$OUT/timeout.err"

# ---- the host's side, against a guest played on the channel --------------------
# A migration, then two pauses, the second due while the first goes on.
played first moves --icount --preset quick --options "slow_rates=off watch=6" --event pause=500ms@2.5s \
	--event migrate@1s --event pause=1s@2s --timeout 300
ok "played: the run ends ok" $rc "$(tail -n 3 "$OUT/moves.err")"
log_whole "$OUT/moves.log" "played: across the migration,"
cleaned "played" "$OUT/moves.err"
"$PYTHON3" - "$OUT/moves.rec" "$OUT/moves.err" <<'PY'
import re, sys
rec = [l.rstrip("\n") for l in open(sys.argv[1])]
err = open(sys.argv[2]).read()
def ok(c, m):
    print(("PASS: " if c else "FAIL: ") + "played: " + m)
shape = [re.sub(r" [0-9.]+$", " T", l) for l in rec]
ok(shape == ["first: event 1 migrate", "restored: done 1 T", "restored: event 2 pause", "restored: done 2 T",
             "restored: event 3 pause", "restored: done 3 T"],
   "the guest is told of each event in AT order, and that it is done, the new QEMU's guest after the migration: %s" % rec)
done = {}
for l in rec:
    m = re.match(r"\w+: done (\d) (\d+\.\d{6})$", l)
    if m:
        done[int(m.group(1))] = float(m.group(2))
ok(len(done) == 3, "every done line has its seconds as %.6f")
m = re.search(r"^tickprobe qemu: event 1: migrate at ([0-9.]+) s of the watch: ([0-9.]+) MB of state, ([0-9.]+) s to the "
              r"new QEMU running \(migration ([0-9.]+) s, ([0-9]+) ms of downtime, then ([0-9.]+) s to restore\)$", err, re.M)
ok(m and float(m.group(2)) > 0 and abs(float(m.group(3)) - done.get(1, -9)) < 0.006
   and abs(float(m.group(4)) + float(m.group(6)) - float(m.group(3))) < 0.015,
   "event 1's line: the state's size, the time the guest was told, its two parts (%s)" % (m.group(0) if m else None))
for i, d in ((2, 1.0), (3, 0.5)):
    m = re.search(r"^tickprobe qemu: event %d: pause for %.1f s at [0-9.]+ s of the watch: stop to cont ([0-9.]+) s$" % (i, d), err, re.M)
    took = done.get(i, -9)
    ok(m and abs(float(m.group(1)) - took) < 0.0006 and d <= took < d + 1.0,
       "event %d's line: stop to cont %s s, told the guest as %s s, a %.1f s pause" % (i, m and m.group(1), took, d))
ok(re.search(r"^tickprobe qemu: event 3 \(pause\) starts at [0-9.]+ s of the watch, not 2\.5 s: event 2 went on until then$", err, re.M),
   "event 3, due during event 2, waited for it and says so")
ok(re.search(r"^tickprobe qemu: --event pause=500ms@2\.5s comes while the pause before it goes on", err, re.M),
   "the overlap is said before the run")
ok("tickprobe qemu: 3 lines from the guest on the event channel ignored" in err, "the guest's 3 bad lines counted")
ok("not done" not in err and "not sent" not in err, "every event done")
PY

# The guest that never answers (started at the top).
joined "$silent_pid" silent
check "silent guest: the run ends within 60 s" "[ $secs -lt 60 ]" "$secs s"
check "silent guest: given up after 30 s" \
	"grep -qx 'tickprobe qemu: event 1 (pause) not done: the guest did not answer in 30 s (does the probe listen? events=0x2f8)' '$OUT/silent.err'" \
	"$(grep event "$OUT/silent.err")"
check "silent guest: the watch's end says what was not sent" \
	"grep -qx 'tickprobe qemu: event 2 (pause at 40.0 s) not sent: the watch ended first' '$OUT/silent.err'"
check "silent guest: its late ready counted as out of turn" \
	"grep -q '^tickprobe qemu: 1 line from the guest on the event channel ignored' '$OUT/silent.err'"
check "silent guest: told of event 1 only, never done" "[ \"\$(cat '$OUT/silent.rec')\" = 'silent: event 1 pause' ]" \
	"$(cat "$OUT/silent.rec")"
cleaned "silent guest" "$OUT/silent.err"

# --timeout during a pause, after a migration (started at the top).
joined "$late_pid" late
check "timeout mid-pause: exit 12, timed out" "[ $rc = 12 ] && grep -q 'timed out after 20 s' '$OUT/late.err'" \
	"exit $rc: $(tail -n 2 "$OUT/late.err")"
check "timeout mid-pause: the migration was done first" "grep -q '^tickprobe qemu: event 1: migrate at' '$OUT/late.err'" \
	"$(grep event "$OUT/late.err")"
check "timeout mid-pause: the pause said not done" \
	"grep -qx 'tickprobe qemu: event 2 (pause) not done: QEMU ended while it went on' '$OUT/late.err'"
cleaned "timeout mid-pause" "$OUT/late.err"

# Ctrl-C (SIGINT) during a pause.
EVENTS_MODE=now EVENTS_LOG=$OUT/int.log EVENTS_RECORD=$OUT/int.rec "$TP" qemu --qemu "$WRAP" "$K" --preset quick \
	--options "slow_rates=off watch=60" --event pause=60s@0 --timeout 60 -q -v -o "$OUT/int.log" \
	>"$OUT/int.out" 2>"$OUT/int.err" &
tp=$!
i=0
while [ $i -lt 200 ] && ! grep -q '^now: event 1 pause' "$OUT/int.rec" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
kill -INT $tp
wait $tp
rc=$?
check "Ctrl-C mid-pause: exit 12, interrupted" "[ $rc = 12 ] && grep -q 'interrupted, QEMU stopped' '$OUT/int.err'" \
	"exit $rc: $(tail -n 2 "$OUT/int.err")"
cleaned "Ctrl-C mid-pause" "$OUT/int.err"
