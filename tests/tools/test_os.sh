#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe os: restores the clocksource on signals and errors (fake sysfs
# trees, where current_clocksource is a plain file), writes a complete log on
# this machine, and never writes current_clocksource without --switch.
# The real machine's clocksource is never switched here.
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
T=$(mktemp -d /tmp/tickprobe-test-os.XXXXXX)
trap 'rm -rf "$T"' EXIT
CSDIR=sys/devices/system/clocksource/clocksource0
RECORD=run/tickprobe/clocksource.restore


# fake NAME AVAILABLE CURRENT: a fake root in $T/NAME
fake() {
	mkdir -p "$T/$1/$CSDIR"
	printf '%s\n' "$2" >"$T/$1/$CSDIR/available_clocksource"
	printf '%s\n' "$3" >"$T/$1/$CSDIR/current_clocksource"
}
current() { cat "$T/$1/$CSDIR/current_clocksource"; }
# signum NAME: the signal's number on Linux x86-64 (dash's kill -l takes no name)
signum() {
	case $1 in
	HUP) echo 1 ;; INT) echo 2 ;; QUIT) echo 3 ;; KILL) echo 9 ;; USR1) echo 10 ;; USR2) echo 12 ;;
	ALRM) echo 14 ;; TERM) echo 15 ;; XCPU) echo 24 ;; VTALRM) echo 26 ;; PROF) echo 27 ;;
	esac
}

# The log checker: every record's crc, seq order, the end record's count and
# crc32, unique names.  Prints "ok" or what is wrong.

if [ ! -x "$TP" ]; then
	fail "build" "$TP missing"
	exit 1
fi

# --- (a) restore on signals and on errors, as root, on fake trees ----------
# A script's background job starts with SIGINT ignored (and tickprobe leaves
# an ignored SIGINT alone), so the run is started with SIGINT at default.
# "$PYTHON3", not the python3 function of check.sh: a function run with & is
# a subshell, and $! would be that shell, not tickprobe.
run_bg() { # log err args...
	log=$1 err=$2
	shift 2
	"$PYTHON3" tests/tools/sigint_default.py "$TP" os "$@" -o "$log" 2>"$err" &
	PID=$!
}

# read_cs NAME: the fake current_clocksource into now_cs.  The shell's own
# read, not $(current): the waits below poll it, and a fork per poll was
# much of this test's CPU time.
read_cs() {
	read -r now_cs <"$T/$1/$CSDIR/current_clocksource"
}
# still NAME VALUE: the fake current_clocksource still reads VALUE.
still() {
	read_cs "$1" && [ "$now_cs" = "$2" ]
}
# switched NAME: the fake current_clocksource names a clocksource other than
# tsc.  An empty read is not a switch: the fake is a plain file, which the
# run truncates before it writes the name, and a kill in that gap would leave
# a state no kernel's sysfs can be in.
switched() {
	read_cs "$1" && [ -n "$now_cs" ] && [ "$now_cs" != tsc ]
}
# wait_switch NAME: until switched (10 s at most; the run measures seconds
# after its switch, so 50 ms is soon enough).
wait_switch() {
	i=0
	while ! switched "$1" && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	switched "$1"
}

if [ "$(id -u)" -ne 0 ]; then
	skip "signal and error restore tests need root (--switch refuses otherwise)"
	fake noroot "tsc hpet" tsc
	"$TP" os --switch --sysfs-root "$T/noroot" -o "$T/noroot.log" 2>"$T/noroot.err"
	rc=$?
	ok "os --switch without root exits 1" "$([ $rc -eq 1 ] && grep -q 'needs root' "$T/noroot.err"; echo $?)" "exit $rc"
