#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Validate a tickprobe serial log against docs/log-format.md, independently of
the C reader: a second implementation catches what a shared bug would hide.

    checklog.py LOG [--label NAME] [--expect-status ok|ok-absent|failed]
                [--expect-boot bios|uefi] [--expect-hpet none|0xADDR]
                [--expect-pm-timer none|io:0x608|mmio:0x...] [--expect PATH=JSON]
                [--expect-problem TEXT] [--forbid TEXT] [--allow-dup-text] [--runs N]
                [--max-record-bytes N] [--text TEXT]

Prints one PASS:/FAIL: line per check and exits 1 when any failed.
--expect takes a dotted path into a record, the first component being the
record type, and a JSON value: --expect begin.options.preset='"quick"',
--expect acpi.hpet=null.  --expect-problem looks for TEXT in begin's
option_problems and acpi's problems.  --forbid fails when TEXT occurs anywhere
in the capture (e.g. menu text that must not reach the serial line).
--text: TEXT is on a human (non-record) line of the capture.
--max-record-bytes: the run's record bytes (end.bytes, and as counted) are at
most N.  Every `hist` and `rounds` is decoded in its schema's form (1 or 2,
docs/log-format.md), and a histogram's counts must add up to its `samples`.
A schema-2 log's timer, overhead, percpu and plan records are held to the
smaller shape: no member that follows from others, the counters absent by
design in plan.absent.
"""
import argparse
import json
import os
import re
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tplog  # noqa: E402  PASS/FAIL
from tplog import clean_lines, crc_check  # noqa: E402  the capture's lines, a record's crc

REQUIRED = {
    "begin": ["schema", "version", "boot", "cmdline", "options", "option_problems"],
    "machine": ["cpu_vendor", "cpu_brand", "hypervisor", "invariant_tsc"],
    "acpi": ["pm_timer", "hpet", "problems"],
    "end": ["records", "crc32", "status"],
}

# Members that came with the newer clocks, within schema 2: a schema-1 log
# (tests/data/logs/schema1) predates them.
REQUIRED_SCHEMA2 = {"machine": ["aperf_mperf", "rtc_time"]}

# Histograms (docs/log-format.md, "Histograms"): the bin index of probe/hist.h.
B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
HIST_EXACT, HIST_SUB = 16384, 128
HIST_BINS = HIST_EXACT + (64 - 14) * HIST_SUB


def hist_bin_low(i):
    """A bin index's value: itself below 16384, else its log bucket's lower bound."""
    if i < HIST_EXACT:
        return i
    e, s = divmod(i - HIST_EXACT, HIST_SUB)
    return (1 << (14 + e)) + (s << (7 + e))


def hist_pairs(hist):
    """A record's `hist` as [(value, count), ...] in either schema; None when the
    writer omitted it.  Raises ValueError when it is malformed."""
    if isinstance(hist, str) and hist.startswith("omitted:"):
        return None
    out = []
    if isinstance(hist, list):  # schema 1: [[value, count], ...]
        for p in hist:
            if not (isinstance(p, list) and len(p) == 2 and
                    all(type(x) is int and 0 <= x < 1 << 64 for x in p) and p[1] > 0):
                raise ValueError(f"bin {p!r} is not [value, count]")
            if out and p[0] <= out[-1][0]:
                raise ValueError("values not in increasing order")
            out.append((p[0], p[1]))
        return out
    if not isinstance(hist, str):
        raise ValueError(f"a {type(hist).__name__}, not a histogram")
    nums, n, shift = [], 0, 0  # schema 2: 5-bit groups, least significant first
    for ch in hist:
        d = B64URL.find(ch)
        if d < 0:
            raise ValueError("a character that is not a base64url digit")
        n |= (d & 31) << shift
        if d >= 32:
            shift += 5
            continue
        if d == 0 and shift:
            raise ValueError("a number not in its shortest form")
        if n >= 1 << 64:
            raise ValueError("a number past 64 bits")
        nums.append(n)
        n = shift = 0
    if shift:
        raise ValueError("the string ends inside a number")
    if len(nums) % 2:
        raise ValueError("a skip without its count")
    i = -1
    for skip, count in zip(nums[0::2], nums[1::2]):
        i += skip + 1
        if count == 0 or i >= HIST_BINS:
            raise ValueError("a bin with a count of 0" if count == 0 else "a bin past the last bin")
        out.append((hist_bin_low(i), count))
    return out


def round_values(rounds, metric):
    """A timer's per-round values of one metric, either schema: schema 1
    [{"p50": .., "mean": ..}, ...], schema 2 {"p50": [...], "mean": [...]}."""
    if isinstance(rounds, dict):
        return list(rounds.get(metric) or [])
    return [r.get(metric) if isinstance(r, dict) else r for r in rounds or []]


def check_forms(c, objs, schema):
    """Every hist and rounds in its schema's form, each hist summing to samples."""
    bad, hists = [], 0
    for o in objs:
        where = f"{o.get('type')} {o.get('name', '')}".strip()
        if "hist" in o:
            h = o["hist"]
            if not (isinstance(h, str) and h.startswith("omitted:")) and \
                    not isinstance(h, list if schema == 1 else str):
                bad.append(f"{where}: hist is a {type(h).__name__} in schema {schema}")
                continue
            try:
                pairs = hist_pairs(h)
            except ValueError as e:
                bad.append(f"{where}: hist: {e}")
                continue
            hists += 1
            if pairs is not None and sum(n for _, n in pairs) != o.get("samples"):
                bad.append(f"{where}: hist counts add up to {sum(n for _, n in pairs)}, samples {o.get('samples')}")
        if "rounds" in o:
            r = o["rounds"]
            if schema == 1:
                good = isinstance(r, list)
            else:
                good = isinstance(r, dict) and set(r) == {"p50", "mean"} and \
                    all(isinstance(v, list) for v in r.values()) and len(r["p50"]) == len(r["mean"])
            if not good:
                bad.append(f"{where}: rounds not in schema {schema}'s form: {json.dumps(r)[:80]}")
    c.check(not bad, f"{hists} histograms decode and hold every sample; rounds in schema {schema}'s form",
            "; ".join(bad[:5]))


