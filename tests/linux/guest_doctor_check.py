# SPDX-License-Identifier: BSD-2-Clause
# The doctor's answers from the two Linux guests of
# tests/linux/test_linux_doctor.sh: its JSON from ttyS1 and its text on the console,
# with tsc=unstable on the kernel command line and without it.
#   python3 tests/linux/guest_doctor_check.py OUT
import json, os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok  # noqa: E402
out = sys.argv[1]
def doctor(name):
    path = os.path.join(out, name, "os.log")
    if not os.path.exists(path):
        return None, None, ""
    text = open(path, "rb").read().decode("utf-8", "replace")
    body = "".join(l[len("tickprobe-guest: doctor: "):] + "\n" for l in text.splitlines()
                   if l.startswith("tickprobe-guest: doctor: "))
    m = re.search(r"^tickprobe-guest: doctor exit (\d+)$", text, re.M)
    console = open(os.path.join(out, name, "console.log"), "rb").read().decode("utf-8", "replace")
    try:
        return json.loads(body), int(m.group(1)) if m else None, console
    except ValueError:
        return None, int(m.group(1)) if m else None, console

d, rc, console = doctor("unstable")
ok(d is not None, "tsc=unstable guest: the doctor's JSON came back on ttyS1")
if d:
    kinds = [e["kind"] for e in d["events"]]
    sw = [e for e in d["events"] if e["kind"] == "switched"]
    r = d["recommendation"]
    ok("boot-parameter" in kinds and d["cause"] == "boot-parameter", "tsc=unstable guest: the cause is the boot parameter")
    ok(sw and sw[0]["clocksource"] == "hpet" and sw[0]["timestamp"] is not None,
       "tsc=unstable guest: the kernel's switch to hpet, with its timestamp (%s)" % (sw[0]["timestamp"] if sw else None))
    ok(r["remove_parameters"] == ["tsc=unstable"] and "tsc=reliable" not in r["kernel_parameters"] and rc == 4,
       "tsc=unstable guest: remove tsc=unstable, never add tsc=reliable without a bare log; exit %s" % rc)
    ok("hpet" in d["costs_ns"] and "acpi_pm" in d["costs_ns"] and r["gain"] and "×" in r["gain"],
       "tsc=unstable guest: costs measured %s; gain: %s" % (d["costs_ns"], r["gain"]))
    ok(d["tsc_verdict"] == "unknown" and "bare-metal log" in (r["next_step"] or ""),
       "tsc=unstable guest: no bare log, verdict unknown, says how to get one")
ok("TSC: unknown" in console and "remove tsc=unstable" in console, "tsc=unstable guest: the doctor's text on the console")

d, rc, console = doctor("plain")
ok(d is not None, "plain guest: the doctor's JSON came back")
if d:
    r = d["recommendation"]
    ok(d["current_clocksource"] == "tsc" and rc == 0 and not r["kernel_parameters"] and not r["remove_parameters"]
       and d["summary"].startswith("Nothing to change"),
       "plain guest: current tsc, nothing needs changing, exit %s: %s" % (rc, d["summary"]))
