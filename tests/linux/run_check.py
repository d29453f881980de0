# SPDX-License-Identifier: BSD-2-Clause
"""The logs of one tickprobe qemu --linux run: the probe's and the guest's.

Run by tests/linux/test_linux.sh from the top of the tree.  Arguments: RUN_DIR RUN_OUT.
"""
import json, os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402
d, cmp_path = sys.argv[1], sys.argv[2]
oslog = open(d + '/os.log', 'rb').read().decode('utf-8', 'replace')
console = open(d + '/console.log', 'rb').read().decode('utf-8', 'replace')
os_recs, bare = read(d + '/os.log').records, read(d + '/bare.log').records

# Two channels: the log on ttyS1, the kernel on ttyS0, never mixed.
# (The doctor's verdict, in the log, may quote the words "Linux version".)
ok(not re.search(r'^\[ *\d+\.\d+\] ', oslog, re.M) and not re.search(r'Linux version \d', oslog),
   'os.log (ttyS1) holds no kernel console line')
ok(not any(l.startswith('{"type"') for l in console.splitlines()) and 'Linux version' in console,
   'console.log (ttyS0) holds the kernel and no record')

b = os_recs[0] if os_recs else {}
ok(b.get('type') == 'begin' and b.get('boot') == 'linux' and os_recs[-1]['type'] == 'end', 'the OS log runs begin to end')
ok(b.get('kernel', {}).get('release', '').endswith('-cloud-amd64'), 'the guest ran Debian\'s cloud kernel',
   b.get('kernel'))
ok(next((r for r in os_recs if r['type'] == 'machine'), {}).get('cores') == 2, 'the guest saw 2 CPUs')
avail = b.get('clocksources', [])
restore = next((r for r in os_recs if r['type'] == 'restore'), None)
later = restore.get('measured_later', []) if restore else []
measured = set(b.get('measured_clocksources', [])) | set(later)
ok({'hpet', 'acpi_pm'} <= set(avail) and ({'tsc', 'tsc-early'} & set(avail)),
   'the guest offers tsc (or tsc-early), hpet and acpi_pm', avail)
for cs in sorted(set(avail) | set(later)):
    t = [r for r in os_recs if r['type'] == 'timer' and r.get('clocksource') == cs]
    good = len(t) == 7 and all(r.get('samples', 0) > 0 and 'healthy' not in r for r in t)  # measured: health implied
    # tsc-early may be withdrawn before its turn: then it is said so, and tsc is measured instead.
    gone = (cs == 'tsc-early' and len(t) == 7 and 'tsc' in later
            and all('no longer an available clocksource' in r.get('reason', '') for r in t))
    ok(cs in measured and (good or gone), 'clocksource %s measured: 7 healthy clock-call records%s' % (cs,
       ' (withdrawn by the kernel before its turn, tsc measured after)' if gone else ''),
       '%d records, samples %s' % (len(t), [r.get('samples') for r in t]))
    for typ in ('rate', 'gaps', 'ctxsw', 'os_contention'):
        ok(gone or any(r['type'] == typ and r.get('clocksource') == cs for r in os_recs),
           'clocksource %s: a %s record' % (cs, typ))
for name, call in (('acpi-fast', 'inl(pm_timer)'), ('hpet', 'load(hpet_counter)')):
    r = next((r for r in os_recs if r['type'] == 'timer' and r['name'] == name and r.get('clocksource') is None), None)
    ok(r is not None and 'healthy' not in r and r['call'] == call and r['samples'] > 0 and r['freq']['measured_hz'] > 0,
       'raw %s read from user space in the guest (%s)' % (name, call), r and r.get('reason'))

# The clocksource left behind, as the guest read it after tickprobe os exited.
m = re.search(r'^tickprobe-guest: current_clocksource after the run: (\S+)', oslog, re.M)
after = m.group(1) if m else None
rc = re.search(r'^tickprobe-guest: tickprobe os exit (\d+)', oslog, re.M)
ok(restore is not None and restore['ok'] and after == restore.get('now') and after in avail + later,
   'the clocksource is restored: the guest reads %s after the run, as the restore record says' % after,
   'restore %s, after %s' % (restore, after))