class Checker:
    def __init__(self, label):
        self.label = label
        self.failed = 0

    def check(self, good, name, why=""):
        self.failed += not good
        return tplog.ok(good, f"{self.label}: {name}", why)


def split_runs(lines):
    """[(records, text_lines)] per begin...end run; records are (bytes, obj)."""
    runs, cur = [], None
    for line in lines:
        s = line.lstrip()
        if s.startswith(b"{"):
            # Every record line, not tplog.read's good ones: check_run names each bad one.
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


# Lists written as columns, one value a CPU (docs/log-format.md, "cpus",
# "tsc_sync"): which member of which record.
COLUMN_LISTS = {"cpus": "list", "tsc_sync": "pairs", "tsc_sync_pairs": "pairs"}


def rows(cols):
    """{key: [v0, v1, ...], ...} as [{key: v0, ...}, ...]; a list as it is."""
    if not isinstance(cols, dict):
        return cols
    n = max((len(v) for v in cols.values() if isinstance(v, list)), default=0)
    return [{k: (v[i] if isinstance(v, list) and i < len(v) else None) for k, v in cols.items()} for i in range(n)]


def columns(items):
    """The inverse of rows(): a list of objects as columns, every key any of
    them has (null where one lacks it), in the order they first appear."""
    keys = list(dict.fromkeys(k for e in items for k in e))
    return {k: [e.get(k) for e in items] for k in keys}


def as_read(o):
    """A record as the host command reads it (tools/lib/logderived.c), for the
    members a test looks up: a measured timer's present and healthy, the
    per-CPU columns as lists of objects.  The record itself is left alone."""
    if not isinstance(o, dict):
        return o
    o = dict(o)
    if o.get("type") == "timer" and "healthy" not in o and isinstance(o.get("samples"), int) and o["samples"] > 0:
        o["present"] = o["healthy"] = True
    key = COLUMN_LISTS.get(o.get("type"))
    if key and isinstance(o.get(key), dict):
        o[key] = rows(o[key])
    return o