else
	# Every signal that ends a process by default restores (signal(7)'s
	# Term and Core; the unit test test_cs_run sends the real-time ones
	# too), removes the restore record, and the process still dies of it.
	# QUIT's core file is not wanted here.  --clocksource hpet, here and in
	# the SIGKILL cases below: the switch comes first, not after a whole
	# measurement of tsc, and the signal lands while hpet is measured.
	# shellcheck disable=SC3045 # dash, Debian's sh, has ulimit -c
	ulimit -c 0
	for sig in INT TERM HUP QUIT USR1 USR2 ALRM XCPU VTALRM PROF; do
		fake "sig$sig" "tsc hpet acpi_pm" tsc
		run_bg "$T/sig$sig.log" "$T/sig$sig.err" --switch --clocksource hpet --sysfs-root "$T/sig$sig"
		if wait_switch "sig$sig"; then
			kill -$sig $PID
			wait $PID
			rc=$?
			want=$((128 + $(signum $sig)))
			ok "SIG$sig mid-run: the process dies of the signal" "$([ $rc -eq $want ]; echo $?)" "exit $rc, want $want"
			ok "SIG$sig mid-run: the original clocksource is back, the restore record gone" \
				"$([ "$(current "sig$sig")" = tsc ] && [ ! -e "$T/sig$sig/$RECORD" ]; echo $?)" \
				"current_clocksource reads '$(current "sig$sig")'; $(ls "$T/sig$sig/run/tickprobe" | tr '\n' ' ')"
			ok "SIG$sig mid-run: stderr reports the interruption and the restore" \
				"$(grep -q "interrupted by SIG$sig; clocksource restored to 'tsc'" "$T/sig$sig.err"; echo $?)" \
				"$(tail -1 "$T/sig$sig.err")"
			r=$(python3 tests/tools/os_logcheck.py "$T/sig$sig.log" partial)
			ok "SIG$sig mid-run: the records written are intact" "$([ "$r" = ok ]; echo $?)" "$r"
			ok "SIG$sig mid-run: the log has no end record" "$(! grep -q '"type":"end"' "$T/sig$sig.log"; echo $?)" \
				"an end record was written"
		else
			kill $PID 2>/dev/null
			wait $PID
			fail "SIG$sig mid-run" "the fake clocksource was never switched"
		fi
	done

	# An error after a switch: the log file hits RLIMIT_FSIZE.  hpet comes
	# first, so the switch happens before the first clocksource record; the
	# limit lets the records before it through (sizes from a reference run).
	if command -v prlimit >/dev/null 2>&1; then
		fake ref "hpet acpi_pm tsc" tsc
		"$TP" os --quick --switch --sysfs-root "$T/ref" -o "$T/ref.log" 2>"$T/ref.err"
		rc=$?
		r=$(python3 tests/tools/os_logcheck.py "$T/ref.log")
		ok "--switch on a fake tree: complete log, original back" \
			"$([ $rc -eq 0 ] && [ "$r" = ok ] && [ "$(current ref)" = tsc ]; echo $?)" "exit $rc, log $r, current $(current ref)"
		limit=$(python3 tests/tools/os_limit.py "$T/ref.log")
		fake efbig "hpet acpi_pm tsc" tsc
		prlimit --fsize="$limit" "$TP" os --quick --switch --sysfs-root "$T/efbig" -o "$T/efbig.log" 2>"$T/efbig.err"
		rc=$?
		ok "log write error after a switch: exit 1" "$([ $rc -eq 1 ]; echo $?)" "exit $rc"
		ok "log write error after a switch: says why and restores" \
			"$(grep -q 'cannot write the log' "$T/efbig.err" && grep -q 'clocksource restored' "$T/efbig.err"; echo $?)" \
			"$(tail -2 "$T/efbig.err" | tr '\n' ' ')"
		ok "log write error after a switch: the original clocksource is back" "$([ "$(current efbig)" = tsc ]; echo $?)" \
			"current_clocksource reads '$(current efbig)'"
	else
		skip "prlimit missing: no RLIMIT_FSIZE error-path test"
	fi

	# The original withdrawn during the run: tsc-early, replaced by tsc once
	# the kernel has calibrated it (seen on Debian's kernel under TCG).  The
	# fake tree's available list is rewritten after the first switch, as
	# the kernel rewrites it; the run (not --quick: about a second per
	# clocksource) is still measuring then.  The system must be left as the
	# kernel would have it (tsc), said once, with exit 0.
	fake early "tsc-early hpet acpi_pm" tsc-early
	"$PYTHON3" tests/tools/sigint_default.py "$TP" os --switch --sysfs-root "$T/early" -o "$T/early.log" 2>"$T/early.err" &
	PID=$!
	i=0
	while still early tsc-early && [ $i -lt 600 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	printf '%s\n' "tsc hpet acpi_pm" >"$T/early/$CSDIR/available_clocksource"
	wait $PID
	rc=$?
	ok "tsc-early withdrawn mid-run: exit 0" "$([ $rc -eq 0 ]; echo $?)" "exit $rc: $(tail -2 "$T/early.err" | tr '\n' ' ')"
	ok "tsc-early withdrawn mid-run: the kernel's successor tsc is left in use" "$([ "$(current early)" = tsc ]; echo $?)" \
		"current_clocksource reads '$(current early)'"
	n=$(grep -c "can no longer be selected" "$T/early.err")
	ok "tsc-early withdrawn mid-run: said once, no restore failure" \
		"$([ "$n" -eq 1 ] && ! grep -q "could not restore" "$T/early.err"; echo $?)" "said $n times: $(grep -i restore "$T/early.err" | tr '\n' '|')"
	r=$(python3 tests/tools/os_early.py "$T/early.log")
	ok "tsc-early withdrawn mid-run: restore record (now tsc) and tsc measured once it appeared" \
		"$([ "$r" = ok ]; echo $?)" "$r"

	# SIGKILL cannot be caught: the restore record written before the first
	# switch says what to put back.  `os --restore` does, and says so; a
	# second --restore has nothing to do; a run without --switch notes a
	# record it finds.
	fake kill "tsc hpet acpi_pm" tsc
	run_bg "$T/kill.log" "$T/kill.err" --switch --clocksource hpet --sysfs-root "$T/kill"
	if wait_switch kill; then
		kill -KILL $PID
		{ wait $PID; } 2>/dev/null
		left=$(current kill)
		ok "SIGKILL mid-run: the restore record is there, naming tsc and the killed process" \
			"$(grep -qx "original tsc" "$T/kill/$RECORD" && grep -qx "pid $PID" "$T/kill/$RECORD"; echo $?)" \
			"$(tr '\n' ' ' <"$T/kill/$RECORD" 2>&1)"
		"$TP" os --quick --sysfs-root "$T/kill" -o "$T/kill-look.log" 2>"$T/kill-look.err"
		ok "SIGKILL: a run without --switch says the clocksource in use is not the system's, and what to run" \
			"$(grep -q "process $PID switched the clocksource and ended without putting 'tsc' back.*tickprobe os --restore" \
				"$T/kill-look.err" && grep -q '"clocksource_problem":"process '"$PID"' switched' "$T/kill-look.log"; echo $?)" \
			"$(grep note "$T/kill-look.err")"
		"$TP" os --restore --sysfs-root "$T/kill" >"$T/restore.out" 2>"$T/restore.err"
		rc=$?
		ok "os --restore after SIGKILL: exit 0, tsc back, the record gone, said" \
			"$([ $rc -eq 0 ] && [ "$(current kill)" = tsc ] && [ ! -e "$T/kill/$RECORD" ] &&
				grep -q "restore record: process $PID switched the clocksource and ended without putting it back (killed?); '$left' was in use; 'tsc' is back" "$T/restore.err"; echo $?)" \
			"exit $rc: $(cat "$T/restore.err")"
		"$TP" os --restore --sysfs-root "$T/kill" >"$T/restore2.out" 2>"$T/restore2.err"
		rc=$?
		ok "os --restore with nothing to restore: exit 0, says so" \
			"$([ $rc -eq 0 ] && grep -q 'nothing to restore' "$T/restore2.err"; echo $?)" "exit $rc: $(cat "$T/restore2.err")"
	else
		kill $PID 2>/dev/null
		{ wait $PID; } 2>/dev/null
		fail "SIGKILL mid-run" "the fake clocksource was never switched"
	fi

	# A stale record found by the next --switch: restored first, said, and the
	# run measures from the true original.
	run_bg "$T/kill2.log" "$T/kill2.err" --switch --clocksource hpet --sysfs-root "$T/kill"
	if wait_switch kill; then
		kill -KILL $PID
		{ wait $PID; } 2>/dev/null
		"$TP" os --quick --switch --sysfs-root "$T/kill" -o "$T/after-kill.log" 2>"$T/after-kill.err"
		rc=$?
		ok "--switch after a SIGKILLed one: restores first and says so, then runs from tsc" \
			"$([ $rc -eq 0 ] && grep -q "restore record: process $PID switched the clocksource and ended without putting it back" "$T/after-kill.err" &&
				grep -q '"current_clocksource":"tsc"' "$T/after-kill.log" && [ "$(current kill)" = tsc ] &&
				[ ! -e "$T/kill/$RECORD" ]; echo $?)" \
			"exit $rc: $(grep 'restore record' "$T/after-kill.err"); current $(current kill)"
	else
		kill $PID 2>/dev/null
		{ wait $PID; } 2>/dev/null
		fail "a stale record" "the fake clocksource was never switched"
	fi

	# Two switchers, and the doctor, at once: the lock makes the later ones
	# wait (and say so), so each starts from tsc and tsc is left.  Without
	# it the second took the first's hpet for the original.  One that will
	# not wait (--lock-wait 0) is refused, and changes nothing.
	fake two "tsc hpet acpi_pm" tsc
	: >"$T/empty-klog"
	run_bg "$T/two-a.log" "$T/two-a.err" --switch --sysfs-root "$T/two"
	A=$PID
	if wait_switch two; then
		"$TP" os --quick --switch --lock-wait 0 --sysfs-root "$T/two" -o "$T/two-c.log" 2>"$T/two-c.err"
		rc=$?
		ok "a second switcher with --lock-wait 0: exit 1, names the holder, writes no log" \
			"$([ $rc -eq 1 ] && grep -q "process $A is switching clocksources.*gave up after 0 s" "$T/two-c.err" &&
				[ ! -s "$T/two-c.log" ]; echo $?)" "exit $rc: $(cat "$T/two-c.err")"
		"$TP" os --quick --switch --lock-wait 120 --sysfs-root "$T/two" -o "$T/two-b.log" 2>"$T/two-b.err" &
		B=$!
		"$TP" doctor --json --sysfs "$T/two" --kernel-log "$T/empty-klog" >"$T/two-d.json" 2>"$T/two-d.err" &
		D=$!
		wait $A
		rca=$?
		wait $B
		rcb=$?
		wait $D
		rcd=$?
		ok "two switchers: both exit 0; the second waited for the first and said so" \
			"$([ $rca -eq 0 ] && [ $rcb -eq 0 ] && grep -q "process $A is switching clocksources.*waiting up to 120 s" "$T/two-b.err"; echo $?)" \
			"exits $rca $rcb: $(grep -i 'switching' "$T/two-b.err")"
		ok "two switchers: the second's original is tsc (not the first's choice), and tsc is left" \
			"$(grep -q '"current_clocksource":"tsc"' "$T/two-b.log" && [ "$(current two)" = tsc ] && [ ! -e "$T/two/$RECORD" ]; echo $?)" \
			"$(grep -o '"current_clocksource":"[^"]*"' "$T/two-b.log"); current $(current two)"
		ok "doctor (root) with --sysfs: its measurement waited for the lock in the tree's run/, said so, and measured it" \
			"$([ $rcd -ne 2 ] && [ $rcd -ne 1 ] && grep -q "^tickprobe doctor: process [0-9]* is switching clocksources" "$T/two-d.err" &&
				python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["costs_ns"]; sys.exit(sorted(c) != ["acpi_pm","hpet","tsc"])' "$T/two-d.json"; echo $?)" \
			"exit $rcd: $(head -c 300 "$T/two-d.err")"
	else
		kill $A 2>/dev/null
		wait $A
		fail "two switchers" "the fake clocksource was never switched"
	fi

	# The doctor finds a stale record too, and says it put the original back.
	fake dockill "tsc hpet" tsc
	run_bg "$T/dockill.log" "$T/dockill.err" --switch --clocksource hpet --sysfs-root "$T/dockill"
	if wait_switch dockill; then
		kill -KILL $PID
		{ wait $PID; } 2>/dev/null
		"$TP" doctor --json --sysfs "$T/dockill" --kernel-log "$T/empty-klog" >"$T/dockill.json" 2>"$T/dockill-d.err"
		rc=$?
		ok "doctor (root) after a SIGKILLed switcher: the original put back first, said on stderr" \
			"$([ $rc -ne 1 ] && [ $rc -ne 2 ] && grep -q "^tickprobe doctor: restore record: process $PID switched the clocksource.*'tsc' is back" "$T/dockill-d.err" &&
				[ "$(current dockill)" = tsc ] && [ ! -e "$T/dockill/$RECORD" ]; echo $?)" "exit $rc: $(cat "$T/dockill-d.err")"
	else
		kill $PID 2>/dev/null
		{ wait $PID; } 2>/dev/null
		fail "doctor after SIGKILL" "the fake clocksource was never switched"
	fi

	# A run directory another user could write is refused before any switch.
	fake openrun "tsc hpet" tsc
	mkdir -p "$T/openrun/run/tickprobe" && chmod 0777 "$T/openrun/run/tickprobe"
	"$TP" os --quick --switch --sysfs-root "$T/openrun" -o "$T/openrun.log" 2>"$T/openrun.err"
	rc=$?
	ok "--switch with a run/tickprobe others can write: exit 1, says why, nothing switched" \
		"$([ $rc -eq 1 ] && grep -q 'can be written by other users' "$T/openrun.err" && [ "$(current openrun)" = tsc ]; echo $?)" \
		"exit $rc: $(cat "$T/openrun.err")"
	"$TP" os --restore --switch --sysfs-root "$T/openrun" 2>"$T/restore-usage.err"
	rc=$?
	ok "--restore with other options: usage error" "$([ $rc -eq 1 ] && grep -q -- '--restore goes alone' "$T/restore-usage.err"; echo $?)" \
		"exit $rc: $(cat "$T/restore-usage.err")"

	# Refusals before anything is switched.
	fake refuse "tsc hpet" tsc
	"$TP" os --switch --clocksource nosuch --sysfs-root "$T/refuse" -o "$T/refuse.log" 2>"$T/refuse.err"
	rc=$?
	ok "--clocksource not available: exit 1, nothing switched" \
		"$([ $rc -eq 1 ] && [ "$(current refuse)" = tsc ] && grep -q 'not available' "$T/refuse.err"; echo $?)" "exit $rc"
	if command -v setpriv >/dev/null 2>&1; then
		chmod -R a+rX "$T"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$TP" os --switch --sysfs-root "$T/refuse" \
			-o /dev/null 2>"$T/nobody.err"
		rc=$?
		ok "--switch as an ordinary user: exit 1 with a clear error" \
			"$([ $rc -eq 1 ] && grep -q 'needs root' "$T/nobody.err"; echo $?)" "exit $rc: $(cat "$T/nobody.err")"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$TP" os --restore --sysfs-root "$T/refuse" 2>"$T/nobody2.err"
		rc=$?
		ok "--restore as an ordinary user: exit 1 with a clear error" \
			"$([ $rc -eq 1 ] && grep -q -- '--restore writes current_clocksource and needs root' "$T/nobody2.err"; echo $?)" \
			"exit $rc: $(cat "$T/nobody2.err")"
	fi
