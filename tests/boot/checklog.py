#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Validate a tickprobe serial log against docs/log-format.md, independently of
the C reader: a second implementation catches what a shared bug would hide.

    checklog.py LOG [--label NAME] [--expect-status ok|ok-absent|failed]
                [--expect-boot bios|uefi] [--expect-hpet none|0xADDR]
                [--expect-pm-timer none|io:0x608|mmio:0x...] [--expect PATH=JSON]
                [--expect-problem TEXT] [--forbid TEXT] [--allow-dup-text] [--runs N]

Prints one PASS:/FAIL: line per check and exits 1 when any failed.
--expect takes a dotted path into a record, the first component being the
record type, and a JSON value: --expect begin.options.preset='"quick"',
--expect acpi.hpet=null.  --expect-problem looks for TEXT in begin's
option_problems and acpi's problems.  --forbid fails when TEXT occurs anywhere
in the capture (e.g. menu text that must not reach the serial line).
"""
import argparse
import json
import re
import sys
import zlib

# CSI (ESC [ ... final), OVMF's "ESC[=3h" included; charset selections
# (ESC ( B); and single-character escapes such as ESC c.
ANSI = re.compile(rb"\x1b\[[0-9;?=<>]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[@-Z\\-_]")
CRC_MEMBER = b',"crc":"'
REQUIRED = {
    "begin": ["schema", "version", "boot", "cmdline", "options", "option_problems"],
    "machine": ["cpu_vendor", "cpu_brand", "hypervisor", "invariant_tsc", "aperf_mperf", "rtc_time"],
    "acpi": ["pm_timer", "hpet", "problems"],
    "end": ["records", "crc32", "status"],
}


class Checker:
    def __init__(self, label):
        self.label = label
        self.failed = 0

    def check(self, ok, name, why=""):
        if ok:
            print(f"PASS: {self.label}: {name}")
        else:
            self.failed += 1
            print(f"FAIL: {self.label}: {name}: {why}")
        return ok


def clean_lines(data):
    """Capture bytes -> list of lines without CR and ANSI escapes."""
    out = []
    for raw in data.split(b"\n"):
        line = ANSI.sub(b"", raw).rstrip(b"\r").replace(b"\r", b"")
        out.append(line)
    return out


def record_crc_ok(line):
    i = line.rfind(CRC_MEMBER)
    if i < 0 or not line.endswith(b'"}'):
        return False, "no crc member at the end"
    want = line[i + len(CRC_MEMBER):-2].decode("ascii", "replace")
    got = "%08x" % (zlib.crc32(line[:i]) & 0xFFFFFFFF)
    return want == got, f"crc {want}, computed {got}"


def split_runs(lines):
    """[(records, text_lines)] per begin...end run; records are (bytes, obj)."""
    runs, cur = [], None
    for line in lines:
        s = line.lstrip()
        if s.startswith(b"{"):
            try:
                obj = json.loads(s.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                obj = None
            if isinstance(obj, dict) and obj.get("type") == "begin":
                cur = {"records": [], "text": [], "complete": False}
                runs.append(cur)
            if cur is None:
                continue
            cur["records"].append((s, obj))
            if isinstance(obj, dict) and obj.get("type") == "end":
                cur["complete"] = True
                cur = None
        elif cur is not None and s.strip():
            cur["text"].append(s.strip())
    return runs


def lookup(recs, path):
    """TYPE.key.key or TYPE/NAME.key...: a value from the first record of that
    type (and name); list items by index."""
    parts = path.split(".")
    rtype, _, name = parts[0].partition("/")
    found = [o for o in recs if o.get("type") == rtype and (not name or o.get("name") == name)]
    if not found:
        return False, None
    val = found[0]
    for p in parts[1:]:
        if isinstance(val, list) and p.isdigit() and int(p) < len(val):
            val = val[int(p)]
        elif isinstance(val, dict) and p in val:
            val = val[p]
        else:
            return False, None
    return True, val


def check_clocks(c, objs):
    """The members the clocks added (docs/log-format.md): core_clock in every
    measured timer record, an object exactly where machine.aperf_mperf says
    the CPU has the counters, with cost_core_cycles where its ratio is known;
    a freq whose nominal_hz is null has a null ppm; rtc_time is a date or
    null; every timer name once."""
    timers = [o for o in objs if o.get("type") == "timer"]
    names = [t.get("name") for t in timers]
    c.check(len(names) == len(set(names)), f"{len(names)} timer records, each name once",
            f"repeated: {sorted(n for n in set(names) if names.count(n) > 1)}")
    machine = next((o for o in objs if o.get("type") == "machine"), {})
    has = machine.get("aperf_mperf")
    bad = []
    for t in timers:
        if not t.get("samples"):
            continue
        cc = t.get("core_clock", "missing")
        if cc == "missing" or (cc is None) == bool(has):
            bad.append(f"{t.get('name')}: core_clock {cc} with aperf_mperf {has}")
        elif isinstance(cc, dict):
            if not all(k in cc for k in ("aperf", "mperf", "ratio", "effective_hz")):
                bad.append(f"{t.get('name')}: core_clock lacks members: {cc}")
            elif (cc["ratio"] is not None) != ("cost_core_cycles" in t):
                bad.append(f"{t.get('name')}: cost_core_cycles without a ratio, or a ratio without it")
        f = t.get("freq")
        if isinstance(f, dict) and f.get("nominal_hz") is None and f.get("ppm") is not None:
            bad.append(f"{t.get('name')}: a ppm against no nominal rate")
    c.check(not bad, "core_clock and freq members as documented", "; ".join(bad[:3]))
    rt = machine.get("rtc_time", "missing")
    c.check(rt is None or (isinstance(rt, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", rt)),
            "machine.rtc_time is a date and time or null", f"rtc_time {rt!r}")


def check_run(c, run, args):
    recs = run["records"]
    objs = [o for _, o in recs if isinstance(o, dict)]
    c.check(run["complete"], "end record present", "the run was cut short (no end record)")

    bad = []
    for i, (line, obj) in enumerate(recs):
        ok, why = record_crc_ok(line)
        if obj is None:
            bad.append(f"record {i}: not JSON")
        elif not ok:
            bad.append(f"record {i} ({obj.get('type')}): {why}")
        elif list(obj.keys())[:2] != ["type", "seq"] or list(obj.keys())[-1] != "crc":
            bad.append(f"record {i}: members must start type, seq and end with crc")
    c.check(not bad, f"{len(recs)} records parse, keys in order, crc correct", "; ".join(bad[:5]))

    seqs = [o.get("seq") for o in objs]
    c.check(seqs == list(range(len(seqs))), "seq counts 0, 1, 2, ...", f"seq {seqs[:20]}")

    if run["complete"] and objs:
        end = objs[-1]
        before = [line for line, _ in recs[:-1]]
        crc = 0
        for line in before:
            crc = zlib.crc32(line + b"\n", crc)
        c.check(end.get("records") == len(before), "end.records matches",
                f"end says {end.get('records')}, counted {len(before)}")
        c.check(end.get("crc32") == "%08x" % (crc & 0xFFFFFFFF), "end.crc32 matches",
                f"end says {end.get('crc32')}, computed {crc & 0xFFFFFFFF:08x}")
        if "bytes" in end:
            nbytes = sum(len(x) + 1 for x in before)
            c.check(end["bytes"] == nbytes, "end.bytes matches", f"end says {end['bytes']}, counted {nbytes}")

    for rtype, keys in REQUIRED.items():
        found = [o for o in objs if o.get("type") == rtype]
        if not c.check(len(found) == 1, f"one {rtype} record", f"found {len(found)}"):
            continue
        missing = [k for k in keys if k not in found[0]]
        c.check(not missing, f"{rtype} has {', '.join(keys)}", f"missing {missing}")
    check_clocks(c, objs)
    ok, schema = lookup(objs, "begin.schema")
    c.check(ok and schema == 1, "schema is 1", f"schema {schema}")

    # Every line once: OVMF mirrors ConOut to COM1, so a screen write that
    # reached the firmware console would show up here twice.
    seen, dups = set(), []
    for line, _ in recs:
        if line in seen:
            dups.append(line[:60].decode("utf-8", "replace"))
        seen.add(line)
    c.check(not dups, "every record line appears once", f"repeated: {dups[:3]}")
    if not args.allow_dup_text:
        seen, dups = set(), []
        for t in run["text"]:
            if t in seen:
                dups.append(t[:60].decode("utf-8", "replace"))
            seen.add(t)
        c.check(not dups, f"every text line appears once ({len(run['text'])} lines)", f"repeated: {dups[:3]}")

    if args.expect_status:
        ok, v = lookup(objs, "end.status")
        c.check(ok and v == args.expect_status, f"status {args.expect_status}", f"status {v}")
    if args.expect_boot:
        ok, v = lookup(objs, "begin.boot")
        c.check(v == args.expect_boot, f"boot {args.expect_boot}", f"boot {v}")
        if args.expect_boot == "uefi":
            ok, v = lookup(objs, "begin.boot_services")
            c.check(v == "active", "boot_services active", f"boot_services {v}")
    if args.expect_hpet:
        ok, v = lookup(objs, "acpi.hpet")
        if args.expect_hpet == "none":
            c.check(ok and v is None, "acpi.hpet is null", f"hpet {v}")
        else:
            want = int(args.expect_hpet, 0)
            c.check(isinstance(v, dict) and v.get("address") == want, f"HPET at {args.expect_hpet}", f"hpet {v}")
    if args.expect_pm_timer:
        ok, v = lookup(objs, "acpi.pm_timer")
        if args.expect_pm_timer == "none":
            c.check(ok and v is None, "acpi.pm_timer is null", f"pm_timer {v}")
        else:
            space, addr = args.expect_pm_timer.split(":")
            good = isinstance(v, dict) and v.get("space") == space and v.get("address") == int(addr, 0)
            c.check(good, f"PM timer {args.expect_pm_timer}", f"pm_timer {v}")
    for e in args.expect:
        path, _, want = e.partition("=")
        ok, v = lookup(objs, path)
        want_v = json.loads(want)
        c.check(ok and v == want_v, f"{path} == {want}", f"{path} is {json.dumps(v) if ok else 'missing'}")
    for text in args.expect_problem:
        probs = (lookup(objs, "begin.option_problems")[1] or []) + (lookup(objs, "acpi.problems")[1] or [])
        c.check(any(text in p for p in probs), f"a problem mentions '{text}'", f"problems {probs}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log")
    ap.add_argument("--label", default=None)
    ap.add_argument("--expect-status")
    ap.add_argument("--expect-boot")
    ap.add_argument("--expect-hpet")
    ap.add_argument("--expect-pm-timer")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--expect-problem", action="append", default=[])
    ap.add_argument("--forbid", action="append", default=[])
    ap.add_argument("--allow-dup-text", action="store_true")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    c = Checker(args.label or args.log)
    try:
        with open(args.log, "rb") as f:
            data = f.read()
    except OSError as e:
        c.check(False, "log readable", str(e))
        return 1
    for text in args.forbid:
        c.check(text.encode() not in data, f"no '{text}' in the capture", "found")
    runs = split_runs(clean_lines(data))
    if not c.check(len(runs) == args.runs, f"{args.runs} begin..end run(s)", f"found {len(runs)} begin records"):
        if not runs:
            return 1
    for run in runs:
        check_run(c, run, args)
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
