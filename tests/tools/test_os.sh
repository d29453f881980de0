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


# fake NAME AVAILABLE CURRENT: a fake root in $T/NAME
fake() {
	mkdir -p "$T/$1/$CSDIR"
	printf '%s\n' "$2" >"$T/$1/$CSDIR/available_clocksource"
	printf '%s\n' "$3" >"$T/$1/$CSDIR/current_clocksource"
}
current() { cat "$T/$1/$CSDIR/current_clocksource"; }

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

# wait_switch NAME: until the fake current_clocksource is no longer tsc (10 s at most)
wait_switch() {
	i=0
	while [ "$(current "$1")" = tsc ] && [ $i -lt 1000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	[ "$(current "$1")" != tsc ]
}

if [ "$(id -u)" -ne 0 ]; then
	skip "signal and error restore tests need root (--switch refuses otherwise)"
	fake noroot "tsc hpet" tsc
	"$TP" os --switch --sysfs-root "$T/noroot" -o "$T/noroot.log" 2>"$T/noroot.err"
	rc=$?
	ok "os --switch without root exits 1" $([ $rc -eq 1 ] && grep -q 'needs root' "$T/noroot.err"; echo $?) "exit $rc"
else
	for sig in INT TERM; do
		fake "sig$sig" "tsc hpet acpi_pm" tsc
		run_bg "$T/sig$sig.log" "$T/sig$sig.err" --switch --sysfs-root "$T/sig$sig"
		if wait_switch "sig$sig"; then
			kill -$sig $PID
			wait $PID
			rc=$?
			if [ $sig = INT ]; then want=130; else want=143; fi # 128 + 2, 128 + 15
			ok "SIG$sig mid-run: the process dies of the signal" $([ $rc -eq $want ]; echo $?) "exit $rc, want $want"
			ok "SIG$sig mid-run: the original clocksource is back" $([ "$(current "sig$sig")" = tsc ]; echo $?) \
				"current_clocksource reads '$(current "sig$sig")'"
			ok "SIG$sig mid-run: stderr reports the interruption and the restore" \
				$(grep -q "interrupted by SIG$sig; clocksource restored to 'tsc'" "$T/sig$sig.err"; echo $?) \
				"$(tail -1 "$T/sig$sig.err")"
			r=$(python3 tests/tools/os_logcheck.py "$T/sig$sig.log" partial)
			ok "SIG$sig mid-run: the records written are intact" $([ "$r" = ok ]; echo $?) "$r"
			ok "SIG$sig mid-run: the log has no end record" $(! grep -q '"type":"end"' "$T/sig$sig.log"; echo $?) \
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
			$([ $rc -eq 0 ] && [ "$r" = ok ] && [ "$(current ref)" = tsc ]; echo $?) "exit $rc, log $r, current $(current ref)"
		limit=$(python3 tests/tools/os_limit.py "$T/ref.log")
		fake efbig "hpet acpi_pm tsc" tsc
		prlimit --fsize="$limit" "$TP" os --quick --switch --sysfs-root "$T/efbig" -o "$T/efbig.log" 2>"$T/efbig.err"
		rc=$?
		ok "log write error after a switch: exit 1" $([ $rc -eq 1 ]; echo $?) "exit $rc"
		ok "log write error after a switch: says why and restores" \
			$(grep -q 'cannot write the log' "$T/efbig.err" && grep -q 'clocksource restored' "$T/efbig.err"; echo $?) \
			"$(tail -2 "$T/efbig.err" | tr '\n' ' ')"
		ok "log write error after a switch: the original clocksource is back" $([ "$(current efbig)" = tsc ]; echo $?) \
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
	while [ "$(current early)" = tsc-early ] && [ $i -lt 3000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	printf '%s\n' "tsc hpet acpi_pm" >"$T/early/$CSDIR/available_clocksource"
	wait $PID
	rc=$?
	ok "tsc-early withdrawn mid-run: exit 0" $([ $rc -eq 0 ]; echo $?) "exit $rc: $(tail -2 "$T/early.err" | tr '\n' ' ')"
	ok "tsc-early withdrawn mid-run: the kernel's successor tsc is left in use" $([ "$(current early)" = tsc ]; echo $?) \
		"current_clocksource reads '$(current early)'"
	n=$(grep -c "can no longer be selected" "$T/early.err")
	ok "tsc-early withdrawn mid-run: said once, no restore failure" \
		$([ "$n" -eq 1 ] && ! grep -q "could not restore" "$T/early.err"; echo $?) "said $n times: $(grep -i restore "$T/early.err" | tr '\n' '|')"
	r=$(python3 tests/tools/os_early.py "$T/early.log")
	ok "tsc-early withdrawn mid-run: restore record (now tsc) and tsc measured once it appeared" \
		$([ "$r" = ok ]; echo $?) "$r"

	# Refusals before anything is switched.
	fake refuse "tsc hpet" tsc
	"$TP" os --switch --clocksource nosuch --sysfs-root "$T/refuse" -o "$T/refuse.log" 2>"$T/refuse.err"
	rc=$?
	ok "--clocksource not available: exit 1, nothing switched" \
		$([ $rc -eq 1 ] && [ "$(current refuse)" = tsc ] && grep -q 'not available' "$T/refuse.err"; echo $?) "exit $rc"
	if command -v setpriv >/dev/null 2>&1; then
		chmod -R a+rX "$T"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$TP" os --switch --sysfs-root "$T/refuse" \
			-o /dev/null 2>"$T/nobody.err"
		rc=$?
		ok "--switch as an ordinary user: exit 1 with a clear error" \
			$([ $rc -eq 1 ] && grep -q 'needs root' "$T/nobody.err"; echo $?) "exit $rc: $(cat "$T/nobody.err")"
	fi
fi

# --- (b) a real quick run on this machine, current clocksource only ---------
real_before=$(cat /$CSDIR/current_clocksource 2>/dev/null)
"$TP" os --quick -o "$T/real.log" 2>"$T/real.err"
rc=$?
ok "real --quick run exits 0" $([ $rc -eq 0 ]; echo $?) "exit $rc: $(tail -3 "$T/real.err")"
r=$(python3 tests/tools/os_logcheck.py "$T/real.log")
ok "real --quick run: every record's crc, seq, end records/crc32, unique names" $([ "$r" = ok ]; echo $?) "$r"
ok "real --quick run: stderr says only the current clocksource is measured" \
	$(grep -q 'measuring the current clocksource' "$T/real.err"; echo $?) "no such line"
python3 tests/tools/os_real.py "$T/real.log" "/$CSDIR"
[ $? = 0 ] || fail "real: the record checks" "python stopped before the end of its checks (see above)"
real_after=$(cat /$CSDIR/current_clocksource 2>/dev/null)
ok "real: the machine's clocksource is unchanged" $([ "$real_before" = "$real_after" ]; echo $?) \
	"'$real_before' became '$real_after'"

# --- (c) without --switch, the fake current_clocksource is never written ----
fake noswitch "tsc hpet acpi_pm" tsc
F="$T/noswitch/$CSDIR/current_clocksource"
touch -d '2001-02-03 04:05:06' "$F"
before=$(stat -c '%y %s' "$F")
"$TP" os --quick --sysfs-root "$T/noswitch" -o "$T/noswitch.log" 2>"$T/noswitch.err"
rc=$?
after=$(stat -c '%y %s' "$F")
ok "no --switch on a fake tree: exit 0" $([ $rc -eq 0 ]; echo $?) "exit $rc"
ok "no --switch: current_clocksource not written (mtime and size)" $([ "$before" = "$after" ]; echo $?) \
	"'$before' became '$after'"
ok "no --switch: current_clocksource content unchanged" $([ "$(current noswitch)" = tsc ]; echo $?) "$(current noswitch)"
ok "no --switch: only tsc measured" \
	$(grep -q '"measured_clocksources":\["tsc"\]' "$T/noswitch.log" && ! grep -q '@hpet' "$T/noswitch.log"; echo $?) \
	"measured other clocksources"
"$TP" os --quick --clocksource hpet --sysfs-root "$T/noswitch" -o "$T/noswitch2.log" 2>"$T/noswitch2.err"
rc=$?
after=$(stat -c '%y %s' "$F")
ok "--clocksource other than the current without --switch: exit 1, nothing written" \
	$([ $rc -eq 1 ] && [ "$before" = "$after" ] && grep -q 'needs --switch' "$T/noswitch2.err"; echo $?) "exit $rc"
