#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Check one fault-injection boot's serial log: valid as a whole (the checks
of tests/boot/checklog.py, reused, condensed to one line unless one fails),
then the case's own expectations.

    faultcheck.py LOG --label NAME [--status S] [--expect PATH=JSON]...
                  [--contains PATH~TEXT]... [--problem TEXT]... [--text TEXT]...
                  [--absent PATH]... [--order PATH,PATH,...] [--message PATH] [--msg-out FILE]

PATH is TYPE.key.key... (the first record of that type) or TYPE/NAME.key...
(the record of that type whose "name" is NAME, e.g. timer/hpet.reason).  A
counter absent by design and not asked for with counters= has no timer
record: its reason is plan.absent.NAME (e.g. plan.absent.lapic-x2).
--absent: there is no such record or member.
--contains: the value (a string, or a list of strings) contains TEXT.
--problem: TEXT is in begin.option_problems or acpi.problems.
--text: TEXT is on a human (non-record) line of the capture.
--order: the records named appear in this order (by seq).
--message: the value written to --msg-out for the fault matrix.
"""
import argparse
import contextlib
import io
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "boot"))
import checklog  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--label", required=True)
    ap.add_argument("--status")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--contains", action="append", default=[])
    ap.add_argument("--problem", action="append", default=[])
    ap.add_argument("--text", action="append", default=[])
    ap.add_argument("--absent", action="append", default=[])
    ap.add_argument("--order")
    ap.add_argument("--message")
    ap.add_argument("--msg-out")
    a = ap.parse_args()
    c = checklog.Checker(a.label)
    try:
        with open(a.log, "rb") as f:
            data = f.read()
    except OSError as e:
        c.check(False, "log readable", str(e))
        return 1
    runs = checklog.split_runs(checklog.clean_lines(data))
    if not c.check(len(runs) == 1, "one begin..end run", f"{len(runs)} runs"):
        return 1

    # checklog's own checks, quiet unless one fails.
    inner = checklog.Checker(a.label)
    opts = argparse.Namespace(expect_status=None, expect_boot=None, expect_hpet=None, expect_pm_timer=None,
                              expect=[], expect_problem=[], allow_dup_text=True)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        checklog.check_run(inner, runs[0], opts)
    lines = buf.getvalue().splitlines()
    fails = [x for x in lines if x.startswith("FAIL")]
    if fails:
        for x in fails:
            print(x)
        c.failed += len(fails)
    else:
        c.check(True, f"log valid: crc of every record, seq, end.records/crc32/bytes, the timer, overhead "
                f"and plan records' shape ({len(lines)} checks)")

    objs = [o for _, o in runs[0]["records"] if isinstance(o, dict)]
    if a.status:
        ok, v = checklog.lookup(objs, "end.status")
        c.check(ok and v == a.status, f"status {a.status}", f"status {v}")
    for e in a.expect:
        path, _, want = e.partition("=")
        ok, v = checklog.lookup(objs, path)
        c.check(ok and v == json.loads(want), f"{path} == {want}", f"{path} is {json.dumps(v) if ok else 'missing'}")
    for e in a.contains:
        path, _, text = e.partition("~")
        ok, v = checklog.lookup(objs, path)
        vals = v if isinstance(v, list) else [v]
        good = ok and any(isinstance(x, str) and text in x for x in vals)
        c.check(good, f"{path} mentions '{text}'", f"{path} is {json.dumps(v) if ok else 'missing'}")
    for path in a.absent:
        ok, v = checklog.lookup(objs, path)
        c.check(not ok, f"no {path}", f"{path} is {json.dumps(v)}")
    for text in a.problem:
        probs = (checklog.lookup(objs, "begin.option_problems")[1] or []) + (checklog.lookup(objs, "acpi.problems")[1] or [])
        c.check(any(text in p for p in probs), f"a problem mentions '{text}'", f"problems {probs}")
    # Human lines anywhere in the capture: "run ended" comes after the end record.
    human = [t.decode("utf-8", "replace") for t in checklog.clean_lines(data) if not t.lstrip().startswith(b"{")]
    for text in a.text:
        c.check(any(text in t for t in human), f"the console says '{text}'", "not on any text line")
    if a.order:
        seqs = []
        for p in a.order.split(","):
            ok, v = checklog.lookup(objs, p + ".seq")
            seqs.append(v if ok else None)
        c.check(None not in seqs and seqs == sorted(seqs), f"records in order {a.order}", f"seqs {seqs}")
    if a.msg_out:
        msg = ""
        if a.message:
            ok, v = checklog.lookup(objs, a.message)
            msg = (json.dumps(v) if not isinstance(v, str) else v) if ok else "(missing)"
        with open(a.msg_out, "w") as f:
            f.write(msg.replace("\n", " "))
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
