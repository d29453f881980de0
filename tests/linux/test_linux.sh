#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe qemu --linux: Debian's cloud kernel under TCG on q35 with -smp 2,
# its initramfs running `tickprobe os --switch --raw-io --quick --threads 2`,
# then the probe on the same machine, then compare.  The kernel is fetched
# the way a user's first run fetches it (apt-get download into the cache,
# here $BUILD/cache), once; later runs find it there.  Then bad input: no
# kernel file, a file of random bytes, a kernel that panics, a guest that
# never sends its log; each must end with a clear message in bounded time.
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
OUT=$BUILD/test-linux
export XDG_CACHE_HOME
XDG_CACHE_HOME=$(cd "$BUILD" && pwd)/cache
rm -rf "$OUT"
mkdir -p "$OUT"

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
ok() { if [ "$2" -eq 0 ]; then pass "$1"; else fail "$1" "$3"; fi; }
now() { date +%s; }

for f in "$TP" "$BUILD/tickprobe-static" "$BUILD/tickprobe.img"; do
	if [ ! -e "$f" ]; then
		fail "setup" "$f is not built (make all)"
		exit 1
	fi
done

# --- the guest and the probe, compared ---------------------------------------
t0=$(now)
timeout 600 "$TP" qemu --linux --machine q35 --smp 2 --preset quick --timeout 300 \
	--os-options "--switch --raw-io --quick --threads 2" --keep "$OUT/run" >"$OUT/run.out" 2>"$OUT/run.err"
rc=$?
secs=$(( $(now) - t0 ))
echo "guest run and probe run: exit $rc in $secs s"
sed 's/^/  | /' "$OUT/run.err"
ok "qemu --linux: exit 0, both logs complete" $([ $rc -eq 0 ]; echo $?) "exit $rc: $(tail -3 "$OUT/run.err" | tr '\n' ' ')"
if [ ! -s "$OUT/run/os.log" ]; then
	fail "qemu --linux" "no OS log came back (see $OUT/run.err)"
	exit 1
fi
ok "the kernel came from the cache or from apt-get download into it" \
	$(ls "$XDG_CACHE_HOME"/tickprobe/linux/vmlinuz-* >/dev/null 2>&1; echo $?) "nothing in $XDG_CACHE_HOME/tickprobe/linux"

python3 - "$OUT/run" "$OUT/run.out" <<'EOF'
import json, os, re, sys
sys.path.insert(0, os.path.join(os.getcwd(), "tests", "linux"))
from guestlogs import say, records  # noqa: E402
d, cmp_path = sys.argv[1], sys.argv[2]
oslog = open(d + '/os.log', 'rb').read().decode('utf-8', 'replace')
console = open(d + '/console.log', 'rb').read().decode('utf-8', 'replace')
os_recs, bare = records(d + '/os.log'), records(d + '/bare.log')

# Two channels: the log on ttyS1, the kernel on ttyS0, never mixed.
say(not re.search(r'^\[ *\d+\.\d+\] ', oslog, re.M) and 'Linux version' not in oslog,
    'os.log (ttyS1) holds no kernel console line')
say(not any(l.startswith('{"type"') for l in console.splitlines()) and 'Linux version' in console,
    'console.log (ttyS0) holds the kernel and no record')

b = os_recs[0] if os_recs else {}
say(b.get('type') == 'begin' and b.get('boot') == 'linux' and os_recs[-1]['type'] == 'end', 'the OS log runs begin to end')
say(b.get('kernel', {}).get('release', '').endswith('-cloud-amd64'), 'the guest ran Debian\'s cloud kernel',
    b.get('kernel'))
say(next((r for r in os_recs if r['type'] == 'machine'), {}).get('cores') == 2, 'the guest saw 2 CPUs')
avail = b.get('clocksources', [])
restore = next((r for r in os_recs if r['type'] == 'restore'), None)
later = restore.get('measured_later', []) if restore else []
measured = set(b.get('measured_clocksources', [])) | set(later)
say({'hpet', 'acpi_pm'} <= set(avail) and ({'tsc', 'tsc-early'} & set(avail)),
    'the guest offers tsc (or tsc-early), hpet and acpi_pm', avail)
