# SPDX-License-Identifier: BSD-2-Clause
"""tickprobe os on this machine's own clocksources.

Run by tests/tools/test_os.sh from the top of the tree.  Arguments: LOG CLOCKSOURCE_DIR.
"""
import json, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), 'tests', 'boot'))
from checklog import hist_pairs, round_values  # hist and rounds in either schema
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from tplog import ok, read  # noqa: E402
recs = read(sys.argv[1]).records
avail = open(sys.argv[2] + '/available_clocksource').read().split()
cur = open(sys.argv[2] + '/current_clocksource').read().split()[0]
b = recs[0]
ok(b.get('boot') == 'linux' and b.get('kernel', {}).get('release'), 'real: begin has boot linux and the kernel release')
ok(b.get('clocksources') == avail and b.get('current_clocksource') == cur,
   'real: begin lists the clocksources and the current one', '%s / %s' % (b.get('clocksources'), b.get('current_clocksource')))
ok(b.get('measured_clocksources') == [cur] and b.get('switching') is False, 'real: only the current clocksource measured',
   str(b.get('measured_clocksources')))
types = [r['type'] for r in recs]
for t in ('machine', 'tsc', 'overhead', 'timer', 'rate', 'gaps', 'ctxsw', 'end'):
    ok(t in types, 'real: a %s record' % t)
m = next(r for r in recs if r['type'] == 'machine')
ok(all(k in m for k in ('cpu_vendor', 'cpu_brand', 'family', 'model', 'stepping', 'hypervisor', 'invariant_tsc',
                        'rdtscp', 'cores', 'microcode')), 'real: machine record members')
tsc = next(r for r in recs if r['type'] == 'tsc')
ok(tsc['hz'] > 1e8 and tsc['source'] == 'clock_monotonic_raw', 'real: tsc record from CLOCK_MONOTONIC_RAW', str(tsc))
rounds = b['options']['rounds']
calls = ['clock_gettime(MONOTONIC)', 'clock_gettime(MONOTONIC_RAW)', 'clock_gettime(REALTIME)',
         'clock_gettime(MONOTONIC_COARSE)', 'gettimeofday', 'time']
timers = {r['name']: r for r in recs if r['type'] == 'timer'}
for c in calls:
    r = timers.get('%s@%s' % (c, cur))
    if not r:
        ok(False, 'real: timer %s@%s' % (c, cur), 'missing')
        continue
    good = (r['clocksource'] == cur and r['call'] == c and 'healthy' not in r and r['samples'] > 0
            and 'cost_ns' not in r and 'overhead_cycles' not in r  # they follow from the cycles and tsc.hz
            and all(k in r['cost_cycles'] for k in ('min', 'p50', 'mean', 'sd', 'p99', 'p999', 'max'))
            and sum(n for _, n in hist_pairs(r['hist'])) == r['samples']
            and ('modes' in r) == ('hist_bin' in r)
            and set(r['throughput']) == {'reads', 'cycles'} and r['throughput']['cycles'] > 0
            and len(round_values(r['rounds'], 'p50')) == len(round_values(r['rounds'], 'mean')) == rounds
            and r['vdso'] in (True, False, None) and 'method' in r['vdso_evidence'])
    ok(good, 'real: timer %s@%s has the summary members' % (c, cur), json.dumps(r)[:300])
others = [r['name'] for r in recs if r.get('clocksource') not in (None, cur)]
ok(not others, 'real: no record tagged with another clocksource', str(others))
rate = next(r for r in recs if r['type'] == 'rate')
ok(len(rate['runs']) == 10 and all(x > 0 for x in rate['runs']), 'real: rate record has 10 runs', str(rate['runs']))
g = next(r for r in recs if r['type'] == 'gaps')
ok(set(g['gap_ns']) >= {'min', 'max', 'mean', 'sd'} and 1 <= len(g['modes']) <= 5, 'real: gaps record members')
cs = next(r for r in recs if r['type'] == 'ctxsw')
ok(cs['healthy'] and len(round_values(cs['rounds'], 'p50')) == rounds, 'real: ctxsw record with one entry per round', json.dumps(cs)[:200])
