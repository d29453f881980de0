# SPDX-License-Identifier: BSD-2-Clause
# The progress lines that tests/tools/progress_pty.py captured for
# tests/tools/test_progress.sh, one subcommand per capture:
#   python3 tests/tools/progress_check.py tty JSON    prints its PASS/FAIL lines
#   python3 tests/tools/progress_check.py quiet JSON  exit 0 when the check holds
#   python3 tests/tools/progress_check.py os JSON     (the same)
#   python3 tests/tools/progress_check.py db JSON     (the same)
# The last three are one check each, which the shell names with check.sh's ok.
import json
import os
import re
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok  # noqa: E402


def tty(d):
    """tickprobe qemu on a terminal: n of N and the time left, then the summary."""
    err = d["stderr"]
    ok(d["rc"] in (0, 10), "tty: the boot ends ok or ok-absent (rc %d)" % d["rc"])
    shown = [s for s in err.split("\r") if s.strip()]
    ok(any(re.search(r"measuring [a-z0-9-]+, \d+ of \d+, about \d+ s left", s) for s in shown),
       "tty: the line names the counter being measured, n of N and the time left")
    last = err.rstrip("\r\n").split("\r")[-1]
    ok(last.startswith("tickprobe qemu: ok") and "| kernel bios pc tcg icount |" in last,
       "tty: the summary line comes last, on a wiped line: %r" % last[:80])
    ok(all(len(s) <= 78 for s in shown[:-1]), "tty: every progress line fits 78 columns")
    return 0


def quiet(d):
    """--quiet on a terminal: the summary line alone, written once."""
    e = d["stderr"]
    return e.count("\r") == 1 and e.endswith("\r\n") and e.startswith("tickprobe qemu: ok")


def os_(d):
    """tickprobe os on a terminal: the first call being measured, 1 of N."""
    return d["rc"] == 0 and re.search(r"\rtickprobe os: clock_gettime\(MONOTONIC\) via \S+, 1 of \d+", d["stderr"])


def db(d):
    """tickprobe db import on a terminal: logs n of N, wiped at the end."""
    e = d["stderr"]
    return d["rc"] == 0 and re.search(r"\rtickprobe db import: logs 1 of 2", e) and e.endswith("\r")


CHECKS = {"tty": tty, "quiet": quiet, "os": os_, "db": db}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in CHECKS:
        sys.exit("usage: progress_check.py tty|quiet|os|db JSON")
    capture = json.load(open(sys.argv[2]))
    if sys.argv[1] == "tty":
        sys.exit(tty(capture))
    if CHECKS[sys.argv[1]](capture):
        sys.exit(0)
    # What was seen, for the FAIL line the shell prints next.
    print("%s: rc %s, stderr %r" % (sys.argv[1], capture["rc"], capture["stderr"][-300:]), file=sys.stderr)
    sys.exit(1)
