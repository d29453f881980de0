# SPDX-License-Identifier: BSD-2-Clause
"""--quiet on a pseudo-terminal: stderr is the summary line alone.  Exits 0 when
so.  Run by tests/tools/test_progress.sh.  Arguments: QUIET_JSON.
"""
import json, sys
e = json.load(open(sys.argv[1]))['stderr']
sys.exit(0 if e.count('\r') == 1 and e.endswith('\r\n') and e.startswith('tickprobe qemu: ok') else 1)
