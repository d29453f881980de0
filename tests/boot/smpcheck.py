#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Check the `cpus` and `team_check` records of one boot (docs/log-format.md),
and print each AP's start-up time.

    smpcheck.py LOG --label NAME [--count N] [--started N] [--states S,S,...]
                [--why TEXT] [--team [--dropped N,...]] [--exception-cpu N] [--quiet]

--states: every entry's state in order ("bsp", "running", "no response",
"disabled"); --why: every entry that is not running says TEXT in its "why";
--team: team_check says every started CPU (but those --dropped names) returned
and counted itself in, and that the second run left the dropped ones out;
--exception-cpu: the exception record names CPU N and its APIC ID.
Prints PASS:/FAIL: lines and exits 1 when any failed.
"""
import argparse
import json
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import checklog  # noqa: E402


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
