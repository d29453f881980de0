#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Damage real tickprobe logs in every way a serial capture gets damaged, run
each variant through `tickprobe show --json`, `tickprobe show` and
`tickprobe compare GOOD VARIANT`, and check two things:

  1. the exit status: 0 only for an undamaged capture (noise, CRLF, ANSI,
     several complete boots), 3 when damaged but some record is usable, 2
     when no record is;
  2. no damaged number is ever printed as good: every value the tools print
     comes from a record line that is intact in the variant (its CRC checks,
     independently of the C reader: tests/boot/checklog.py) and equals the
     original log's record; a counter whose only record is damaged is not
     printed at all.

    mutate.py TOOL WORKDIR GOOD.log [GOOD2.log ...] [--seed N] [--flips N]

--flips: bit flips per record line (the first byte, the type, a digit of
seq, the crc, one anywhere, the rest in digits of numbers).

Prints one FAIL: line per wrong variant (at most 5 per kind), then a PASS:
or FAIL: line per kind with the number of variants.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "boot"))
import checklog  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import clean_lines, crc_check  # noqa: E402

TABLE_COLS = [("p50_ns", "cost_ns.p50"), ("min_ns", "cost_ns.min"), ("mean_ns", "cost_ns.mean"),
              ("sd_ns", "cost_ns.sd"), ("p99_ns", "cost_ns.p99"), ("max_ns", "cost_ns.max"),
              ("reads_per_s", "throughput.reads_per_s"), ("freq_ppm", "freq.ppm"),
              ("freq_err_ppm", "freq.err_ppm")]
EMBEDDED = ["begin", "machine", "tsc", "overhead", "acpi", "end"]
ANSI_NOISE = [b"\x1b[0m", b"\x1b[1;37;40m", b"\x1b[2J", b"\x1b[01;01H", b"\x1b[=3h", b"\x1b(B", b"\x1b[K"]
FIRMWARE = [b"\x1b[2J\x1b[01;01H\x1b[=3hBdsDxe: loading Boot0001 \"UEFI QEMU HARDDISK\"",
            b"BdsDxe: starting Boot0001", b"\x1b[H\x1b[J  Booting `tickprobe (quick)'", b""]


def with_derived(rec, hz):
    """A timer record as the readers see it (docs/log-format.md, "Derived
    members"): a measured one (samples > 0) present and healthy; cost_ns and
    throughput.reads_per_s, which the log leaves out, from the cycles and the
    run's tsc.hz (ns = cycles * 1e9 / hz, 1 decimal).  Without an intact tsc
    record before it (hz None) there are no ns."""
    if rec.get("type") != "timer":
        return rec
    r = json.loads(json.dumps(rec))
    if "healthy" not in r and isinstance(r.get("samples"), int) and r["samples"] > 0:
        r["present"] = r["healthy"] = True
    if hz is None or not isinstance(r.get("cost_cycles"), dict) or "cost_ns" in r:
        return r
    r["cost_ns"] = {k: round(v * 1e9 / hz, 1) for k, v in r["cost_cycles"].items()}
    tp = r.get("throughput")
    if isinstance(tp, dict) and tp.get("cycles") and "reads_per_s" not in tp:
        tp["reads_per_s"] = round(tp["reads"] * hz / tp["cycles"], 1)
    return r


def get(obj, path):
    for p in path.split("."):
        if not isinstance(obj, dict) or p not in obj:
            return None
        obj = obj[p]
    return obj