for cs in sorted(set(avail) | set(later)):
    t = [r for r in os_recs if r['type'] == 'timer' and r.get('clocksource') == cs]
    good = len(t) == 7 and all(r.get('samples', 0) > 0 and 'healthy' not in r for r in t)  # measured: health implied
    # tsc-early may be withdrawn before its turn: then it is said so, and tsc is measured instead.
    gone = (cs == 'tsc-early' and len(t) == 7 and 'tsc' in later
            and all('no longer an available clocksource' in r.get('reason', '') for r in t))
    say(cs in measured and (good or gone), 'clocksource %s measured: 7 healthy clock-call records%s' % (cs,
        ' (withdrawn by the kernel before its turn, tsc measured after)' if gone else ''),
        '%d records, samples %s' % (len(t), [r.get('samples') for r in t]))
    for typ in ('rate', 'gaps', 'ctxsw', 'os_contention'):
        say(gone or any(r['type'] == typ and r.get('clocksource') == cs for r in os_recs),
            'clocksource %s: a %s record' % (cs, typ))
for name, call in (('acpi-fast', 'inl(pm_timer)'), ('hpet', 'load(hpet_counter)')):
    r = next((r for r in os_recs if r['type'] == 'timer' and r['name'] == name and r.get('clocksource') is None), None)
    say(r is not None and 'healthy' not in r and r['call'] == call and r['samples'] > 0 and r['freq']['measured_hz'] > 0,
        'raw %s read from user space in the guest (%s)' % (name, call), r and r.get('reason'))

# The clocksource left behind, as the guest read it after tickprobe os exited.
m = re.search(r'^tickprobe-guest: current_clocksource after the run: (\S+)', oslog, re.M)
after = m.group(1) if m else None
rc = re.search(r'^tickprobe-guest: tickprobe os exit (\d+)', oslog, re.M)
say(restore is not None and restore['ok'] and after == restore.get('now') and after in avail + later,
    'the clocksource is restored: the guest reads %s after the run, as the restore record says' % after,
    'restore %s, after %s' % (restore, after))
say(rc is not None and rc.group(1) == '0', 'tickprobe os in the guest exited 0', rc and rc.group(0))
# And it is the one the guest had before the run, or, when the kernel withdrew
# that one meanwhile (tsc-early), one the kernel still offers.
ma = re.search(r'^tickprobe-guest: available_clocksource after the run: (.*)$', oslog, re.M)
avail_after, orig = (ma.group(1).split() if ma else []), b.get('current_clocksource')
say(after is not None and (after == orig or (orig not in avail_after and after in avail_after)),
    'the guest is left on its clocksource from before the run, %s (or, withdrawn, on one still offered)' % orig,
    'before %s, after %s, offered after %s' % (orig, after, avail_after))

# --threads 2: contention curves, 1 and 2 readers, per-thread figures.
for cs in ('hpet', 'acpi_pm'):
    c = next((r for r in os_recs if r['type'] == 'os_contention' and r['clocksource'] == cs), None)
    good = (c is not None and c['healthy'] and [x['n'] for x in c['readers']] == [1, 2]
            and all(x['p50_ns'] > 0 and x['p99_ns'] >= x['p50_ns'] and x['reads_per_s'] > 0 for x in c['readers'])
            and [len(x['threads']) for x in c['readers']] == [1, 2]
            and sorted(t['cpu'] for t in c['readers'][1]['threads']) == [0, 1])
    say(good, '%s contention curve: 1 and 2 readers on CPUs 0 and 1' % cs, c and c['readers'])

# The probe on the same machine.
bb = bare[0] if bare else {}
say(bb.get('type') == 'begin' and bare[-1]['type'] == 'end', 'the probe\'s log runs begin to end')
names = {r['name'] for r in bare if r['type'] == 'timer' and r.get('samples')}
say({'tsc', 'hpet', 'acpi-fast'} <= names, 'the probe measured tsc, hpet and acpi-fast', sorted(names))
bm = next((r for r in bare if r['type'] == 'machine'), {})
say(bm.get('cores') == 2 and bm.get('cpu_brand') == next(r for r in os_recs if r['type'] == 'machine')['cpu_brand'],
    'the probe ran on the same machine: 2 CPUs, the same CPU model', (bm.get('cores'), bm.get('cpu_brand')))

# compare: the split for all three, the seeds' figures, the contention.
out = open(cmp_path).read()
split = out[out.find('Hardware, user space and kernel'):]
rows = {}
for line in split.splitlines()[1:]:
    if not line.strip():
        break
    f = line.split()
    if f[0] in ('tsc', 'tsc-early', 'hpet', 'acpi_pm'):
        rows[f[0]] = f
for cs, counter in (('tsc', 'tsc'), ('hpet', 'hpet'), ('acpi_pm', 'acpi-fast')):
    f = rows.get(cs) or (rows.get('tsc-early') if cs == 'tsc' else None)
    good = (f is not None and f[1] == counter and all(re.match(r'^\d+(\.\d+)?$', x) for x in f[2:5])
            and f[6] == '+/-')
    say(good, 'compare lines up %s: hardware, user space, call, kernel share +/- CI' % cs, f)
