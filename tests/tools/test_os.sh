#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe os: restores the clocksource on signals and errors (fake sysfs
# trees, where current_clocksource is a plain file), writes a complete log on
# this machine, and never writes current_clocksource without --switch.
# The real machine's clocksource is never switched here.
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
T=$(mktemp -d /tmp/tickprobe-test-os.XXXXXX)
trap 'rm -rf "$T"' EXIT
CSDIR=sys/devices/system/clocksource/clocksource0

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
ok() { if [ "$2" -eq 0 ]; then pass "$1"; else fail "$1" "$3"; fi; }

# fake NAME AVAILABLE CURRENT: a fake root in $T/NAME
fake() {
	mkdir -p "$T/$1/$CSDIR"
	printf '%s\n' "$2" >"$T/$1/$CSDIR/available_clocksource"
	printf '%s\n' "$3" >"$T/$1/$CSDIR/current_clocksource"
}
current() { cat "$T/$1/$CSDIR/current_clocksource"; }

# The log checker: every record's crc, seq order, the end record's count and
# crc32, unique names.  Prints "ok" or what is wrong.
cat >"$T/check.py" <<'EOF'
import json, sys, zlib
def check(path, want_end=True):
    recs, crc_all = [], 0
    for raw in open(path, 'rb').read().split(b'\n'):
        if not raw.startswith(b'{'):
            continue
        k = raw.rfind(b',"crc":"')
        if k < 0 or zlib.crc32(raw[:k]) != int(raw[k + 8:k + 16], 16):
            return 'bad crc in record %d' % len(recs)
        r = json.loads(raw)
        if r['seq'] != len(recs):
            return 'seq %d at position %d' % (r['seq'], len(recs))
        if r['type'] == 'end' and (r['records'] != len(recs) or int(r['crc32'], 16) != crc_all):
            return 'end record disagrees: records %d crc32 %s' % (r['records'], r['crc32'])
        crc_all = zlib.crc32(raw + b'\n', crc_all)
        recs.append(r)
    if not recs or recs[0]['type'] != 'begin':
        return 'no begin record'
    if want_end and recs[-1]['type'] != 'end':
        return 'no end record'
    names = [r['name'] for r in recs if 'name' in r]
    if len(names) != len(set(names)):
        return 'duplicate names'
    return 'ok'
if __name__ == '__main__':
    print(check(sys.argv[1], sys.argv[2:] != ['partial']))
EOF

if [ ! -x "$TP" ]; then
	fail "build" "$TP missing"
	exit 1
fi

# --- (a) restore on signals and on errors, as root, on fake trees ----------
# A script's background job starts with SIGINT ignored (and tickprobe leaves
# an ignored SIGINT alone), so the run is started with SIGINT at default.
run_bg() { # log err args...
	log=$1 err=$2
	shift 2
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$TP" os "$@" -o "$log" 2>"$err" &
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
	echo "SKIP: signal and error restore tests need root (--switch refuses otherwise)"
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
			r=$(python3 "$T/check.py" "$T/sig$sig.log" partial)
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
		r=$(python3 "$T/check.py" "$T/ref.log")
		ok "--switch on a fake tree: complete log, original back" \
			$([ $rc -eq 0 ] && [ "$r" = ok ] && [ "$(current ref)" = tsc ]; echo $?) "exit $rc, log $r, current $(current ref)"
		limit=$(python3 - "$T/ref.log" <<'EOF'
import sys
lines = [l for l in open(sys.argv[1], 'rb').read().split(b'\n') if l.startswith(b'{')]
first = next(i for i, l in enumerate(lines) if b'"clocksource":"hpet"' in l)
print(sum(len(l) + 1 for l in lines[:first]) + len(lines[first]) // 2)
EOF
)
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
		echo "SKIP: prlimit missing: no RLIMIT_FSIZE error-path test"
	fi

	# The original withdrawn during the run: tsc-early, replaced by tsc once
	# the kernel has calibrated it (seen on Debian's kernel under TCG).  The
	# fake tree's available list is rewritten after the first switch, as
	# the kernel rewrites it; the run (not --quick: about a second per
	# clocksource) is still measuring then.  The system must be left as the
	# kernel would have it (tsc), said once, with exit 0.
	fake early "tsc-early hpet acpi_pm" tsc-early
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$TP" os --switch --sysfs-root "$T/early" -o "$T/early.log" 2>"$T/early.err" &
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
	r=$(python3 - "$T/early.log" <<'EOF2'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
rest = [r for r in recs if r['type'] == 'restore']
end = recs[-1]
tsc = [r for r in recs if r.get('name') == 'clock_gettime(MONOTONIC)@tsc']
ok = (len(rest) == 1 and rest[0]['clocksource'] == 'tsc-early' and rest[0]['ok'] is True and rest[0]['now'] == 'tsc'
      and rest[0]['measured_later'] == ['tsc'] and len(tsc) == 1 and end['type'] == 'end' and end['status'] != 'failed')
print('ok' if ok else 'restore %s, tsc timers %d, end %s' % (rest, len(tsc), end.get('status')))
EOF2
)
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
r=$(python3 "$T/check.py" "$T/real.log")
ok "real --quick run: every record's crc, seq, end records/crc32, unique names" $([ "$r" = ok ]; echo $?) "$r"
ok "real --quick run: stderr says only the current clocksource is measured" \
	$(grep -q 'measuring the current clocksource' "$T/real.err"; echo $?) "no such line"
python3 - "$T/real.log" "/$CSDIR" <<'EOF'
import json, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), 'tests', 'boot'))
from checklog import hist_pairs, round_values  # hist and rounds in either schema
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
avail = open(sys.argv[2] + '/available_clocksource').read().split()
cur = open(sys.argv[2] + '/current_clocksource').read().split()[0]
def say(ok, name, why=''):
    print(('PASS: %s' % name) if ok else ('FAIL: %s: %s' % (name, why)))
