#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""tests/tools/test_cpus.sh's checks of what show, compare and report print
about the multi-CPU records, against the logs themselves (read here with
json, not with the tool), and its log editors.

  cpucheck.py flip IN OUT TYPE          one bit of a digit in IN's first TYPE record; prints its line
  cpucheck.py hybrid IN OUT             core types P/E on the CPUs, the counters again on CPU 2
                                        (p50 HYBRID_P50_CYCLES cycles there)
  cpucheck.py wide IN OUT N             the cpus record with N CPUs in two packages, the last 8 disabled
  cpucheck.py show LOG TEXT LABEL       show's text against LOG's records
  cpucheck.py json LOG JSON LABEL       show --json embeds LOG's multi-CPU records whole
  cpucheck.py damage LOG TOOL DIR       each multi-CPU record damaged in turn, through TOOL show
  cpucheck.py compare TEXT LOG...       compare's tables against the logs
  cpucheck.py report HTML LOG...        the page's CPU parts and SVGs against the logs

Edited logs are sealed again (each record's crc, the seq numbers, the end
record's records, crc32 and bytes), so the readers take them as written by
the probe: they test the reader, not the checksum."""
import html.parser
import json
import os
import re
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "boot"))
from checklog import columns as to_columns, rows as to_rows  # noqa: E402  per-CPU lists, written as columns
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, parse, read, sealed  # noqa: E402

def first(path, typ):
    return read(path).first(typ)

def ns(cycles, hz):
    """Cycles in ns at the run's tsc.hz, 1 decimal, as the readers put the ns
    members back (docs/log-format.md, "Derived members")."""
    return None if cycles is None else round(cycles * 1e9 / hz, 1)

def tsc_hz(path):
    return first(path, "tsc")["hz"]

# ---- editing -------------------------------------------------------------------

def seal(lines):
    """Renumber seq, recompute every crc and the end record."""
    out, seq, run, nbytes = [], 0, 0, 0
    for line in lines:
        if not line.startswith("{"):
            out.append(line)
            continue
        body = line[:line.rindex(',"crc":"')]
        body = re.sub(r'^\{"type":"([^"]+)","seq":\d+', lambda m: '{"type":"%s","seq":%d' % (m[1], seq), body)
        if body.startswith('{"type":"end"'):
            body = re.sub(r'"records":\d+', '"records":%d' % seq, body)
            body = re.sub(r'"crc32":"[0-9a-f]{8}"', '"crc32":"%08x"' % run, body)
            body = re.sub(r'"bytes":\d+', '"bytes":%d' % nbytes, body)
        line = sealed(body.encode("latin-1")).decode("latin-1")
        run = zlib.crc32((line + "\n").encode("latin-1"), run)
        nbytes += len(line) + 1
        seq += 1
        out.append(line)
    return out

def record(line):
    """The record of a line to edit, held to its crc: an edit starts from what
    the probe wrote, never from a damaged record that seal would make whole."""
    rec = parse(line.encode("latin-1"))
    if rec is None:
        sys.exit("damaged record in the log to edit: " + line[:60])
    return rec

def read_lines(path):
    return [l.rstrip("\r\n") for l in open(path, encoding="latin-1")]

def write_lines(path, lines):
    open(path, "w", encoding="latin-1").write("\n".join(lines) + "\n")

def cmd_flip(src, dst, typ):
    lines = read_lines(src)
    for i, l in enumerate(lines):
        if l.startswith('{"type":"%s"' % typ):
            m = re.search(r'[1-9]', l[l.index('"seq"') + 10:])
            k = l.index('"seq"') + 10 + m.start()
            lines[i] = l[:k] + chr(ord(l[k]) ^ 1) + l[k + 1:]
            write_lines(dst, lines)
            print(i + 1)
            return
    sys.exit("no %s record in %s" % (typ, src))

HYBRID_P50_CYCLES = 1901  # a p50 no counter has under TCG: about 777 ns at 2.4 GHz

def cmd_hybrid(src, dst):
    lines, out = read_lines(src), []
    timers = [l for l in lines if l.startswith('{"type":"timer"')]
    for l in lines:
        if l.startswith('{"type":"cpus"'):
            r = record(l)
            lst = to_rows(r["list"])
            for e in lst:
                e["core_type"] = "P-core" if e["cpu"] in (0, 1) else "E-core"
            r["list"] = to_columns(lst)
            body = json.dumps({k: v for k, v in r.items() if k != "crc"}, separators=(",", ":"))
            l = body[:-1] + ',"crc":"00000000"}'
        if l.startswith('{"type":"contention"') and timers:
            for t in timers[:3]:  # the table again on CPU 2, with p50s of its own
                t = re.sub(r'"seq":(\d+),', r'"seq":\1,"cpu":2,', t, count=1)
                t = re.sub(r'("cost_cycles":\{"min":\d+,"p50":)\d+', r'\g<1>%d' % HYBRID_P50_CYCLES, t)
                out.append(t)
            timers = []
        out.append(l)
    write_lines(dst, seal(out))

def cmd_wide(src, dst, n):
    lines = read_lines(src)
    for i, l in enumerate(lines):
        if l.startswith('{"type":"cpus"'):
            r = record(l)
            bsp, run = to_rows(r["list"])[0], to_rows(r["list"])[1]
            lst = [bsp]
            for c in range(1, n):
                e = dict(run, apic_id=c, cpu=c, package=c * 2 // n, core=c % (n // 2), startup_us=100.0 + c)
                if c >= n - 8:
                    e = dict(e, cpu=None, package=None, core=None, thread=None, state="disabled",
                             startup_us=None, sipis=0, why="not in cpus=")
                lst.append(e)
            r.update(count=n, started=n - 8, list=to_columns(lst))
            body = json.dumps({k: v for k, v in r.items() if k != "crc"}, separators=(",", ":"))
            lines[i] = body[:-1] + ',"crc":"00000000"}'
    write_lines(dst, seal(lines))

# ---- show ------------------------------------------------------------------------

def pair_list(path):
    pairs = []
    for r in read(path).records:
        if r["type"] in ("tsc_sync", "tsc_sync_pairs"):
            pairs += to_rows(r["pairs"])
    return pairs

def f1(x):
    return "-" if x is None else "%.1f" % x

def cmd_show(log, text, label):
    t = open(text, encoding="utf-8").read()
    cpus, sync, per = first(log, "cpus"), first(log, "tsc_sync"), first(log, "percpu")
    cont = [r for r in read(log).records if r["type"] == "contention"]
    lat = first(log, "latency")
    rows = re.findall(r"^ +(\d+|-) +(\d+)  (\S+) +(\S+) +(bsp|running|no response|disabled) ", t, re.M)
    want = [(str(e["cpu"]) if e["cpu"] is not None else "-", str(e["apic_id"]), e["state"]) for e in to_rows(cpus["list"])]
    if 1 < len(want) <= 16:
        ok([(a, b, s) for a, b, _, _, s in rows] == want,
           "%s: show lists every CPU with its APIC ID and state (%d of %d)" % (label, len(rows), len(want)))
    if cpus["started"] <= 1:
        ok("cpus      1 CPU (" in t and not re.search(r"^(tsc sync|per-cpu|contention|team|latency)", t, re.M),
           "%s: one CPU: '1 CPU' and no multi-CPU section" % label)
        return
    word = {True: "synchronized", False: "NOT synchronized", None: "not known"}[sync["synchronized"]]
    ok(re.search(r"^tsc sync  %s: .*, %d pairs?, %d warps?" % (re.escape(word), len(pair_list(log)), sync["warps"]),
                 t, re.M) is not None, "%s: the sync verdict is the record's: %s, %d warps" % (label, word, sync["warps"]))
    meas = [p for p in pair_list(log) if p["offset_cycles"] is not None]
    big = max(meas, key=lambda p: abs(p["offset_cycles"]))
    m = re.search(r"largest \|offset\|: CPU (\d+): ([+-]\d+) \+/- (\d+) cycles", t)
    ok(m is not None and (int(m[1]), int(m[2]), int(m[3])) == (big["cpu"], big["offset_cycles"], big["uncertainty_cycles"]),
       "%s: largest |offset| is CPU %d's %+d +/- %d" % (label, big["cpu"], big["offset_cycles"], big["uncertainty_cycles"]))
    out = sorted(p["cpu"] for p in meas if abs(p["offset_cycles"]) > p["uncertainty_cycles"])
    got = sorted(int(c) for c in re.findall(r"outside its uncertainty: CPU (\d+)", t))
    ok(got == out[:8], "%s: the pairs outside their uncertainty are named: %s" % (label, out))
    linux = "would mark the TSC unstable" if sync["linux_would_mark_unstable"] else "would keep the TSC"
    ok(("Linux " + linux) in t, "%s: what Linux would conclude: %s" % (label, linux))
    hz = tsc_hz(log)
    names = [k[:-len("_p50_cycles")] for k in per if k.endswith("_p50_cycles")]
    ok(names[:2] == ["tsc", "rdtscp"] and ("lapic" in names) == ("lapic" in {r.get("name") for r in read(log).records
                                                                           if r.get("type") == "timer" and r.get("samples")}),
       "%s: percpu has tsc, rdtscp, and lapic as the boot CPU measured it: %s" % (label, names))
    for pre in names:
        p50 = [ns(x, hz) for x in per[pre + "_p50_cycles"]]
        v = [x for x in p50 if x is not None]
        s = sorted(v)
        med = s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2
        line = "%-12s p50 over %d CPUs: min %.1f ns (CPU %d), median %.1f, max %.1f (CPU %d)" % (
            pre, len(v), min(v), p50.index(min(v)), med, max(v), p50.index(max(v)))
        ok(line in t, "%s: per-CPU %s spread: %s" % (label, pre, line.split(": ", 1)[1]))
    ct = t[t.index("\ncontention: "):] if "\ncontention: " in t else ""
    ct = ct.split("\nlatency ")[0]
    rows = re.findall(r"^  ([a-z][\w-]*)? +(\d+) +([\d.]+|-) +([\d.]+|-) +([\d.]+|-) +([\d.]+|-) +(\d+|-)", ct, re.M)
    got, name = [], None
    for r in rows:
        name = r[0] or name
        got.append((name, int(r[1]), r[2], r[3], r[6]))
    want = [(c["counter"], lv["n"], f1(lv["p50_ns"]), f1(lv["p99_ns"]),
             "-" if lv["reads_per_s"] is None else "%.0f" % lv["reads_per_s"]) for c in cont for lv in c["readers"]]
    ok(got == want and len(want) >= 6,
       "%s: contention: every counter and reader count with its p50, p99 and reads/s (%d rows)" % (label, len(want)))
    if lat:
        vd = re.findall(r"^ +(\d+)(?: +\d+){7} +[\d.]+ +[\d.]+ +\S+  (pass|fail)$", t, re.M)
        ok(vd == [(str(i), v) for i, v in enumerate(lat["verdict"])],
           "%s: latency: each CPU's bins and verdict (%s)" % (label, lat["verdict"]))

def cmd_json(log, jpath, label):
    d = json.load(open(jpath))
    run = d["runs"][0]
    good = True
    for key, typ in (("cpus", "cpus"), ("team_check", "team_check"), ("tsc_sync", "tsc_sync"),
                     ("percpu", "percpu"), ("latency", "latency")):
        good &= run[key] == first(log, typ)
    good &= run["contention"] == [r for r in read(log).records if r["type"] == "contention"]
    good &= run["tsc_sync_pairs"] == [r for r in read(log).records if r["type"] == "tsc_sync_pairs"]
    good &= run["timers_on_cpus"] == [r for r in read(log).records if r["type"] == "timer" and "cpu" in r]
    ok(good, "%s: show --json embeds cpus, team_check, tsc_sync, percpu, contention, latency whole" % label)

def cmd_damage(log, tool, outdir):
    """Each multi-CPU record of LOG damaged in turn: show must exit 3, name the
    line where that record belongs, and show nothing of the record's section."""
    import subprocess
    gone = {"cpus": r"^cpus +\d+ listed", "team_check": r"^team +\d+ of",
            "tsc_sync": r"^tsc sync  (synchronized|NOT|not known)", "percpu": r"^per-cpu +\d+ reads",
            "contention": r"^  hpet +1 ", "latency": r"^latency +[\d.]+ s on"}
    for typ, pattern in gone.items():
        if first(log, typ) is None:
            continue
        bad = "%s/damaged-%s.log" % (outdir, typ)
        lines = read_lines(log)
        n = next(i for i, l in enumerate(lines) if l.startswith('{"type":"%s"' % typ))
        k = lines[n].index('"seq"') + 10
        k += re.search(r"[1-9]", lines[n][k:]).start()
        lines[n] = lines[n][:k] + chr(ord(lines[n][k]) ^ 1) + lines[n][k + 1:]
        write_lines(bad, lines)
        r = subprocess.run([tool, "show", bad], capture_output=True, text=True)
        j = subprocess.run([tool, "show", "--json", bad], capture_output=True, text=True)
        named = re.findall(r"line %d: damaged, left out \(by its place, (?:the|a) ([^)]*) record\)" % (n + 1), r.stdout)
        left = json.loads(j.stdout)["runs"][0]["cpu_records_left_out"] if j.stdout else []
        good = r.returncode == 3 and named and all(typ in w for w in named) and not re.search(pattern, r.stdout, re.M)
        good &= [x["line"] for x in left] == [n + 1] and typ in left[0]["in_place_of"]
        ok(good, "damaged %s record (line %d): show exits %d, names it (%s), shows nothing of it; --json names it"
           % (typ, n + 1, r.returncode, named[:1]))

# ---- compare ---------------------------------------------------------------------

def cmd_compare(text, *logs):
    t = open(text, encoding="utf-8").read()
    multi = [i for i, l in enumerate(logs) if (first(l, "cpus") or {}).get("started", 0) > 1]
    counters = []
    for i in multi:
        for r in read(logs[i]).records:
            if r["type"] == "contention" and r["counter"] not in counters:
                counters.append(r["counter"])
    for c in counters:
        sec = t.split("== contention: %s read by many CPUs at once ==" % c)
        if not ok(len(sec) == 2, "compare: a contention section for %s" % c):
            continue
        sec = sec[1].split("\n== ")[0]
        ok("No test" in sec, "compare %s: says no test (no rounds)" % c)
        have = [i for i in multi if any(r.get("counter") == c for r in read(logs[i]).records)]
        levels = sorted({lv["n"] for i in have for r in read(logs[i]).records if r.get("counter") == c
                         for lv in r["readers"]})
        rows = {int(m[0]): m[1].split() for m in re.findall(r"^ +(\d+) +(.*)$", sec, re.M)}
        if re.search(r"^p50 ns +n=", sec, re.M):  # logs as rows: blocks of levels, p50 then reads/s
            rows, cols, part = {}, [], 0
            for line in sec.splitlines():
                f = line.split()
                if line.startswith(("p50 ns ", "reads/s ")):
                    part = 0 if line.startswith("p50") else 1
                    cols = [int(x[2:]) for x in f[2 if part == 0 else 1:]]
                elif f and re.fullmatch(r"\[\d+\]", f[0]) and cols:
                    i_col = have.index(int(f[0][1:-1]) - 1) if int(f[0][1:-1]) - 1 in have else -1
                    for n, v in zip(cols, f[1:]):
                        rows.setdefault(n, [None] * (2 * len(have)))[2 * i_col + part] = v
        good = sorted(rows) == levels
        for i_col, i in enumerate(have):
            rec = next(r for r in read(logs[i]).records if r.get("counter") == c)
            byn = {lv["n"]: lv for lv in rec["readers"]}
            for n in levels:
                cells = rows.get(n, [])[2 * i_col:2 * i_col + 2]
                lv = byn.get(n)
                want = [f1(lv["p50_ns"]), "%.0f" % lv["reads_per_s"]] if lv else ["-", "-"]
                good &= cells == want
        ok(good, "compare %s: per reader count %s, each log's p50 and reads/s side by side (logs %s)"
           % (c, levels, [i + 1 for i in have]))
    for i, l in enumerate(logs):
        cp, sy = first(l, "cpus"), first(l, "tsc_sync")
        m = re.search(r"^  \[%d\] (.*)$" % (i + 1), t.split("== CPUs:")[-1], re.M)
        if cp is None:
            continue
        if cp["started"] <= 1:
            ok(m is not None and "no multi-CPU records" in m[1], "compare: [%d] has one CPU: said so" % (i + 1))
        elif sy is None:
            ok(m is not None and "tsc sync no record" in m[1] and "damaged, left out" in m[1],
               "compare: [%d]'s tsc_sync record is damaged: no verdict, the line named" % (i + 1))
        else:
            word = {True: "synchronized", False: "NOT synchronized", None: "not known"}[sy["synchronized"]]
            ok(m is not None and ("tsc sync %s:" % word) in m[1], "compare: [%d]'s sync verdict: %s" % (i + 1, word))

# ---- report ------------------------------------------------------------------------

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.section = None  # the machine section id (runN) or "cpus"
        self.svg = None
        self.svgs = []        # {section, cls, err, outside, polylines: [(cls, counter, log, npoints)]}
        self.text = {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("id"):
            self.section = a["id"]
        if tag == "svg":
            self.svg = {"section": self.section, "cls": a.get("class"), "err": 0, "outside": 0, "lines": []}
        if self.svg is not None:
            if tag == "line" and a.get("class") == "err":
                self.svg["err"] += 1
            if tag == "g" and a.get("data-outside") == "1":
                self.svg["outside"] += 1
            if tag == "polyline":
                self.svg["lines"].append((a.get("class"), a.get("data-counter"), a.get("data-log"),
                                          len(a.get("points", "").split())))
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
    def handle_endtag(self, tag):
        if tag == "svg" and self.svg is not None:
            self.svgs.append(self.svg)
            self.svg = None
    def handle_data(self, d):
        self.text[self.section] = self.text.get(self.section, "") + d

def cmd_report(page, *logs):
    p = Page()
    p.feed(open(page, encoding="utf-8").read())
    multi = []
    for i, l in enumerate(logs):
        sec, cp = "run%d" % (i + 1), first(l, "cpus")
        svgs = [s for s in p.svgs if s["section"] == sec]
        off = [s for s in svgs if s["cls"] == "offsets"]
        con = [s for s in svgs if s["cls"] == "contention"]
        if cp is None:
            continue
        if cp["started"] <= 1:
            ok("1 CPU (" in p.text.get(sec, "") and not off and not con,
               "report [%d]: one CPU: '1 CPU', no offset plot, no contention curves" % (i + 1))
            continue
        multi.append(i)
        meas = [q for q in pair_list(l) if q["offset_cycles"] is not None]
        outside = [q for q in meas if abs(q["offset_cycles"]) > q["uncertainty_cycles"]]
        if first(l, "tsc_sync") is None:
            ok(not off and "damaged and left out; by its place, the tsc_sync record" in p.text.get(sec, ""),
               "report [%d]: tsc_sync damaged: no offset plot, the left-out line named" % (i + 1))
        else:
            ok(len(off) == 1 and off[0]["err"] == len(meas) and off[0]["outside"] == len(outside),
               "report [%d]: offset plot with one error bar per pair (%d), %d outside in red"
               % (i + 1, len(meas), len(outside)))
        cont = [r for r in read(l).records if r["type"] == "contention" and "refused" not in r]
        p50 = sorted((c, n) for s in con for k, c, _, n in s["lines"] if k == "p50")
        p99 = sorted(c for s in con for k, c, _, _ in s["lines"] if k == "p99")
        want = sorted((r["counter"], len(r["readers"])) for r in cont)
        ok(len(con) == 1 and p50 == want and p99 == sorted(c for c, _ in want),
           "report [%d]: contention curves, one p50 and one p99 polyline per counter: %s" % (i + 1, want))
    page_cont = [s for s in p.svgs if s["section"] == "cpus" and s["cls"] == "contention"]
    if len(multi) >= 2:
        good = len(page_cont) >= 1
        for s in page_cont:
            counters = {c for _, c, _, _ in s["lines"]}
            logs_drawn = sorted(int(g) for k, _, g, _ in s["lines"] if k == "p50")
            good &= len(counters) == 1 and logs_drawn == [i + 1 for i in multi
                                                       if any(r.get("counter") in counters for r in read(logs[i]).records)]
        ok(good, "report: the CPUs section overlays each counter's curves, one p50 line per multi-CPU log (%d plots)"
           % len(page_cont))
    else:
        ok(not page_cont, "report: fewer than two multi-CPU logs: no CPUs section")

if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"flip": cmd_flip, "hybrid": cmd_hybrid, "wide": lambda a, b, n: cmd_wide(a, b, int(n)),
     "show": cmd_show, "json": cmd_json, "damage": cmd_damage, "compare": cmd_compare, "report": cmd_report}[cmd](*args)