ok(rc is not None and rc.group(1) == '0', 'tickprobe os in the guest exited 0', rc and rc.group(0))
# And it is the one the guest had before the run, or, when the kernel withdrew
# that one meanwhile (tsc-early), one the kernel still offers.
ma = re.search(r'^tickprobe-guest: available_clocksource after the run: (.*)$', oslog, re.M)
avail_after, orig = (ma.group(1).split() if ma else []), b.get('current_clocksource')
ok(after is not None and (after == orig or (orig not in avail_after and after in avail_after)),
   'the guest is left on its clocksource from before the run, %s (or, withdrawn, on one still offered)' % orig,
   'before %s, after %s, offered after %s' % (orig, after, avail_after))

# --threads 2: contention curves, 1 and 2 readers, per-thread figures.
for cs in ('hpet', 'acpi_pm'):
    c = next((r for r in os_recs if r['type'] == 'os_contention' and r['clocksource'] == cs), None)
    good = (c is not None and c['healthy'] and [x['n'] for x in c['readers']] == [1, 2]
            and all(x['p50_ns'] > 0 and x['p99_ns'] >= x['p50_ns'] and x['reads_per_s'] > 0 for x in c['readers'])
            and [len(x['threads']) for x in c['readers']] == [1, 2]
            and sorted(t['cpu'] for t in c['readers'][1]['threads']) == [0, 1])
    ok(good, '%s contention curve: 1 and 2 readers on CPUs 0 and 1' % cs, c and c['readers'])

# The probe on the same machine.
bb = bare[0] if bare else {}
ok(bb.get('type') == 'begin' and bare[-1]['type'] == 'end', 'the probe\'s log runs begin to end')
names = {r['name'] for r in bare if r['type'] == 'timer' and r.get('samples')}
ok({'tsc', 'hpet', 'acpi-fast'} <= names, 'the probe measured tsc, hpet and acpi-fast', sorted(names))
bm = next((r for r in bare if r['type'] == 'machine'), {})
ok(bm.get('cores') == 2 and bm.get('cpu_brand') == next(r for r in os_recs if r['type'] == 'machine')['cpu_brand'],
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
    ok(good, 'compare lines up %s: hardware, user space, call, kernel share +/- CI' % cs, f)
ok('calls per second' in out and re.search(r'^x +10 ', out, re.M) and 'Difference at 95.0% confidence' in out,
   'compare: the loop\'s 10 runs per clocksource, ministat-style')
for cs in ('hpet', 'acpi_pm'):
    ok(re.search(r'^  %s +(\d+ x \d+ +){5}of \d+' % cs, out, re.M) is not None, 'compare: %s\'s five most common gaps' % cs)
    ok(re.search(r'^  %s +\d+ +\d+ +\d+ +[\d.]+ +\d+$' % cs, out, re.M) is not None, 'compare: %s\'s context-switch rate' % cs)
    ok(re.search(r'^%s +\S+ +2 +[\d.]+ +[\d.]+ +\d+' % cs, out, re.M) is not None, 'compare: %s contention with 2 threads' % cs)
# The kernel path lines up only the calls that read the counter: the coarse
# clock and time() return the tick's stored time, and set against a read
# they showed a path below zero.
path = out[out.find('Kernel path over the bare hardware read'):].splitlines()[2:]
calls = [l for l in path if re.match(r'^(tsc|hpet|acpi_pm) ', l)]
ok(calls and not [l for l in calls if 'COARSE' in l or re.search(r' time \(', l)],
   'compare: the kernel path has %d rows, none for the calls that read no counter' % len(calls),
   [l for l in calls if 'COARSE' in l or ' time (' in l][:2])