fi

# --- (b) a real quick run on this machine, current clocksource only ---------
real_before=$(cat /$CSDIR/current_clocksource 2>/dev/null)
"$TP" os --quick -o "$T/real.log" 2>"$T/real.err"
rc=$?
ok "real --quick run exits 0" "$([ $rc -eq 0 ]; echo $?)" "exit $rc: $(tail -3 "$T/real.err")"
r=$(python3 tests/tools/os_logcheck.py "$T/real.log")
ok "real --quick run: every record's crc, seq, end records/crc32, unique names" "$([ "$r" = ok ]; echo $?)" "$r"
ok "real --quick run: stderr says only the current clocksource is measured" \
	"$(grep -q 'measuring the current clocksource' "$T/real.err"; echo $?)" "no such line"
python3 tests/tools/os_real.py "$T/real.log" "/$CSDIR"
[ $? = 0 ] || fail "real: the record checks" "python stopped before the end of its checks (see above)"
real_after=$(cat /$CSDIR/current_clocksource 2>/dev/null)
ok "real: the machine's clocksource is unchanged" "$([ "$real_before" = "$real_after" ]; echo $?)" \
	"'$real_before' became '$real_after'"

# --- (c) without --switch, the fake current_clocksource is never written ----
fake noswitch "tsc hpet acpi_pm" tsc
F="$T/noswitch/$CSDIR/current_clocksource"
touch -d '2001-02-03 04:05:06' "$F"
before=$(stat -c '%y %s' "$F")
"$TP" os --quick --sysfs-root "$T/noswitch" -o "$T/noswitch.log" 2>"$T/noswitch.err"
rc=$?
after=$(stat -c '%y %s' "$F")
ok "no --switch on a fake tree: exit 0" "$([ $rc -eq 0 ]; echo $?)" "exit $rc"
ok "no --switch: current_clocksource not written (mtime and size)" "$([ "$before" = "$after" ]; echo $?)" \
	"'$before' became '$after'"
ok "no --switch: current_clocksource content unchanged" "$([ "$(current noswitch)" = tsc ]; echo $?)" "$(current noswitch)"
ok "no --switch: only tsc measured" \
	"$(grep -q '"measured_clocksources":\["tsc"\]' "$T/noswitch.log" && ! grep -q '@hpet' "$T/noswitch.log"; echo $?)" \
	"measured other clocksources"
"$TP" os --quick --clocksource hpet --sysfs-root "$T/noswitch" -o "$T/noswitch2.log" 2>"$T/noswitch2.err"
rc=$?
after=$(stat -c '%y %s' "$F")
ok "--clocksource other than the current without --switch: exit 1, nothing written" \
	"$([ $rc -eq 1 ] && [ "$before" = "$after" ] && grep -q 'needs --switch' "$T/noswitch2.err"; echo $?)" "exit $rc"