def lookup(recs, path):
    """TYPE.key.key or TYPE/NAME.key...: a value from the first record of that
    type (and name), as the host command reads it (as_read); list items by
    index."""
    recs = [as_read(o) for o in recs]
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
    measured timer record exactly where machine.aperf_mperf says the CPU has
    the counters (left out otherwise, never null), with cost_core_cycles
    where its ratio is known; a freq whose nominal_hz is null has a null ppm;
    rtc_time is a date or null; every timer name once."""
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
        if cc is None or (cc == "missing") == bool(has):
            bad.append(f"{t.get('name')}: core_clock {cc} with aperf_mperf {has}")
        elif isinstance(cc, dict):
            if not all(k in cc for k in ("aperf", "mperf", "ratio", "effective_hz")):
                bad.append(f"{t.get('name')}: core_clock lacks members: {cc}")
            elif (cc["ratio"] is not None) != ("cost_core_cycles" in t):
                bad.append(f"{t.get('name')}: cost_core_cycles without a ratio, or a ratio without it")
        elif "cost_core_cycles" in t:
            bad.append(f"{t.get('name')}: cost_core_cycles without a core_clock")
        f = t.get("freq")
        if isinstance(f, dict) and f.get("nominal_hz") is None and f.get("ppm") is not None:
            bad.append(f"{t.get('name')}: a ppm against no nominal rate")
    c.check(not bad, "core_clock and freq members as documented", "; ".join(bad[:3]))
    rt = machine.get("rtc_time", "missing")
    c.check(rt is None or (isinstance(rt, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", rt)),
            "machine.rtc_time is a date and time or null", f"rtc_time {rt!r}")


# The counters a machine may lack by design (docs/log-format.md, "Reasons
# when absent"): unless counters= names them, such a one is listed in the
# plan record's `absent` instead of having a timer record.
BY_DESIGN = ("lapic-x2", "tsc-deadline", "rdpid", "kvmclock", "hv-refcount", "hv-tsc-page")
# What a timer record that was not measured may hold (no method, width, insns).
UNMEASURED_KEYS = {"type", "seq", "name", "clocksource", "call", "present", "healthy", "reason", "note",
                   "cpu", "samples", "crc"}
# Members that follow from others and are not written (docs/log-format.md,
# "Derived members"); the readers compute them from the cycles and tsc.hz.
DERIVED = ("cost_ns", "overhead_cycles")
COST_KEYS = ("min", "p50", "mean", "sd", "p99", "p999", "max")
DELTA_LEN = 7  # [min, granularity, mode, mode_count, max, backwards, wraps]
ROUNDS_TEXT = re.compile(rb'"rounds":\{"p50":\[([^\]]*)\],"mean":\[([^\]]*)\]\}')
ONE_DECIMAL = re.compile(rb"-?\d+(\.\d)?|null")


def is_uint(v):
    return type(v) is int and v >= 0


def timer_shape(t, line, image):
    """What is wrong with one schema-2 timer record's members, as a list."""
    name = t.get("name")
    bad = []
    if not t.get("samples"):
        extra = sorted(set(t) - UNMEASURED_KEYS)
        if extra:
            bad.append(f"{name}: not measured, yet has {extra}")
        if not isinstance(t.get("reason"), str) or not t["reason"]:
            bad.append(f"{name}: not measured, without a reason")
        if t.get("samples") != 0:
            bad.append(f"{name}: samples {t.get('samples')!r}, not 0")
        return bad
    for k in ("method", "cost_cycles", "throughput", "rounds"):
        if k not in t:
            bad.append(f"{name}: no {k}")
    if "hist" not in t and "modes" not in t:
        bad.append(f"{name}: neither hist nor modes")
    for k in DERIVED:
        if k in t:
            bad.append(f"{name}: {k} written (it follows from the cycles)")
    for k in ("freq", "smi", "core_clock"):
        if k in t and t[k] is None:
            bad.append(f"{name}: {k} null (left out when unknown)")
    if image and "address" in t:
        bad.append(f"{name}: address written (the acpi record has it)")
    if "samples_requested" in t and t["samples_requested"] == t["samples"]:
        bad.append(f"{name}: samples_requested written though equal to samples")
    if "clamped" in t and not (is_uint(t["clamped"]) and t["clamped"] > 0):
        bad.append(f"{name}: clamped {t['clamped']!r} written (left out when 0)")
    cc = t.get("cost_cycles")
    if "cost_cycles" in t:
        if not (isinstance(cc, dict) and list(cc) == list(COST_KEYS)):
            bad.append(f"{name}: cost_cycles not {{{', '.join(COST_KEYS)}}}: {cc}")
        elif not all(is_uint(cc[k]) for k in ("min", "p50", "p99", "p999", "max")) or \
                not cc["min"] <= cc["p50"] <= cc["p99"] <= cc["p999"] <= cc["max"] or \
                not cc["min"] <= cc["mean"] <= cc["max"]:
            bad.append(f"{name}: cost_cycles not whole cycles in order: {cc}")
    tp = t.get("throughput")
    if "throughput" in t and not (isinstance(tp, dict) and list(tp) == ["reads", "cycles"] and
                                  is_uint(tp["reads"]) and is_uint(tp["cycles"])):
        bad.append(f"{name}: throughput not {{reads, cycles}}: {tp}")
    m = ROUNDS_TEXT.search(line)
    if "rounds" in t and isinstance(t["rounds"], dict):
        if not m:
            bad.append(f"{name}: rounds not as {{p50: [...], mean: [...]}} in the text")
        elif not all(ONE_DECIMAL.fullmatch(v) for g in m.groups() for v in g.split(b",") if g):
            bad.append(f"{name}: rounds not with 1 decimal: {m.group(0)[:60]!r}")
    d = t.get("delta")
    if "delta" in t and d is not None and not (isinstance(d, list) and len(d) == DELTA_LEN and all(map(is_uint, d))):
        bad.append(f"{name}: delta not [{DELTA_LEN} whole numbers]: {d}")
    for k in ("present", "healthy", "reason"):
        if k in t:
            bad.append(f"{name}: measured, yet has {k} (samples > 0 says it)")
    f = t.get("freq")
    if isinstance(f, dict) and "reference" in f and f["reference"] is not True:
        bad.append(f"{name}: freq.reference {f['reference']!r} written (only true is)")
    return bad


