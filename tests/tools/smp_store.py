# SPDX-License-Identifier: BSD-2-Clause
"""The store's rows of an SMP run against the log's records.

Run by tests/tools/test_db.sh from the top of the tree.  Arguments: LOG STORE.
"""
import json, os, sqlite3, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402
recs = read(sys.argv[1]).records
db = sqlite3.connect(sys.argv[2])
hz = next(r["hz"] for r in recs if r["type"] == "tsc")
def rows(cols):
    return [{k: cols[k][i] for k in cols} for i in range(max(len(v) for v in cols.values()))]
def q(sql, run):
    return [tuple(x) for x in db.execute(sql, (run,))]
def num(x):
    return None if x is None else float(x)
for run, label in ((1, "4-CPU capture"), (2, "with a tsc_sync_pairs record")):
    cpus = next(r for r in recs if r["type"] == "cpus")
    want = [(i, c["apic_id"], c["package"], c["core"], c["thread"], c["core_type"], c["state"], c.get("cpu"),
             num(c.get("startup_us")), c.get("sipis")) for i, c in enumerate(rows(cpus["list"]))]
    got = q("SELECT idx, apic_id, package, core, thread, core_type, state, cpu, startup_us, sipis FROM cpus "
            "WHERE run_id=? ORDER BY idx", run)
    ok(got == want and len(want) == 4, "%s: cpus table is the list's columns as rows (%d CPUs)" % (label, len(got)), str((got, want))[:400])
    sync = next(r for r in recs if r["type"] == "tsc_sync")
    got = q("SELECT synchronized, warps, max_warp_cycles FROM tsc_sync WHERE run_id=?", run)
    ok(got == [(None if sync["synchronized"] is None else int(sync["synchronized"]), sync["warps"], sync["max_warp_cycles"])], "%s: tsc_sync row" % label, str(got)[:400])
    want = sorted((p["cpu"], p.get("ref") or 0, num(p["offset_cycles"]), num(p["uncertainty_cycles"]))
                  for p in rows(sync["pairs"]))
    got = q("SELECT cpu, ref, offset_cycles, uncertainty_cycles FROM tsc_sync_pairs WHERE run_id=? ORDER BY cpu, ref", run)
    ok(got == want and len(want) == sync["pairs_total"] == 3, "%s: tsc_sync_pairs, every pair (%d)" % (label, len(got)), str((got, want))[:400])
    want = sorted((r["counter"], l["n"], l["p50_ns"], l["p99_ns"], num(l["reads_per_s"]), l["backwards"])
                  for r in recs if r["type"] == "contention" for l in r["readers"])
    got = q("SELECT counter, readers, p50_ns, p99_ns, reads_per_s, backwards FROM contention WHERE run_id=? "
            "ORDER BY counter, readers", run)
    ok(got == want and len(want) >= 6, "%s: contention, a row per counter and reader count (%d)" % (label, len(got)), str((got, want))[:400])
    timers = [r for r in recs if r["type"] == "timer" and r.get("samples")]
    want = sorted((t["name"], 1, 1, round(t["cost_cycles"]["p50"] * 1e9 / hz, 1), round(t["cost_cycles"]["max"] * 1e9 / hz, 1),
                   json.dumps(t["rounds"]["p50"])) for t in timers)
    got = sorted((n, pr, h, p50, mx, json.dumps(json.loads(rp))) for n, pr, h, p50, mx, rp in
                 q("SELECT name, present, healthy, p50_ns, max_ns, rounds_p50 FROM counters WHERE run_id=? AND samples>0", run))
    ok(got == want and len(want) > 5, "%s: counters, present, healthy and cost_ns restored from cost_cycles (%d)" % (label, len(got)),
       str([(g, w) for g, w in zip(got, want) if g != w][:2] or (len(got), len(want)))[:400])
    absent = next(r for r in recs if r["type"] == "plan").get("absent") or {}
    want = sorted((n, 0, 0, why, 0) for n, why in absent.items())
    got = sorted(q("SELECT name, present, healthy, reason, samples FROM counters WHERE run_id=? AND samples=0", run))
    ok(got == want and len(want) >= 5, "%s: a counters row, absent with its reason, for each in plan.absent (%d)" % (label, len(got)),
       str((got, want))[:400])
    typed = {"timer", "cpus", "tsc_sync", "tsc_sync_pairs", "contention", "rate", "gaps", "ctxsw"}
    want = sorted(r["type"] for r in recs if r["type"] not in typed)
    got = sorted(t for (t,) in q("SELECT type FROM other_records WHERE run_id=?", run))
    ok(got == want and "percpu" in got, "%s: the other records kept whole (%s)" % (label, ",".join(sorted(set(got)))), str((got, want))[:400])
