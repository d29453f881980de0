#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The progress line of `tickprobe qemu`: on a terminal (a pseudo-terminal,
# tests/tools/progress_pty.py) it names the counter being measured, n of N
# and the time left, and is wiped before the closing summary; on a pipe,
# and with --quiet, stderr is the summary line alone, as without it.  The
# log the boot writes is the same either way: the progress only reads it.
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
ok() { if [ "$1" -eq 0 ]; then echo "PASS: $2"; else echo "FAIL: $2"; fi; }
work=$(mktemp -d "${TMPDIR:-/tmp}/tp-progress.XXXXXX")
trap 'rm -rf "$work"' EXIT

timeout 300 python3 tests/tools/progress_pty.py 240 "$TP" qemu --kernel --icount --preset quick \
	-o "$work/tty.log" >"$work/tty.json"
python3 - "$work/tty.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
err = d["stderr"]
def ok(c, what):
    print(("PASS: " if c else "FAIL: ") + what)
ok(d["rc"] in (0, 10), "tty: the boot ends ok or ok-absent (rc %d)" % d["rc"])
shown = [s for s in err.split("\r") if s.strip()]
ok(any(re.search(r"measuring [a-z0-9-]+, \d+ of \d+, about \d+ s left", s) for s in shown),
   "tty: the line names the counter being measured, n of N and the time left")
ok(any("the main table done" in s or "the other CPUs" in s for s in shown),
   "tty: the phase after the main table is named")
last = err.rstrip("\r\n").split("\r")[-1]
ok(last.startswith("tickprobe qemu: ok") and "| kernel bios pc tcg icount |" in last,
   "tty: the summary line comes last, on a wiped line: %r" % last[:80])
ok(all(len(s) <= 78 for s in shown[:-1]), "tty: every progress line fits 78 columns")
PY
timeout 300 "$TP" qemu --kernel --icount --preset quick -o "$work/pipe.log" 2>"$work/pipe.err" | cat >"$work/pipe.out"
ok $(test "$(wc -l <"$work/pipe.err")" -eq 1 && ! grep -q "$(printf '\r')" "$work/pipe.err"; echo $?) \
	"pipe: stderr is the one summary line, no carriage return"
timeout 300 python3 tests/tools/progress_pty.py 240 "$TP" qemu --kernel --icount --preset quick --quiet \
	-o "$work/quiet.log" >"$work/quiet.json"
ok $(python3 -c "
import json,sys; e=json.load(open(sys.argv[1]))['stderr']
sys.exit(0 if e.count('\r') == 1 and e.endswith('\r\n') and e.startswith('tickprobe qemu: ok') else 1)" "$work/quiet.json"; echo $?) \
	"--quiet on a terminal: only the summary line"
# icount -kernel boots are deterministic: the three logs must be identical.
ok $(cmp -s "$work/tty.log" "$work/pipe.log" && cmp -s "$work/pipe.log" "$work/quiet.log"; echo $?) \
	"the log is byte for byte the same with and without the progress line"

# tickprobe os and db import: the same line, n of N, and none on a pipe.
timeout 120 python3 tests/tools/progress_pty.py 100 "$TP" os --quick -o "$work/os.log" >"$work/os.json"
ok $(python3 -c "
import json,re,sys; d=json.load(open(sys.argv[1])); e=d['stderr']
sys.exit(0 if d['rc'] == 0 and re.search(r'\rtickprobe os: clock_gettime\(MONOTONIC\) via \S+, 1 of \d+', e) else 1)" \
	"$work/os.json"; echo $?) "os on a terminal: the call being measured, 1 of N"
timeout 120 "$TP" os --quick -o "$work/os2.log" 2>"$work/os2.err"
ok $(! grep -q "$(printf '\r')" "$work/os2.err"; echo $?) "os on a pipe: no carriage return"
timeout 120 python3 tests/tools/progress_pty.py 100 "$TP" db import "$work/p.db" "$work/tty.log" "$work/os.log" \
	>"$work/db.json"
ok $(python3 -c "
import json,re,sys; d=json.load(open(sys.argv[1])); e=d['stderr']
sys.exit(0 if d['rc'] == 0 and re.search(r'\rtickprobe db import: logs 1 of 2', e) and e.endswith('\r') else 1)" \
	"$work/db.json"; echo $?) "db import on a terminal: logs n of N, wiped at the end"
