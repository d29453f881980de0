# SPDX-License-Identifier: BSD-2-Clause
"""The bare-metal watch and the live watch of one VM (tests/linux/
test_linux_watch.sh) must agree: each finds every clock within its own
uncertainty of the consensus, and the clocks both read (the TSC, the HPET,
the PM timer) at the same rate within their two uncertainties.

  watch_agree.py BARE-LOG OS-LOG
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402


def watch(path):
    return read(path).first("watch")


def main(bare_path, os_path):
    bare, live = watch(bare_path), watch(os_path)
    if not ok(bare is not None and live is not None, "a watch record in both logs (bare %s, os %s)"
              % (bare is not None, live is not None)):
        return
    names = {c["name"] for c in live["clocks"]}
    ok({"hpet", "pm_timer"} <= names, "the live watch read the HPET and the PM timer (--raw-io): %s" % sorted(names))
    for w, where in ((bare, "bare metal"), (live, "Linux")):
        ok(w["odd"] is None, "%s: no clock named (%s)" % (where, w["verdict"]))
    b = {c["name"]: c for c in bare["clocks"]}
    for c in live["clocks"]:
        if c["name"] not in b or c["name"] == "tsc":
            continue
        other = b[c["name"]]
        bound = 3 * (c["u_ppm"] + other["u_ppm"]) + 0.01
        ok(abs(c["rate_ppm"] - other["rate_ppm"]) <= bound,
           "%s: %+.3f ppm under Linux, %+.3f ppm on bare metal, within %.3f" %
           (c["name"], c["rate_ppm"], other["rate_ppm"], bound))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