say('calls per second' in out and re.search(r'^x +10 ', out, re.M) and 'Difference at 95.0% confidence' in out,
    'compare: the loop\'s 10 runs per clocksource, ministat-style')
for cs in ('hpet', 'acpi_pm'):
    say(re.search(r'^  %s +(\d+ x \d+ +){5}of \d+' % cs, out, re.M) is not None, 'compare: %s\'s five most common gaps' % cs)
    say(re.search(r'^  %s +\d+ +\d+ +\d+ +[\d.]+ +\d+$' % cs, out, re.M) is not None, 'compare: %s\'s context-switch rate' % cs)
    say(re.search(r'^%s +\S+ +2 +[\d.]+ +[\d.]+ +\d+' % cs, out, re.M) is not None, 'compare: %s contention with 2 threads' % cs)
# The kernel path lines up only the calls that read the counter: the coarse
# clock and time() return the tick's stored time, and set against a read
# they showed a path below zero.
path = out[out.find('Kernel path over the bare hardware read'):].splitlines()[2:]
calls = [l for l in path if re.match(r'^(tsc|hpet|acpi_pm) ', l)]
say(calls and not [l for l in calls if 'COARSE' in l or re.search(r' time \(', l)],
    'compare: the kernel path has %d rows, none for the calls that read no counter' % len(calls),
    [l for l in calls if 'COARSE' in l or ' time (' in l][:2])
EOF
[ $? = 0 ] || fail "the record checks" "python stopped before the end of its checks (see above)"

# The split's figures, recomputed from the two logs: the medians of the
# per-round p50 values, and each difference with its 95% interval as Debian's
# ministat gives it for the same values (schema 2 keeps `rounds` in ns, so
# nothing here depends on the members the host derives).
if command -v ministat >/dev/null 2>&1; then
	mkdir -p "$OUT/ministat"
	python3 - "$OUT/run" "$OUT/run.out" "$OUT/ministat" <<'EOF'
import json, os, re, statistics, subprocess, sys
sys.path.insert(0, os.path.join(os.getcwd(), "tests", "linux"))
from guestlogs import say, records  # noqa: E402
d, cmp_path, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
def p50s(t):
    r = t['rounds']
    return list(r['p50']) if isinstance(r, dict) else [x['p50'] for x in r]
os_recs, bare = records(d + '/os.log'), records(d + '/bare.log')
def timer(recs, name, cs):
    return next((r for r in recs if r['type'] == 'timer' and r.get('name') == name and r.get('clocksource') == cs
                 and r.get('rounds')), None)
out = open(cmp_path).read()
split = out[out.find('Hardware, user space and kernel'):]
rows, nsrow = {}, {}
for line in split.splitlines()[1:]:
    if not line.strip():
        break
    f = [w for w in line.split() if w != '(n.s.)']  # the columns stay put; significance from ministat below
    if f[0] in ('tsc', 'tsc-early', 'hpet', 'acpi_pm'):
        rows[f[0]] = f
        nsrow[f[0]] = line
def ministat(a, b, name):
    for side, vals in (('a', a), ('b', b)):
        open('%s/%s.%s' % (tmp, name, side), 'w').write(''.join('%r\n' % v for v in vals))
    text = subprocess.run(['ministat', '-c', '95', '%s/%s.a' % (tmp, name), '%s/%s.b' % (tmp, name)],
                          capture_output=True, text=True).stdout
    m = re.search(r'Difference at 95\.0% confidence\s+(\S+) \+/- (\S+)', text)
    if m:
        return float(m.group(1)), float(m.group(2))
    return 'n.s.' if 'No difference proven at 95.0% confidence' in text else None
