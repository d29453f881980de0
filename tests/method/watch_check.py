# SPDX-License-Identifier: BSD-2-Clause
"""Checks a watch's records (docs/log-format.md, "The watch") against what
the boot was told to fake.  Each record's crc is checked first.

  watch_check.py LOG none
  watch_check.py LOG drift CLOCK PPM
  watch_check.py LOG step CPU CYCLES DURATION_S
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402


def records(path):
    log = read(path)
    ok(log.bad == 0, "%s: every record's crc is good (%d bad)" % (path, log.bad))
    return log.by_type


def by_name(watch):
    return {c["name"]: c for c in watch["clocks"]}


def none(w, recs, args):
    clocks = by_name(w)
    for name, c in clocks.items():
        ok(abs(c["rate_ppm"]) <= c["u_ppm"],
           "no fault: %s at %+.4f ppm, within its stated %.4f ppm" % (name, c["rate_ppm"], c["u_ppm"]))
    ok(w["odd"] is None and "agree" in w["verdict"], "no fault: no clock named: \"%s\"" % w["verdict"])
    ok(not w["steps"], "no fault: no step (%s)" % w["steps"])
    eras = {e["era"]: e for e in w["linux"]["eras"]}
    ok(all(e["windows_unstable"] == 0 for e in eras.values()), "no fault: no era's watchdog marks the TSC unstable")
    segs = recs.get("watch_segment", [])
    ok(len(segs) >= 2 and all(len(s["ppm"]) == len(w["clocks"]) for s in segs),
       "no fault: %d segments, a rate per clock in each" % len(segs))


def drift(w, recs, args):
    name, ppm = args[0], float(args[1])
    c = by_name(w)[name]
    ok(w["odd"] == name, "drift %s %+g ppm: the watch names %s (odd %s)" % (name, ppm, name, w["odd"]))
    ok(abs(c["rate_ppm"] - ppm) <= c["u_ppm"],
       "drift %s: found %+.4f ppm, within its stated %.4f ppm of %+g" % (name, c["rate_ppm"], c["u_ppm"], ppm))
    others = [x for x in w["clocks"] if x["name"] not in (name, "tsc")]
    ok(all(abs(x["rate_ppm"]) <= x["u_ppm"] for x in others), "drift %s: the other counters agree within theirs" % name)
    eras = {e["era"]: e for e in w["linux"]["eras"]}
    if w["linux"]["reference"] == name and abs(ppm) > 600:
        ok(eras["2026"]["windows_unstable"] == w["windows"] and eras["6.1-2025"]["windows_unstable"] == w["windows"],
           "drift of the watchdog's own clock: the 2026 and 6.1 rules mark the TSC unstable in every window (%d, %d of %d)"
           % (eras["2026"]["windows_unstable"], eras["6.1-2025"]["windows_unstable"], w["windows"]))
    fault = recs["watch_begin"][0].get("fault")
    if fault is not None:
        ok(fault == "drift:%s:%+d" % (name, ppm), "watch_begin names the fault: %s" % fault)
    # The verdict rounds the rate to 0.1 ppm: the printed figure, within the
    # stated uncertainty and that rounding.
    word = "fast" if ppm > 0 else "slow"
    said = re.search(r"runs ([0-9.]+) ppm " + word, w["verdict"])
    ok(said is not None and abs(float(said.group(1)) - abs(ppm)) <= c["u_ppm"] + 0.05,
       "the verdict says so: \"%s\"" % w["verdict"])


def step(w, recs, args):
    cpu, cycles, duration = int(args[0]), int(args[1]), float(args[2])
    hz = recs["watch_begin"][0]["tsc_hz"]
    want_us = cycles / hz * 1e6
    steps = w["steps"]
    ok(len(steps) == 1, "a TSC step on CPU %d: one step found (%s)" % (cpu, steps))
    if not steps:
        return
    s = steps[0]
    ok(s["clock"] == "tsc" and (s["cpu"] == (cpu if cpu else None)),
       "... the TSC's, %s" % ("on CPU %d" % cpu if cpu else "seen by every counter"))
    ok(abs(s["step_us"] - want_us) < max(1.0, abs(want_us) * 0.01),
       "... of %.1f us (%.3f us found)" % (want_us, s["step_us"]))
    ok(duration / 2 - 1 <= s["t_s"] <= duration / 2 + 1, "... half-way, at %.1f s" % s["t_s"])
    if cpu:
        c = [x for x in w["cpus"] if x["cpu"] == cpu]
        ok(c and abs(c[0]["offset_last"] - c[0]["offset_first"] - cycles) < abs(cycles) * 0.01 + 50,
           "CPU %d's offset went from %s to %s cycles" % (cpu, c[0]["offset_first"] if c else "?",
                                                         c[0]["offset_last"] if c else "?"))


def main(argv):
    recs = records(argv[1])
    w = recs.get("watch", [None])[0]
    if not ok(w is not None, "%s: a watch record" % argv[1]):
        return
    {"none": none, "drift": drift, "step": step}[argv[2]](w, recs, argv[3:])
    size = sum(len(json.dumps(r, separators=(",", ":"))) for t in ("watch_begin", "watch_segment", "watch")
               for r in recs.get(t, []))
    print("INFO: the watch's records: %d bytes, %d segments, %d CPUs followed" %
          (size, len(recs.get("watch_segment", [])), len(w["cpus"])))


if __name__ == "__main__":
    main(sys.argv)
