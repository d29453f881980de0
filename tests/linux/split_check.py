# SPDX-License-Identifier: BSD-2-Clause
"""The kernel split recomputed from the two logs, against Debian's ministat.

Run by tests/linux/test_linux.sh from the top of the tree.  Arguments: RUN_DIR RUN_OUT TMP_DIR.
"""
import json, os, re, statistics, subprocess, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402
d, cmp_path, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
def p50s(t):
    r = t['rounds']
    return list(r['p50']) if isinstance(r, dict) else [x['p50'] for x in r]
os_recs, bare = read(d + '/os.log').records, read(d + '/bare.log').records
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
    if re.search(r'\s-?nan\s*$', text, re.M):
        # ministat's one-pass variance of equal values can come out below 0
        # (10 x 70.1 gives a stddev of -nan), and its verdict is then "no
        # difference"; tickprobe's two-pass variance is exactly 0 there.
        return 'nan'
    return 'n.s.' if 'No difference proven at 95.0% confidence' in text else None
close = lambda ours, ref: abs(ours - ref) <= 0.05 + 1e-6 * abs(ref)  # ours is printed to 1 decimal
for cs, counter in (('tsc', 'tsc'), ('hpet', 'hpet'), ('acpi_pm', 'acpi-fast')):
    f = rows.get(cs) or (rows.get('tsc-early') if cs == 'tsc' else None)
    hw, user = timer(bare, counter, None), timer(os_recs, counter, None)
    call = timer(os_recs, 'clock_gettime(MONOTONIC)@%s' % (f[0] if f else cs), f[0] if f else cs)
    if not (f and hw and user and call):
        ok(False, 'compare %s: the split recomputed from the logs' % cs, 'row %s, timers %s' % (f, (bool(hw), bool(user), bool(call))))
        continue
    h, u, c = p50s(hw), p50s(user), p50s(call)
    med = [statistics.median(v) for v in (h, u, c)]
    got = [float(x) for x in f[2:5]]
    ok(all(close(g, m) for g, m in zip(got, med)),
       'compare %s: hardware, user space and call are the medians of the logs\' per-round p50s' % cs,
       'printed %s, logs %s' % (got, med))
    for what, base, col in (('hardware', h, 5), ('user space', u, 9)):
        ref = ministat(base, c, '%s-%s' % (cs, col))
        marked = re.search(r'%s \+/- %s \(n\.s\.\)' % (re.escape(f[col]), re.escape(f[col + 2])), nsrow[f[0]])
        if ref == 'nan':  # no verdict to hold it to: the difference of the means still is
            ref = (statistics.mean(c) - statistics.mean(base), None)
        good = f[col + 1] == '+/-' and (marked is not None if ref == 'n.s.' else
                                        isinstance(ref, tuple) and not marked and close(float(f[col]), ref[0])
                                        and (ref[1] is None or close(float(f[col + 2]), ref[1])))
        ok(good, 'compare %s: call - %s, %s +/- %s, as ministat has it (%s)' % (cs, what, f[col], f[col + 2], ref),
           'printed %s' % f[col:col + 3])
    pct = 100 * (med[2] - med[0]) / med[2]
    ok(f[8] == '%.0f%%' % pct, 'compare %s: the kernel\'s part of the call\'s median, %s' % (cs, f[8]),
       'printed %s, logs %.1f%%' % (f[8], pct))
