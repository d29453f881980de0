# SPDX-License-Identifier: BSD-2-Clause
"""db summary and compare against mkfleet's truth, computed independently.

Run by tests/tools/test_db.sh from the top of the tree.  Arguments: DIR and
the OS capture's clock_gettime(MONOTONIC) counter, named by the host's
clocksource (clock_gettime(MONOTONIC)@tsc, @kvm-clock, ...).
"""
import json, math, sys
d, call = sys.argv[1], sys.argv[2]
truth = [json.loads(l) for l in open(d + "/fleet/truth.jsonl")]

def q7(v, q):  # linear between closest ranks
    v = sorted(v); h = (len(v) - 1) * q; i = int(math.floor(h))
    return v[i] + (h - i) * (v[i + 1] - v[i]) if i + 1 < len(v) else v[i]

def close(a, b):
    return abs(a - b) <= 1e-4 * max(1.0, abs(b))

s = json.load(open(d + "/summary.json"))
ok = s["runs"] == 80 and s["machines"] == 40 and s["damaged_records"] == 0
print(("PASS" if ok else "FAIL") + ": summary totals" + ("" if ok else ": %r" % {k: s[k] for k in ("runs", "machines", "damaged_records")}))
names = sorted({n for t in truth for n in t["counters"]})
bad = []
for n in names:
    per = [q7([r["run_p50"] for r in t["counters"][n]], 0.5) for t in truth if n in t["counters"]]
    got = s["counters"].get(n)
    want = dict(machines=len(per), median_p50_ns=q7(per, .5), iqr_p50_ns=q7(per, .75) - q7(per, .25),
                min_p50_ns=min(per), max_p50_ns=max(per))
    if not got or any(not close(got[k], want[k]) for k in want):
        bad.append((n, got, want))
print(("PASS" if not bad else "FAIL") + ": summary of %d counters equals the independent computation" % len(names)
      + ("" if not bad else ": %r" % bad[:2]))

# Student's t, two-sided 95 %, by degrees of freedom: 10 + 10 rounds (bare
# metal) and 10 + 5 (a quick OS run against bare metal).
T95 = {18: 2.101, 13: 2.160}
def pair(a, b):
    res = dict(machines=0, a_faster=0, b_faster=0, no_difference=0); ratios = []
    for t in truth:
        if a not in t["counters"] or b not in t["counters"]:
            continue
        x = [v for r in t["counters"][a] for v in r["p50"]]; y = [v for r in t["counters"][b] for v in r["p50"]]
        nx, ny = len(x), len(y)
        mx, my = sum(x) / nx, sum(y) / ny
        vx = sum((v - mx) ** 2 for v in x) / (nx - 1); vy = sum((v - my) ** 2 for v in y) / (ny - 1)
        df = nx + ny - 2
        e = T95[df] * math.sqrt(((nx - 1) * vx + (ny - 1) * vy) / df) * math.sqrt(1 / nx + 1 / ny)
        res["machines"] += 1
        if abs(mx - my) <= e: res["no_difference"] += 1
        elif mx < my: res["a_faster"] += 1
        else: res["b_faster"] += 1
        ratios.append(mx / my)
    res["ratio"] = dict(median=q7(ratios, .5), min=min(ratios), max=max(ratios))
    return res

for f, a, b in (("pair.json", "hpet", "acpi-fast"), ("pair2.json", call, "tsc")):
    got, want = json.load(open(d + "/" + f)), pair(a, b)
    ok = all(got[k] == want[k] for k in ("machines", "a_faster", "b_faster", "no_difference")) and \
        all(close(got["ratio"][k], want["ratio"][k]) for k in ("median", "min", "max"))
    print(("PASS" if ok else "FAIL") + ": compare %s %s equals the independent t-test (%d/%d/%d of %d)" % (
        a, b, want["a_faster"], want["b_faster"], want["no_difference"], want["machines"])
        + ("" if ok else ": got %r want %r" % (got, want)))
ok = 0 < json.load(open(d + "/pair.json"))["b_faster"] < 40
print(("PASS" if ok else "FAIL") + ": the fleet answer is not one-sided (both verdicts occur)")