close = lambda ours, ref: abs(ours - ref) <= 0.05 + 1e-6 * abs(ref)  # ours is printed to 1 decimal
for cs, counter in (('tsc', 'tsc'), ('hpet', 'hpet'), ('acpi_pm', 'acpi-fast')):
    f = rows.get(cs) or (rows.get('tsc-early') if cs == 'tsc' else None)
    hw, user = timer(bare, counter, None), timer(os_recs, counter, None)
    call = timer(os_recs, 'clock_gettime(MONOTONIC)@%s' % (f[0] if f else cs), f[0] if f else cs)
    if not (f and hw and user and call):
        say(False, 'compare %s: the split recomputed from the logs' % cs, 'row %s, timers %s' % (f, (bool(hw), bool(user), bool(call))))
        continue
    h, u, c = p50s(hw), p50s(user), p50s(call)
    med = [statistics.median(v) for v in (h, u, c)]
    got = [float(x) for x in f[2:5]]
    say(all(close(g, m) for g, m in zip(got, med)),
        'compare %s: hardware, user space and call are the medians of the logs\' per-round p50s' % cs,
        'printed %s, logs %s' % (got, med))
    for what, base, col in (('hardware', h, 5), ('user space', u, 9)):
        ref = ministat(base, c, '%s-%s' % (cs, col))
        marked = re.search(r'%s \+/- %s \(n\.s\.\)' % (re.escape(f[col]), re.escape(f[col + 2])), nsrow[f[0]])
        good = f[col + 1] == '+/-' and (marked is not None if ref == 'n.s.' else
                                        isinstance(ref, tuple) and not marked and close(float(f[col]), ref[0])
                                        and close(float(f[col + 2]), ref[1]))
        say(good, 'compare %s: call - %s, %s +/- %s, as ministat has it (%s)' % (cs, what, f[col], f[col + 2], ref),
            'printed %s' % f[col:col + 3])
    pct = 100 * (med[2] - med[0]) / med[2]
    say(f[8] == '%.0f%%' % pct, 'compare %s: the kernel\'s part of the call\'s median, %s' % (cs, f[8]),
        'printed %s, logs %.1f%%' % (f[8], pct))
EOF
	[ $? = 0 ] || fail "the split checks" "python stopped before the end of its checks (see above)"
else
	fail "the split checks" "ministat is not installed (apt-get install ministat)"
fi

# --- bad input: each a clear message, in bounded time --------------------------
# bad NAME WANT_RC MAX_S PATTERN [options]
bad() {
	name=$1 want=$2 max=$3 pattern=$4
	shift 4
	t0=$(now)
	timeout $((max + 60)) "$TP" qemu --machine q35 "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
	rc=$?
	secs=$(( $(now) - t0 ))
	echo "$name: exit $rc in $secs s: $(grep 'tickprobe qemu' "$OUT/$name.err" | tail -2 | tr '\n' ' ')"
	ok "$name: exit $want with \"$pattern\" within $max s" \
		$([ $rc -eq "$want" ] && grep -q "$pattern" "$OUT/$name.err" && [ $secs -le "$max" ]; echo $?) \
		"exit $rc after $secs s: $(tail -2 "$OUT/$name.err" | tr '\n' ' ')"
}
bad missing 2 5 "no kernel file $OUT/nonexistent" --linux "$OUT/nonexistent"
head -c 1048576 /dev/urandom >"$OUT/random.bin"
bad corrupt 2 5 "is not a Linux kernel image" --linux "$OUT/random.bin"
K=$(ls "$XDG_CACHE_HOME"/tickprobe/linux/vmlinuz-* 2>/dev/null | tail -1)
head -c 3000000 "$K" >"$OUT/cut.bin" 2>/dev/null
bad truncated 2 5 "is cut short" --linux "$OUT/cut.bin"
bad panic 2 120 "the guest kernel panicked" --linux --kernel-cmdline init=/nonexistent
grep -q "Kernel panic" "$OUT/panic.err"
ok "panic: the console's panic line is quoted" $? "$(tail -2 "$OUT/panic.err")"
bad silent 2 90 "sent no log within the timeout of 30 s" --linux --timeout 30 --kernel-cmdline "init=/bin/sleep -- 600"
ok "no probe run after a failed guest" $(grep -q "the probe is not booted" "$OUT/silent.err"; echo $?) "$(tail -1 "$OUT/silent.err")"

# --- the command line ----------------------------------------------------------
"$TP" qemu --keep "$OUT/x" >/dev/null 2>"$OUT/usage1.err"
rc=$?
ok "--keep without --linux: exit 1, said" $([ $rc -eq 1 ] && grep -q "go with --linux" "$OUT/usage1.err"; echo $?) \
	"exit $rc: $(cat "$OUT/usage1.err")"
"$TP" qemu --linux "$K" -o "$OUT/x.log" >/dev/null 2>"$OUT/usage2.err"
rc=$?
ok "--linux with -o: exit 1, said" $([ $rc -eq 1 ] && grep -q "with --keep DIR" "$OUT/usage2.err"; echo $?) \
	"exit $rc: $(cat "$OUT/usage2.err")"