def check_shape(c, recs, objs, text):
    """Schema 2 as written since the log was made smaller: no member that
    follows from others, nothing null that can be left out, the counters
    absent by design in plan.absent instead of timer records."""
    begin = next((o for o in objs if o.get("type") == "begin"), {})
    image = begin.get("boot") in ("bios", "uefi")
    bad = []
    for line, o in recs:
        if isinstance(o, dict) and o.get("type") == "timer":
            bad += timer_shape(o, line, image)
    c.check(not bad, f"{sum(1 for o in objs if o.get('type') == 'timer')} timer records in the schema-2 shape "
            "(cost_cycles, throughput {reads, cycles}, rounds; nothing derived, nothing null left in)",
            "; ".join(bad[:4]))

    over = [o for o in objs if o.get("type") == "overhead"]
    c.check(all("ns" not in o and isinstance(o.get("cycles"), dict) and is_uint(o.get("subtracted"))
                for o in over), f"{len(over)} overhead record(s): cycles and subtracted, no ns",
            "; ".join(f"{sorted(o)}" for o in over)[:200])

    # A pair of columns per counter measured on every CPU, the TSC first:
    # tsc, rdtscp, rdpid, lapic, lapic-x2, tsc-deadline, the ones the boot
    # CPU found healthy (probe/run_cpus.c).
    percpu_order = ["tsc", "rdtscp", "rdpid", "lapic", "lapic-x2", "tsc-deadline"]
    for p in (o for o in objs if o.get("type") == "percpu"):
        n = p.get("cpus")
        cols = [k for k in p if k.endswith(("_cycles", "_ns"))]
        names = [k[:-len("_p50_cycles")] for k in cols[::2]]
        keys = [f"{m}_{q}_cycles" for m in names for q in ("p50", "min")]
        ok = (cols == keys and names[:1] == ["tsc"] and
              names == [m for m in percpu_order if m in names] and
              all(isinstance(p[k], list) and len(p[k]) == n and all(v is None or is_uint(v) for v in p[k])
                  for k in keys))
        c.check(ok, f"percpu: {', '.join(names)} on {n} CPUs, p50 and min, whole cycles, no ns columns",
                f"columns {cols}")

    plan = next((o for o in objs if o.get("type") == "plan"), None)
    if plan is None:
        return
    absent = plan.get("absent")
    if not c.check(isinstance(absent, dict) and all(isinstance(v, str) and v for v in absent.values()) and
                   set(absent) <= set(BY_DESIGN),
                   f"plan.absent names counters absent by design, each with its reason ({len(absent or {})})",
                   f"absent {json.dumps(absent)[:200]}"):
        return
    timers = {o.get("name") for o in objs if o.get("type") == "timer"}
    both = sorted(set(absent) & timers)
    c.check(not both, "no counter both in plan.absent and with a timer record", f"both: {both}")
    wanted = (begin.get("options") or {}).get("counters")
    if wanted == ["all"]:
        neither = [n for n in BY_DESIGN if n not in absent and n not in timers]
        c.check(not neither, "counters=all: each counter absent by design in plan.absent or with a timer record",
                f"neither: {neither}")
    elif isinstance(wanted, list):
        c.check(not set(absent) & set(wanted), "counters named in counters= are never in plan.absent",
                f"asked and in absent: {sorted(set(absent) & set(wanted))}")
    # The screen's one line for them (probe/run_clocks.c), under the table
    # when the measurements are over (a failed run may stop before), names
    # the same ones; a log file holds no human lines at all.
    said = [t.decode("utf-8", "replace") for t in text if t.startswith(b"absent by design:")]
    names = said[0].split(":", 1)[1].split() if said else []
    stopped = next((o.get("status") for o in objs if o.get("type") == "end"), None) == "failed"
    if said or (text and not stopped):
        c.check(sorted(names) == sorted(absent) and len(said) <= 1,
                "the 'absent by design' line names the counters in plan.absent", f"line {said}, absent {sorted(absent)}")


