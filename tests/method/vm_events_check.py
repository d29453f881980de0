# SPDX-License-Identifier: BSD-2-Clause
"""Checks a watch's VM events (the watch_event records, docs/log-format.md)
against what the host did and the fault the boot was given.  Each record's
crc is checked first.

  vm_events_check.py LOG ID NAME HOST_MIN_S still|counted|any MOVED [CPU CYCLES]

ID NAME: the event; HOST_MIN_S: the host's figure is at least this;
still: the guest's clocks stood still (under TCG), counted: they counted it;
MOVED: how many clocks and CPUs moved; CPU CYCLES: that CPU's TSC moved by
CYCLES, within its tolerance, and no clock moved.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok  # noqa: E402
from watch_check import records  # noqa: E402


def main(argv):
    path, eid, name, host_min, kind, moved = argv[1:7]
    recs = records(path)
    evs = [e for e in recs.get("watch_event", []) if e["id"] == int(eid)]
    if not ok(len(evs) == 1 and evs[0]["name"] == name and evs[0]["state"] == "done",
              "event %s (%s): one watch_event record, done" % (eid, name)):
        return
    e = evs[0]
    ok(e["host_s"] is not None and e["host_s"] >= float(host_min),
       "... the host's figure %s s is at least %s s" % (e["host_s"], host_min))
    if kind == "still":
        ok(e["counted"] is False and e["guest_s"] < 0.1 * e["host_s"],
           "... the guest's clocks stood still: %.6f s of the host's %.3f s" % (e["guest_s"], e["host_s"]))
    elif kind == "counted":
        ok(e["counted"] is True, "... the guest's clocks counted it: %.6f s" % e["guest_s"])
    ok(e["moved"] == int(moved), "... %s clock(s) or CPU(s) moved (%d)" % (moved, e["moved"]))
    clocks_moved = [c["name"] for c in e["clocks"] if c["backward"] or abs(c["jump_ns"]) > c["tolerance_ns"]]
    if len(argv) > 7:
        cpu, cycles = int(argv[7]), float(argv[8])
        c = [x for x in e["cpus"] if x["cpu"] == cpu]
        ok(len(c) == 1 and abs(c[0]["jump_cycles"] - cycles) <= c[0]["tolerance_cycles"],
           "... CPU %d's TSC moved %s cycles (%s +/- %s)" % (cpu, cycles, c[0]["jump_cycles"] if c else None,
                                                            c[0]["tolerance_cycles"] if c else None))
        ok(not clocks_moved, "... and no clock did (%s)" % clocks_moved)
    elif int(moved) == 0:
        ok(not clocks_moved and all(abs(x["jump_cycles"]) <= x["tolerance_cycles"] for x in e["cpus"]),
           "... no clock jumped and every CPU kept its offset")


if __name__ == "__main__":
    main(sys.argv)