class Source:
    """One undamaged log: its lines and which of them are records."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.data = f.read()
        self.lines = self.data.split(b"\n")
        self.rec_idx = [i for i, l in enumerate(self.lines) if clean_lines(l)[0].lstrip().startswith(b"{")]
        self.records = {}
        for i in self.rec_idx:
            line = clean_lines(self.lines[i])[0]
            ok, why = crc_check(line)
            if not ok:
                raise SystemExit(f"FAIL: setup: {path} line {i + 1} is damaged already: {why}")
            self.records[line] = json.loads(line)  # its crc held just above
        hz = next((o["hz"] for o in self.records.values() if o["type"] == "tsc"), None)
        self.timers = [with_derived(o, hz) for o in self.records.values() if o["type"] == "timer"]


def intact_records(data, sources):
    """Record lines of the capture whose CRC checks: each must be an original record."""
    out = []
    for line in clean_lines(data):
        s = line.lstrip()
        k = s.find(b'{"type":"')
        if k < 0:
            continue
        s = s[k:]
        ok, _ = crc_check(s)
        if not ok:
            continue
        for src in sources:
            if s in src.records:
                out.append(src.records[s])
                break
        else:
            out.append({"type": "?", "_unknown": s[:60].decode("utf-8", "replace")})
    return out


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))


def round_stats(rec, metric="p50"):
    vals = [v for v in checklog.round_values(rec.get("rounds"), metric) if isinstance(v, (int, float))]
    n = len(vals)
    if n < 2:
        return None
    s = sorted(vals)
    med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    mean = sum(vals) / n
    sd = (sum((v - mean) ** 2 for v in vals) / (n - 1)) ** 0.5
    return [n, s[0], s[-1], med, mean, sd]


class Variant:
    def __init__(self, kind, name, data, sources, clean):
        self.kind, self.name, self.data, self.sources, self.clean = kind, name, data, sources, clean


def check_variant(tool, workdir, good, v):
    """Returns a list of reasons the tools got this variant wrong."""
    path = os.path.join(workdir, "variant.log")
    with open(path, "wb") as f:
        f.write(v.data)
    intact = intact_records(v.data, v.sources)
    why = [f"intact line not from the original: {r['_unknown']}" for r in intact if r["type"] == "?"]
    want = 0 if v.clean else (3 if intact else 2)
    timers, hz = {}, None
    for r in intact:  # in the capture's order: a run's tsc record comes before its timers
        if r["type"] == "begin":
            hz = None
        elif r["type"] == "tsc":
            hz = r.get("hz")
        elif r["type"] == "timer":
            timers.setdefault(r["name"], []).append(with_derived(r, hz))

    # show --json
    p = subprocess.run([tool, "show", "--json", path], capture_output=True)
    if p.returncode != want:
        why.append(f"show --json exits {p.returncode}, not {want}: {p.stderr.decode(errors='replace')[:160]}")
    try:
        doc = json.loads(p.stdout) if p.stdout.strip() else {"runs": []}
    except ValueError as e:
        doc = {"runs": []}
        why.append(f"show --json output is not JSON: {e}")
    for run in doc.get("runs", []):
        for t in run.get("timers", []):
            name = t.get("counter")
            cands = timers.get(name, [])
            if not cands:
                why.append(f"show --json prints counter {name}, whose record is damaged or missing")
                continue
            if not any(all(close(t.get(k), get(r, path_)) if not isinstance(get(r, path_), bool) else t.get(k) == get(r, path_)
                           for k, path_ in TABLE_COLS) and t.get("healthy") == r.get("healthy")
                       and t.get("reason") == r.get("reason") for r in cands):
                why.append(f"show --json: counter {name}: values differ from the intact record: {json.dumps(t)[:200]}")
        # Counters absent by design come from an intact plan record only.
        plans = [r.get("absent") or {} for r in intact if r["type"] == "plan"]
        absent = run.get("absent") or {}
        if absent and absent not in plans:
            why.append(f"show --json: absent {json.dumps(absent)[:120]} is no intact plan record's")
        for k in EMBEDDED:
            e = run.get(k)
            if e is not None and not any(e == r for r in intact if r["type"] == k):
                why.append(f"show --json: embedded {k} record is not an intact original one (seq {e.get('seq') if isinstance(e, dict) else '?'})")

    # show (the table)
    plans_absent = [r.get("absent") or {} for r in intact if r["type"] == "plan"]
    p = subprocess.run([tool, "show", path], capture_output=True)
    if p.returncode != want:
        why.append(f"show exits {p.returncode}, not {want}")
    in_table = False
    for line in p.stdout.decode(errors="replace").splitlines():
        if line.startswith("counter") and "p50 ns" in line:
            in_table = True
            continue
        # the table ends at a blank line, or where the machine/tsc/overhead/acpi
        # summary starts (no blank line before it when `machine` is missing)
        if not line.strip() or re.match(r"^(machine|tsc|overhead|acpi) +\S.*(MHz|frequency unknown|cycles,|root |family)", line):
            in_table = False
            continue
        if not in_table or line.lstrip().startswith("note:") or line.startswith(" "):
            continue
        f = line.split()
        name = f[0]
        m = re.match(r"^(\S+) +absent by design: (.*)$", line)
        if m:  # from the plan record's absent, which must be intact
            if not any(p.get(m[1]) == m[2] for p in plans_absent):
                why.append(f"show says {m[1]} is absent by design, but no intact plan record says so")
            continue
        cands = timers.get(name, [])
        if not cands:
            why.append(f"show prints a row for {name}, whose record is damaged or missing")
            continue

        def cell(rec, path_, fmt):
            x = get(rec, path_)
            return "-" if x is None else fmt % x
        got = f[1:7]
        if not any(got == [cell(r, "cost_ns.p50", "%.1f"), cell(r, "cost_ns.min", "%.1f"),
                           cell(r, "cost_ns.mean", "%.1f"), cell(r, "cost_ns.sd", "%.1f"),
                           cell(r, "cost_ns.p99", "%.1f"), cell(r, "throughput.reads_per_s", "%.0f")]
                   for r in cands):
            why.append(f"show: row for {name} differs from the intact record: {line.strip()[:120]}")

    # compare GOOD VARIANT
    p = subprocess.run([tool, "compare", good.path, path], capture_output=True)
    want_c = want if intact else 2
    if p.returncode != want_c:
        why.append(f"compare exits {p.returncode}, not {want_c}: {p.stderr.decode(errors='replace')[:160]}")
    out = p.stdout.decode(errors="replace").splitlines()
    good_timers = {t["name"]: t for t in good.timers}
    legend, counter = {}, None
    logs = []
    for i, line in enumerate(out):
        m = re.match(r"^== (\S+): per-round p50, ns ==$", line)
        if m:
            counter, legend = m.group(1), {}
            continue
        m = re.match(r"^([x+*%#@O]) (\S.*)$", line)
        if m and counter and not re.match(r"^\s*\d+\s", m.group(2)):
            legend[m.group(1)] = m.group(2)
            continue
        m = re.match(r"^([x+*%#@O])\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", line)
        if m and counter:
            got = [float(x) for x in m.groups()[1:]]
            src = legend.get(m.group(1), "")
            if src == good.path:
                cands = [good_timers.get(counter)] if counter in good_timers else []
            else:
                cands = timers.get(counter, [])
            if not cands:
                why.append(f"compare: {counter} from {src}: statistics printed from a damaged or missing record")
                continue
            if not any((st := round_stats(r)) and all(close(a, b) for a, b in zip(got, st)) for r in cands):
                why.append(f"compare: {counter} from {src}: N/min/max/median/avg/sd {got} not those of the intact record")
            continue
        if line.startswith("  [") and "]" in line:
            logs.append(line.split("] ", 1)[1])
        if line.startswith("counter") and logs and line.rstrip().endswith("[%d]" % len(logs)):
            w = len(line) - 19 * len(logs)
            for row in out[i + 1:]:
                if not row.strip() or row.startswith("Kernel"):
                    break
                name = row[:w].strip()
                for j, lg in enumerate(logs):
                    c = row[w + 19 * j:w + 19 * (j + 1)].strip()
                    if not c or c == "-":
                        continue
                    cands = [good_timers.get(name)] if lg == good.path else timers.get(name, [])
                    cands = [r for r in cands if r]
                    if not cands:
                        why.append(f"compare summary: {name} [{j + 1}] printed ({c}) from a damaged record")
                        continue
                    num = c.split()[0]
                    want_cells = {"unhealthy" if get(r, "cost_ns.p50") is None else "%.1f" % get(r, "cost_ns.p50") for r in cands}
                    if num not in want_cells:
                        why.append(f"compare summary: {name} [{j + 1}] is {num}, intact record says {sorted(want_cells)}")
            break
    return why


def variants(srcs, rng, nflips):
    all_src = srcs
    for s in srcs:
        tag = os.path.basename(s.path).rsplit(".", 1)[0]
        L = s.lines
        join = b"\n".join

        # bit flips inside record lines
        for i in s.rec_idx:
            line = L[i]
            rtype = json.loads(line)["type"]  # an undamaged source (Source checked each crc)
            crc_at = line.rfind(b',"crc":"') + 8
            digits = [k for k in range(crc_at - 8) if 0x30 <= line[k] <= 0x39]
            pos = [(0, rng.randrange(7)), (line.find(b'"type":"') + 9, rng.randrange(7)),
                   (line.find(b'"seq":') + 6, rng.randrange(4)), (crc_at + rng.randrange(8), rng.randrange(7))]
            pos += [(rng.choice(digits), rng.randrange(4)) for _ in range(max(0, nflips - 5))]
            pos.append((rng.randrange(len(line)), rng.randrange(8)))
            for k, bit in pos:
                b = bytearray(line)
                b[k] ^= 1 << bit
                yield Variant("flip", f"{tag}: {rtype} line {i + 1} byte {k} bit {bit}",
                              join(L[:i] + [bytes(b)] + L[i + 1:]), [s], False)

        # truncation at every record boundary, and mid-record
        end_i = s.rec_idx[-1]
        for i in s.rec_idx:
            cut = len(join(L[:i])) + (1 if i else 0)
            yield Variant("truncate", f"{tag}: before line {i + 1}", s.data[:cut], [s], False)
        after_end = len(join(L[:end_i + 1])) + 1
        yield Variant("truncate", f"{tag}: after the end record", s.data[:after_end], [s], True)
        yield Variant("truncate", f"{tag}: after the end record, no newline", s.data[:after_end - 1], [s], True)
        for i in [s.rec_idx[0], s.rec_idx[1], s.rec_idx[len(s.rec_idx) // 2], end_i]:
            start = len(join(L[:i])) + (1 if i else 0)
            body = len(L[i].rstrip(b"\r"))  # the probe ends its lines with CRLF
            for n in (body // 2, body - 1):
                yield Variant("truncate", f"{tag}: line {i + 1} cut after {n} of {body} bytes",
                              s.data[:start + n], [s], False)

        # duplicated lines
        for i in s.rec_idx:
            yield Variant("duplicate", f"{tag}: line {i + 1} twice", join(L[:i + 1] + [L[i]] + L[i + 1:]), [s], False)
        texts = [i for i in range(len(L)) if L[i].strip() and i not in s.rec_idx]
        t = texts[len(texts) // 2]
        yield Variant("duplicate", f"{tag}: text line {t + 1} twice", join(L[:t + 1] + [L[t]] + L[t + 1:]), [s], True)

        # reordered lines
        for a, b in zip(s.rec_idx, s.rec_idx[1:]):
            M = list(L)
            M[a], M[b] = M[b], M[a]
            yield Variant("reorder", f"{tag}: lines {a + 1} and {b + 1} swapped", join(M), [s], False)
        M = list(L)
        r = s.rec_idx[3]
        M[r], M[r + 1] = M[r + 1], M[r]
        if r + 1 not in s.rec_idx:
            yield Variant("reorder", f"{tag}: record line {r + 1} after the text line below it", join(M), [s], True)

        # CRLF and ANSI noise
        yield Variant("noise", f"{tag}: CRLF", s.data.replace(b"\n", b"\r\n"), [s], True)
        yield Variant("noise", f"{tag}: ANSI at every line start",
                      join([rng.choice(ANSI_NOISE) + l for l in L]), [s], True)
        M = []
        for l in L:
            # three places in the line, filled from the right so that no
            # sequence lands inside another
            for k in sorted((rng.randrange(len(l) + 1) for _ in range(3)), reverse=True):
                l = l[:k] + rng.choice(ANSI_NOISE) + l[k:]
            M.append(l)
        yield Variant("noise", f"{tag}: ANSI inside every line", join(M), [s], True)
        M = []
        for l in L:
            M.append(l)
            if rng.random() < 0.5:
                M.append(rng.choice(FIRMWARE))
        yield Variant("noise", f"{tag}: firmware lines interleaved", join(M), [s], True)
        yield Variant("noise", f"{tag}: firmware text glued before the begin record",
                      join(L[:s.rec_idx[0]] + [b"BdsDxe: starting Boot0001 " + L[s.rec_idx[0]]] + L[s.rec_idx[0] + 1:]),
                      [s], True)
        M = []
        for l in L:
            k = rng.randrange(len(l) + 1)
            M.append(rng.choice(FIRMWARE[:2]) + b"\r\n" + l[:k] + rng.choice(ANSI_NOISE) + l[k:] + b"\r")
        yield Variant("noise", f"{tag}: all of it", join(M), [s], True)

        # several boots in one capture
        yield Variant("concat", f"{tag} + {tag}", s.data + s.data, [s], True)
        half = s.rec_idx[len(s.rec_idx) // 2]
        yield Variant("concat", f"{tag} cut at line {half + 1}, then {tag}",
                      join(L[:half]) + b"\n" + s.data, [s], False)
    if len(srcs) > 1:
        yield Variant("concat", " + ".join(os.path.basename(x.path) for x in srcs),
                      b"".join(x.data for x in srcs), all_src, True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("workdir")
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--flips", type=int, default=12)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    srcs = [Source(p) for p in a.logs]
    counts, bad = {}, {}
    for v in variants(srcs, rng, a.flips):
        counts[v.kind] = counts.get(v.kind, 0) + 1
        why = check_variant(a.tool, a.workdir, v.sources[0], v)
        if why:
            bad[v.kind] = bad.get(v.kind, 0) + 1
            if bad[v.kind] <= 5:
                print(f"FAIL: integrity {v.kind}: {v.name}: " + "; ".join(why[:3]))
    total = sum(counts.values())
    for kind, n in counts.items():
        if bad.get(kind):
            print(f"FAIL: integrity {kind}: {bad[kind]} of {n} variants handled wrongly")
        else:
            print(f"PASS: integrity {kind}: {n} variants, exit status right, no damaged number printed")
    print(f"integrity: {total} variants (seed {a.seed}), each through show --json, show and compare")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