def check_run(c, run, args):
    recs = run["records"]
    objs = [o for _, o in recs if isinstance(o, dict)]
    c.check(run["complete"], "end record present", "the run was cut short (no end record)")

    bad = []
    for i, (line, obj) in enumerate(recs):
        good, why = crc_check(line)
        if obj is None:
            bad.append(f"record {i}: not JSON")
        elif not good:
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
        nbytes = sum(len(x) + 1 for x in before)
        if "bytes" in end:
            c.check(end["bytes"] == nbytes, "end.bytes matches", f"end says {end['bytes']}, counted {nbytes}")
        limit = getattr(args, "max_record_bytes", None)
        if limit is not None:
            c.check(nbytes <= limit and end.get("bytes", 0) <= limit,
                    f"record bytes {nbytes} <= {limit} (whole capture {run.get('capture_bytes', '?')} bytes)",
                    f"{nbytes} record bytes, end says {end.get('bytes')}")

    ok, schema = lookup(objs, "begin.schema")
    for rtype, keys in REQUIRED.items():
        found = [o for o in objs if o.get("type") == rtype]
        if not c.check(len(found) == 1, f"one {rtype} record", f"found {len(found)}"):
            continue
        keys = keys + (REQUIRED_SCHEMA2.get(rtype, []) if schema != 1 else [])
        missing = [k for k in keys if k not in found[0]]
        c.check(not missing, f"{rtype} has {', '.join(keys)}", f"missing {missing}")
    if schema != 1:
        check_clocks(c, objs)
        check_shape(c, recs, objs, run["text"])
    if c.check(ok and schema in (1, 2), f"schema is 1 or 2 ({schema})", f"schema {schema}"):
        check_forms(c, objs, schema)

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
    ap.add_argument("--max-record-bytes", type=int)
    ap.add_argument("--text", action="append", default=[])
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
    # Human lines anywhere in the capture: "run ended" comes after the end record.
    human = [t.decode("utf-8", "replace") for t in clean_lines(data) if not t.lstrip().startswith(b"{")]
    for text in args.text:
        c.check(any(text in t for t in human), f"the console says '{text}'", "not on any text line")
    runs = split_runs(clean_lines(data))
    if not c.check(len(runs) == args.runs, f"{args.runs} begin..end run(s)", f"found {len(runs)} begin records"):
        if not runs:
            return 1
    for run in runs:
        run["capture_bytes"] = len(data)
        check_run(c, run, args)
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
