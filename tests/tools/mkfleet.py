#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Make a fleet of logs from real captures: mkfleet.py OUTDIR N SEED LOG...

Each of the N machines gets its own CPU identity (vendor, brand, family,
model, cores), firmware OEM ID, boot path, and its own cost for every counter:
the real log's values (cost_cycles, or a schema-1 log's cost_ns) scaled by a
per-machine, per-counter factor, with per-round noise.  Every record is written back with its CRC, and the end
record with the run's count and CRC, so the logs read as complete and
undamaged.  The hpet/acpi-fast factors are drawn so that on most machines,
but not all, the HPET is the faster, whatever the two cost in the capture
(under TCG the HPET read is 1.5 to 3 times the PM timer's, and moves with
the host's load): the seed's question has a non-trivial answer.

Prints one JSON line per machine to OUTDIR/truth.jsonl: the values the test
recomputes its expectations from (never from the store).
"""
import json
import os
import random
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import read, sealed  # noqa: E402

VENDORS = ["GenuineIntel", "AuthenticAMD"]
FIRMWARE = ["ALASKA", "DELL", "LENOVO", "HPQOEM", "INSYDE", "BOCHS"]
SCALED = ("min", "p50", "mean", "sd", "p99", "p999", "max")
WHOLE = ("min", "p50", "p99", "p999", "max")  # whole cycles in cost_cycles


def cost_p50_ns(timer, hz):
    """A timer's p50 in ns as the readers take it: cost_ns where the log has
    it (schema 1), else cost_cycles.p50 * 1e9 / the run's tsc.hz, 1 decimal
    (docs/log-format.md, "Derived members")."""
    if "cost_ns" in timer:
        return timer["cost_ns"]["p50"]
    return round(timer["cost_cycles"]["p50"] * 1e9 / hz, 1)


def read_runs(path):
    """The records of each run in a capture, as parsed objects (noise and
    records whose crc does not hold skipped)."""
    runs, cur = [], None
    for rec in read(path).records:
        if rec["type"] == "begin":
            cur = []
            runs.append(cur)
        if cur is not None:
            cur.append(rec)
    return runs


def write_run(records, out):
    """Writes records with fresh seq, CRCs and end record; returns the bytes."""
    lines, crc_all = [], 0
    body = [r for r in records if r["type"] != "end"]
    status = next((r.get("status") for r in records if r["type"] == "end"), "ok")
    for seq, rec in enumerate(body):
        rec = dict(rec)
        rec.pop("crc", None)
        rec["seq"] = seq
        ordered = {"type": rec.pop("type"), "seq": rec.pop("seq")}
        ordered.update(rec)
        text = json.dumps(ordered, separators=(",", ":"))
        assert text.endswith("}")
        head = text[:-1]
        line = sealed(head.encode()).decode() + "\n"
        crc_all = zlib.crc32(line.encode(), crc_all)
        lines.append(line)
    nbytes = sum(len(l) for l in lines)
    end = '{"type":"end","seq":%d,"records":%d,"crc32":"%08x","status":"%s","bytes":%d' % (
        len(body), len(body), crc_all, status, nbytes)
    lines.append(sealed(end.encode()).decode() + "\n")
    out.write("".join(lines))


def scale_obj(obj, keys, f, decimals, whole=()):
    if not isinstance(obj, dict):
        return
    for k in keys:
        if isinstance(obj.get(k), (int, float)):
            obj[k] = round(obj[k] * f) if k in whole else round(obj[k] * f, decimals)


def vary(records, k, rng, factors):
    out = []
    for rec in records:
        rec = json.loads(json.dumps(rec))
        t = rec["type"]
        if t == "machine":
            rec["cpu_vendor"] = VENDORS[k % 2]
            rec["family"] = 6 if k % 2 == 0 else 25
            rec["model"] = 100 + k % 37
            rec["cpu_brand"] = "Fleet %s %d-%d" % ({"GenuineIntel": "Intel", "AuthenticAMD": "AMD"}[rec["cpu_vendor"]],
                                                  rec["family"], k)
            rec["cores"] = [2, 4, 8, 16, 32][k % 5]
            rec["microcode"] = 0x100 + k
            rec["hypervisor"] = None
        elif t == "acpi" and isinstance(rec.get("fadt"), dict):
            rec["fadt"]["oem_id"] = FIRMWARE[k % len(FIRMWARE)]
        elif t == "begin" and rec.get("boot") in ("bios", "uefi"):
            rec["boot"] = "uefi" if k % 3 == 0 else "bios"
        elif t == "timer" and rec.get("samples"):  # measured (healthy is implied)
            f = factors.setdefault(rec["name"], rng.lognormvariate(0, 0.3))
            if "cost_ns" in rec:  # schema 1
                scale_obj(rec["cost_ns"], SCALED, f, 1)
            else:
                scale_obj(rec.get("cost_cycles"), SCALED, f, 1, WHOLE)
            rounds = rec.get("rounds")
            if isinstance(rounds, dict):  # schema 2: {"p50": [...], "mean": [...]}
                n = len(rounds.get("p50") or [])
                noise = [f * rng.uniform(0.98, 1.02) for _ in range(n)]
                for key in ("p50", "mean"):
                    rounds[key] = [None if v is None else round(v * noise[i], 1)
                                   for i, v in enumerate(rounds.get(key) or [])]
            for r in rounds if isinstance(rounds, list) else []:  # schema 1
                scale_obj(r, ("p50", "mean"), f * rng.uniform(0.98, 1.02), 2)
        out.append(rec)
    return out


def main():
    outdir, n, seed, logs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    rng = random.Random(seed)
    sources = [run for path in logs for run in read_runs(path)]
    # The capture's own hpet/acpi-fast cost ratio, taken out of the factors.
    capture = 1.0
    for run in sources:
        hz = next((r.get("hz") for r in run if r["type"] == "tsc"), None)
        p50 = {r["name"]: cost_p50_ns(r, hz) for r in run
               if r["type"] == "timer" and r.get("samples") and r.get("name") in ("hpet", "acpi-fast")
               and (hz or "cost_ns" in r)}
        if p50.get("hpet") and p50.get("acpi-fast"):
            capture = p50["hpet"] / p50["acpi-fast"]
            break
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "truth.jsonl"), "w") as truth:
        for k in range(n):
            # HPET faster than ACPI-fast on about 75 % of the machines: the
            # generated acpi-fast costs 0.5, 2.2, 2.5 or 3 times the
            # generated hpet, give or take 10 %.
            hpet_f = rng.lognormvariate(0, 0.25)
            factors = {"hpet": hpet_f, "acpi-fast": hpet_f * capture * rng.choice([0.5, 2.2, 2.5, 3.0]) *
                       rng.uniform(0.9, 1.1)}
            mdir = os.path.join(outdir, "m%04d" % k)
            os.makedirs(mdir, exist_ok=True)
            rounds = {}
            for i, run in enumerate(sources):
                recs = vary(run, k, rng, factors)
                with open(os.path.join(mdir, "%d.log" % i), "w") as f:
                    write_run(recs, f)
                kind = "os" if recs[0].get("boot") == "linux" else "bare"
                hz = next((r.get("hz") for r in recs if r["type"] == "tsc"), None)
                for r in recs:
                    if r["type"] == "timer" and r.get("samples") and r.get("rounds"):
                        name = r["name"]
                        if kind == "os" and "@" not in name:
                            name = "user:" + name
                        rr = r["rounds"]
                        p50 = rr["p50"] if isinstance(rr, dict) else [x["p50"] for x in rr]
                        rounds.setdefault(name, []).append({"p50": p50, "run_p50": cost_p50_ns(r, hz)})
            truth.write(json.dumps({"machine": k, "counters": rounds}) + "\n")


if __name__ == "__main__":
    main()
