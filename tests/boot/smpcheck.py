#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Check the `cpus` and `team_check` records of one boot (docs/log-format.md),
and print each AP's start-up time.

    smpcheck.py LOG --label NAME [--count N] [--started N] [--states S,S,...]
                [--why TEXT] [--team [--dropped N,...] [--unwoken N,...] [--idle mwait|hlt]]
                [--contention [--levels L|L|...]] [--exception-cpu N] [--quiet]

--states: every entry's state in order ("bsp", "running", "no response",
"disabled"); --why: every entry that is not running says TEXT in its "why";
--team: team_check says every started CPU (but those --dropped names) returned
and counted itself in, and that the second run left the dropped ones out, and says how idle CPUs
wait (--idle: that way) and which dropped CPUs never woke (--unwoken);
--contention: every contention record's levels name their readers (n distinct
running CPUs), spread over packages before cores before SMT siblings as the
cpus record places them, with an overlap in [0, 1], and at most one level of
two siblings of one core, last; --levels: the levels' readers exactly, as
"0|0,4|s0,1" (s: the siblings' level), checked when no CPU was given up;
--exception-cpu: the exception record names CPU N and its APIC ID.
Prints PASS:/FAIL: lines and exits 1 when any failed.
"""
import argparse
import json
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import checklog  # noqa: E402


def spread_ok(level, place):
    """Packages first, then cores, then threads: no reader shares a core
    with an earlier one while a core of the readers' packages is unused, and
    none shares a package while an unused package is among the readers'."""
    seen_pkg, seen_core = set(), set()
    pkgs = {place[x][0] for x in level}
    cores = {place[x][:2] for x in level}
    for x in level:
        p, core = place[x][0], place[x][:2]
        if p in seen_pkg and len(seen_pkg) < len(pkgs):
            return False
        if core in seen_core and len(seen_core) < len(cores):
            return False
        seen_pkg.add(p)
        seen_core.add(core)
    return True


def check_contention(c, recs, live, want):
    place = {e["cpu"]: (e.get("package"), e.get("core"), e.get("thread")) for e in live}
    cont = [o for o in recs if o.get("type") == "contention" and "readers" in o]
    c.check(bool(cont), "contention: records with levels", f"{len(cont)}")
    for r in cont:
        name = r.get("counter")
        levels = r.get("readers", [])
        ok, why = True, ""
        for i, lv in enumerate(levels):
            cpus, ov = lv.get("cpus"), lv.get("overlap")
            if not (isinstance(cpus, list) and len(cpus) == lv.get("n") and len(set(cpus)) == len(cpus) and
                    all(x in place for x in cpus)):
                ok, why = False, f"level {i}: cpus {cpus} for n {lv.get('n')}"
            elif not ((ov is None and lv.get("returned") == 0) or (isinstance(ov, (int, float)) and 0 <= ov <= 1)):
                ok, why = False, f"level {i}: overlap {ov}"
            elif lv.get("siblings") is True:
                if i != len(levels) - 1 or len(cpus) != 2 or place[cpus[0]][:2] != place[cpus[1]][:2]:
                    ok, why = False, f"level {i}: siblings {cpus} at {[place[x] for x in cpus]}"
            elif lv.get("siblings") is not False or not spread_ok(cpus, place):
                ok, why = False, f"level {i}: {cpus} not spread over {[place[x] for x in cpus]}"
        c.check(ok, f"contention {name}: readers named, spread, overlap in [0, 1], siblings last", why)
        got = "|".join(("s" if lv.get("siblings") else "") + ",".join(map(str, lv.get("cpus", []))) for lv in levels)
        # cpus lists the readers asked for, late or not: the order is exact
        # unless a CPU was given up before (then the top level is smaller).
        full = bool(levels) and max(lv.get("n", 0) for lv in levels) == len(live)
        if want and full:
            c.check(got == want, f"contention {name}: levels {want}", got)
        elif want:
            print(f"note: contention {name}: a CPU was given up before: levels {got} not compared with {want}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--label", required=True)
    ap.add_argument("--count", type=int)
    ap.add_argument("--started", type=int)
    ap.add_argument("--states")
    ap.add_argument("--why")
    ap.add_argument("--team", action="store_true")
    ap.add_argument("--dropped", default="", help="team indices the first run must drop, comma-separated")
    ap.add_argument("--unwoken", default="", help="team indices that never woke, comma-separated")
    ap.add_argument("--idle", choices=("mwait", "hlt"))
    ap.add_argument("--contention", action="store_true")
    ap.add_argument("--levels")
    ap.add_argument("--exception-cpu", type=int)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    c = checklog.Checker(a.label)
    with open(a.log, "rb") as f:
        runs = checklog.split_runs(checklog.clean_lines(f.read()))
    recs = [checklog.as_read(o) for _, o in runs[-1]["records"] if isinstance(o, dict)] if runs else []
    cpus = [o for o in recs if o.get("type") == "cpus"]
    if not c.check(len(cpus) == 1, "one cpus record", f"{len(cpus)} cpus records"):
        return 1
    r = cpus[0]
    lst = r.get("list", [])
    states = [e.get("state") for e in lst]
    live = [e for e in lst if e.get("state") in ("bsp", "running")]
    c.check(r.get("count") == len(lst), "cpus.count is the list's length", f"count {r.get('count')}, {len(lst)} listed")
    c.check(r.get("started") == len(live), "cpus.started counts bsp and running",
            f"started {r.get('started')}, states {states}")
    c.check(states[:1] == ["bsp"] and states.count("bsp") == 1, "the boot CPU is entry 0, once", f"states {states}")
    c.check([e.get("cpu") for e in live] == list(range(len(live))) and
            all(e.get("cpu") is None for e in lst if e not in live),
            "team indices 0..started-1 in entry order, null for the rest", json.dumps([e.get("cpu") for e in lst]))
    ids = [e.get("apic_id") for e in lst]
    c.check(len(set(ids)) == len(ids), "APIC IDs are distinct", f"{ids}")
    keys = {"apic_id", "cpu", "package", "core", "thread", "core_type", "state", "startup_us", "sipis"}
    c.check(all(keys <= set(e) for e in lst), "every entry has the listed members", f"{lst[:1]}")
    ran = [e for e in lst if e.get("state") == "running"]
    c.check(all(isinstance(e.get("startup_us"), (int, float)) and e["startup_us"] > 0 and e.get("sipis") in (1, 2)
                for e in ran), "every running AP has a start-up time and 1 or 2 STARTUPs",
            json.dumps([(e.get("startup_us"), e.get("sipis")) for e in ran]))
    c.check(all(e.get("startup_us") is None for e in lst if e.get("state") != "running"),
            "no start-up time for a CPU that is not running", "")
    c.check(all(isinstance(e.get("why"), str) and e["why"] for e in lst if e not in live),
            "every CPU not running says why", json.dumps([e.get("why") for e in lst if e not in live]))
    if a.count is not None:
        c.check(r.get("count") == a.count, f"count {a.count}", f"count {r.get('count')}")
    if a.started is not None:
        c.check(r.get("started") == a.started, f"started {a.started}", f"started {r.get('started')}")
    if a.states:
        want = a.states.split(",")
        c.check(states == want, f"states {a.states}", f"states {','.join(map(str, states))}")
    if a.why:
        c.check(all(a.why in (e.get("why") or "") for e in lst if e not in live), f"why says '{a.why}'",
                json.dumps([e.get("why") for e in lst if e not in live]))
    multi = ("team_check", "tsc_sync", "percpu", "contention", "latency")
    if a.team and len(live) < 2:
        # One CPU: the cpus record and none of the multi-CPU ones.
        extra = sorted({o.get("type") for o in recs if o.get("type") in multi})
        c.check(not extra, "one CPU running: no team_check, tsc_sync, percpu, contention or latency record",
                ", ".join(extra))
    elif a.team:
        t = [o for o in recs if o.get("type") == "team_check"]
        t = t[0] if t else {}
        n = len(live)
        dropped = [int(x) for x in a.dropped.split(",") if x]
        k = n - len(dropped)
        c.check(t.get("cpus") == n and t.get("returned") == k and t.get("count") == k,
                f"team_check: {k} of {n} CPUs ran and returned", json.dumps(t))
        c.check(t.get("dropped") == dropped, f"team_check: dropped {dropped}", json.dumps(t))
        c.check(t.get("again_returned") == k and t.get("again_count") == k,
                f"team_check: the second run asks and counts only the {k} left", json.dumps(t))
        c.check(t.get("tsc_aux_match") in (None, k), "team_check: rdtscp names each CPU (TSC_AUX)", json.dumps(t))
        c.check(t.get("idle") in ("mwait", "hlt") and (a.idle is None or t.get("idle") == a.idle),
                f"team_check: idle CPUs wait in {a.idle or 'mwait or hlt'}", f"idle {t.get('idle')!r}")
        unwoken = [int(x) for x in a.unwoken.split(",") if x]
        c.check(t.get("unwoken") == unwoken and set(unwoken) <= set(dropped) and
                isinstance(t.get("wake_retries"), int) and t["wake_retries"] >= 0,
                f"team_check: unwoken {unwoken}, among the dropped; wake_retries counted", json.dumps(t))
    if a.contention:
        check_contention(c, recs, live, a.levels)
    if a.exception_cpu is not None:
        x = [o for o in recs if o.get("type") == "exception"]
        x = x[0] if x else {}
        want_id = live[a.exception_cpu]["apic_id"] if a.exception_cpu < len(live) else None
        c.check(x.get("cpu") == a.exception_cpu and x.get("apic_id") == want_id and x.get("vector") == 13,
                f"exception: #GP on CPU {a.exception_cpu} (APIC ID {want_id})", json.dumps(x))
    if not a.quiet:
        times = ", ".join(f"{e['apic_id']}: {e['startup_us']} us ({e['sipis']} SIPI)" for e in ran)
        print(f"startup: {a.label}: {times or 'no AP'}")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