for form in "--linux $K" "--linux=$K"; do
	# shellcheck disable=SC2086 # the form is two words or one, on purpose
	"$TP" qemu --dry-run --machine q35 --smp 2 $form --kernel-cmdline quiet >"$OUT/dry.out" 2>"$OUT/dry.err"
	rc=$?
	c=$(cat "$OUT/dry.out")
	case $c in
	*"-machine q35 "*"-smp 2 "*"-kernel $K "*"-initrd "*"-append console=ttyS0 panic=-1 tsc=reliable quiet "*"-serial chardev:con "*"-serial chardev:oslog "*"-no-reboot"*) good=0 ;;
	*) good=1 ;;
	esac
	ok "dry run of '$form': two serial ports, the guest's command line, -smp 2" $([ $rc -eq 0 ] && [ $good -eq 0 ]; echo $?) \
		"exit $rc: $c"
done

# --- contention beside the probe's ------------------------------------------------
# The probe's `contention` record ({"counter","readers":[{n,p50_ns,p99_ns,reads_per_s}]})
# is put into a copy of the probe's log (seq, crc and the end record redone), with
# figures chosen here, so the lining up of counters (hpet -> hpet, acpi_pm ->
# acpi-fast, tsc -> tsc) and of reader counts is checked exactly.
python3 - "$OUT/run/bare.log" "$OUT/bare-contention.log" <<'EOF2'
import json, sys, zlib
lines = [l for l in open(sys.argv[1], 'rb').read().split(b'\n') if l.startswith(b'{')]
recs = [json.loads(l) for l in lines][:-1]            # without the end record
recs = [r for r in recs if r['type'] != 'contention']  # the probe's own: replaced by known figures
for k, counter in enumerate(('hpet', 'acpi-fast', 'tsc')):
    recs.append({'type': 'contention', 'counter': counter,
                 'readers': [{'n': 1, 'p50_ns': 101.5 + k, 'p99_ns': 201.5 + k, 'reads_per_s': 3000001 + k},
                             {'n': 2, 'p50_ns': 111.5 + k, 'p99_ns': 211.5 + k, 'reads_per_s': 4000001 + k}],
                 'backwards': 0})
out, crc_all = [], 0
def emit(r):
    global crc_all
    body = {'type': r.pop('type'), 'seq': len(out)}
    body.update((k, v) for k, v in r.items() if k not in ('seq', 'crc'))
    t = json.dumps(body, separators=(',', ':')).encode()[:-1]
    line = t + b',"crc":"%08x"}' % zlib.crc32(t)
    crc_all = zlib.crc32(line + b'\n', crc_all)
    out.append(line)
for r in recs:
    emit(r)
end = json.loads(lines[-1])
emit({'type': 'end', 'records': len(out), 'crc32': '%08x' % crc_all, 'status': end['status'], 'bytes': 0})
open(sys.argv[2], 'wb').write(b'\n'.join(out) + b'\n')
EOF2
# And the probe's real records (a 2-CPU boot writes them): both sides have figures.
awk '$1 == "hpet" && $2 == "hpet" && $3 == 2 && $7 ~ /^[0-9.]+$/ && $4 ~ /^[0-9.]+$/ { found = 1 } END { exit !found }' \
	"$OUT/run.out" 2>/dev/null
ok "contention lined up with the probe's real record: hpet at 2 readers on both sides" $? \
	"$(grep -E '^hpet ' "$OUT/run.out" 2>/dev/null | head -3 | tr '\n' '|')"
"$TP" compare "$OUT/bare-contention.log" "$OUT/run/os.log" >"$OUT/cmp-contention.out" 2>"$OUT/cmp-contention.err"
rc=$?
ok "compare with a contention record in the probe's log: exit 0" $([ $rc -eq 0 ]; echo $?) "exit $rc: $(head -3 "$OUT/cmp-contention.err")"
for want in "hpet hpet 1 101.5 201.5 3000001" "hpet hpet 2 111.5 211.5 4000001" \
	"acpi_pm acpi-fast 1 102.5 202.5 3000002" "acpi_pm acpi-fast 2 112.5 212.5 4000002"; do
	set -- $want
	awk -v cs="$1" -v c="$2" -v n="$3" -v p50="$4" -v p99="$5" -v rps="$6" \
		'$1 == cs && $2 == c && $3 == n && $7 == p50 && $8 == p99 && $9 == rps { found = 1 } END { exit !found }' \
		"$OUT/cmp-contention.out"
	ok "contention lined up: $1 with the probe's $2 at n=$3 (p50 $4, p99 $5, $6 reads/s)" $? \
		"$(grep -E "^$1 " "$OUT/cmp-contention.out" | head -3 | tr '\n' '|')"
done
