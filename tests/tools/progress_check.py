# SPDX-License-Identifier: BSD-2-Clause
"""The progress line of a tickprobe qemu boot on a pseudo-terminal, from the JSON
tests/tools/progress_pty.py writes.

Run by tests/tools/test_progress.sh.  Arguments: TTY_JSON.
"""
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
