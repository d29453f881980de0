# SPDX-License-Identifier: BSD-2-Clause
"""The restore record of a run stopped early.

Run by tests/tools/test_os.sh from the top of the tree.  Arguments: LOG.
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import read  # noqa: E402
recs = read(sys.argv[1]).records
rest = [r for r in recs if r['type'] == 'restore']
end = recs[-1]
tsc = [r for r in recs if r.get('name') == 'clock_gettime(MONOTONIC)@tsc']
ok = (len(rest) == 1 and rest[0]['clocksource'] == 'tsc-early' and rest[0]['ok'] is True and rest[0]['now'] == 'tsc'
      and rest[0]['measured_later'] == ['tsc'] and len(tsc) == 1 and end['type'] == 'end' and end['status'] != 'failed')
print('ok' if ok else 'restore %s, tsc timers %d, end %s' % (rest, len(tsc), end.get('status')))