b = recs[0]
say(b.get('boot') == 'linux' and b.get('kernel', {}).get('release'), 'real: begin has boot linux and the kernel release')
say(b.get('clocksources') == avail and b.get('current_clocksource') == cur,
    'real: begin lists the clocksources and the current one', '%s / %s' % (b.get('clocksources'), b.get('current_clocksource')))
say(b.get('measured_clocksources') == [cur] and b.get('switching') is False, 'real: only the current clocksource measured',
    str(b.get('measured_clocksources')))
types = [r['type'] for r in recs]
for t in ('machine', 'tsc', 'overhead', 'timer', 'rate', 'gaps', 'ctxsw', 'end'):
    say(t in types, 'real: a %s record' % t)
m = next(r for r in recs if r['type'] == 'machine')
say(all(k in m for k in ('cpu_vendor', 'cpu_brand', 'family', 'model', 'stepping', 'hypervisor', 'invariant_tsc',
                         'rdtscp', 'cores', 'microcode')), 'real: machine record members')
tsc = next(r for r in recs if r['type'] == 'tsc')
say(tsc['hz'] > 1e8 and tsc['source'] == 'clock_monotonic_raw', 'real: tsc record from CLOCK_MONOTONIC_RAW', str(tsc))
rounds = b['options']['rounds']
calls = ['clock_gettime(MONOTONIC)', 'clock_gettime(MONOTONIC_RAW)', 'clock_gettime(REALTIME)',
         'clock_gettime(MONOTONIC_COARSE)', 'gettimeofday', 'time']
timers = {r['name']: r for r in recs if r['type'] == 'timer'}
for c in calls:
    r = timers.get('%s@%s' % (c, cur))
    if not r:
        say(False, 'real: timer %s@%s' % (c, cur), 'missing')
        continue
    good = (r['clocksource'] == cur and r['call'] == c and 'healthy' not in r and r['samples'] > 0
            and 'cost_ns' not in r and 'overhead_cycles' not in r  # they follow from the cycles and tsc.hz
            and all(k in r['cost_cycles'] for k in ('min', 'p50', 'mean', 'sd', 'p99', 'p999', 'max'))
            and sum(n for _, n in hist_pairs(r['hist'])) == r['samples']
            and ('modes' in r) == ('hist_bin' in r)
            and set(r['throughput']) == {'reads', 'cycles'} and r['throughput']['cycles'] > 0
            and len(round_values(r['rounds'], 'p50')) == len(round_values(r['rounds'], 'mean')) == rounds
            and r['vdso'] in (True, False, None) and 'method' in r['vdso_evidence'])
    say(good, 'real: timer %s@%s has the summary members' % (c, cur), json.dumps(r)[:300])
others = [r['name'] for r in recs if r.get('clocksource') not in (None, cur)]
say(not others, 'real: no record tagged with another clocksource', str(others))
rate = next(r for r in recs if r['type'] == 'rate')
say(len(rate['runs']) == 10 and all(x > 0 for x in rate['runs']), 'real: rate record has 10 runs', str(rate['runs']))
g = next(r for r in recs if r['type'] == 'gaps')
say(set(g['gap_ns']) >= {'min', 'max', 'mean', 'sd'} and 1 <= len(g['modes']) <= 5, 'real: gaps record members')
cs = next(r for r in recs if r['type'] == 'ctxsw')
say(cs['healthy'] and len(round_values(cs['rounds'], 'p50')) == rounds, 'real: ctxsw record with one entry per round', json.dumps(cs)[:200])
EOF
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
