# SPDX-License-Identifier: BSD-2-Clause
# The doctor's verdict for each kernel log and hardware story that
# tests/doctor/test_doctor.sh ran, in --json and in the text, and what each
# kernel wording's story was read as.
#   python3 tests/doctor/verdicts_check.py OUT
import json
import os
import sys

out = sys.argv[1]


def say(ok, what):
    print(("PASS: " if ok else "FAIL: ") + what)


# name: (verdict, exit, clocksource, add, remove, cause)
WANT = {
    "k419-sync": ("reliable", 4, "tsc", ["tsc=reliable"], [], "watchdog-unstable"),
    "k419-skew": ("unreliable", 5, None, [], [], "hardware"),
    "k419-none": ("unknown", 0, "hpet", [], [], "watchdog-unstable"),
    "k510-sync": ("reliable", 4, "tsc", ["tsc=reliable"], [], "watchdog-unstable"),
    "k510-skew": ("unreliable", 5, "acpi_pm", [], [], "hardware"),
    "k510-none": ("unknown", 0, "acpi_pm", [], [], "watchdog-unstable"),
    "k61-sync": ("reliable", 4, "tsc", [], ["tsc=unstable"], "boot-parameter"),
    "k61-skew": ("unreliable", 5, None, [], [], "hardware"),
    "k61-none": ("unknown", 4, "tsc", [], ["tsc=unstable"], "boot-parameter"),
    "k66-sync": ("reliable", 4, "tsc", ["tsc=reliable"], [], "watchdog-unstable"),
    "k66-skew": ("unreliable", 5, "acpi_pm", [], [], "hardware"),
    "k66-none": ("unknown", 0, "acpi_pm", [], [], "watchdog-unstable"),
    "clean-sync": ("reliable", 0, "tsc", [], [], "none"),
    "clean-skew": ("unreliable", 5, None, ["tsc=unstable"], [], "hardware"),
    "clean-none": ("unknown", 0, "tsc", [], [], "none"),
}


def verdict(name, want):
    """The JSON's verdict and the text's, for one combination."""
    verdict, rc, cs, add, rm, cause = want
    rcs = open(os.path.join(out, name + ".rc")).read().split()
    try:
        d = json.load(open(os.path.join(out, name + ".json")))
    except ValueError as e:
        say(False, "%s: --json is not JSON: %s" % (name, e))
        return
    r = d["recommendation"]
    got = (d["tsc_verdict"], int(rcs[0]), r["clocksource"], r["kernel_parameters"], r["remove_parameters"], d["cause"])
    ok = got[0] == verdict and got[1] == rc and (cs is None or got[2] == cs) and got[3][:len(add)] == add \
        and all(p in got[3] for p in add) and got[4] == rm and got[5] == cause and int(rcs[1]) == rc
    if verdict == "unreliable":
        ok = ok and "tsc=reliable" not in r["kernel_parameters"] and r["clocksource"] in ("hpet", "acpi_pm")
    if verdict == "unknown":
        ok = ok and "bare-metal log" in (r["next_step"] or "")
    say(ok, "%s: verdict %s, clocksource %s, add %s, remove %s, exit %d (text exit %s)" %
        (name, got[0], got[2], got[3], got[4], got[1], rcs[1]) + ("" if ok else " (wanted %r)" % (want,)))
    txt = open(os.path.join(out, name + ".txt")).read()
    say(txt.startswith("TSC: " + verdict) and all(p in txt for p in add + rm) and
        ("GRUB_CMDLINE_LINUX" in txt) == bool(add or rm),
        "%s: the text says the same verdict and parameters, with where they go" % name)


def events(name):
    return json.load(open(os.path.join(out, name + ".json")))["events"]


def stories():
    """What each kernel wording's story must have been read as."""
    ev = events("k419-sync")
    marks = [e for e in ev if e["kind"] == "watchdog-unstable"]
    say(len(marks) == 1 and marks[0]["clocksource"] == "tsc" and marks[0]["reference"] == "hpet" and marks[0]["cpu"] == 2
        and abs(marks[0]["timestamp"] - 312.514234) < 1e-6, "4.19 (dmesg): the watchdog mark on CPU2, tsc against hpet, at 312.514234 s")
    say([e["clocksource"] for e in ev if e["kind"] == "switched"] == ["tsc-early", "tsc", "hpet"],
        "4.19: the three switches, tsc-early, tsc, hpet")
    say(any(e["kind"] == "calibration" and "Refined" in e["line"] for e in ev), "4.19: the refined calibration line")
    ev = events("k510-sync")
    marks = [e for e in ev if e["kind"] == "watchdog-unstable"]
    say(len(marks) == 1 and marks[0]["clocksource"] == "tsc-early" and marks[0]["reference"] == "refined-jiffies"
        and abs(marks[0]["timestamp"] - 0.98) < 1e-6, "5.10 (/dev/kmsg): tsc-early marked against refined-jiffies at 0.98 s")
    txt = open(os.path.join(out, "k510-sync.txt")).read()
    say("timer interrupts" in txt, "5.10: the reference blamed is jiffies' lost timer interrupts")
    ev = events("k61-none")
    say(any(e["kind"] == "boot-parameter" and e["timestamp"] is None for e in ev) and
        [e["clocksource"] for e in ev if e["kind"] == "switched"] == ["hpet"],
        "6.1 (journalctl -k): the boot-parameter mark (no kernel timestamp in this format) and the switch to hpet")
    ev = events("k66-sync")
    marks = [e for e in ev if e["kind"] == "watchdog-unstable"]
    rb = [e for e in ev if e["kind"] == "readback-delay"]
    say(len(marks) == 1 and marks[0]["reference"] == "acpi_pm" and len(rb) == 1 and rb[0]["reference"] == "acpi_pm"
        and rb[0]["clocksource"] == "tsc" and rb[0]["cpu"] == 5,
        "6.6: the skew mark against acpi_pm (wd_nsec, skewed) and the read-back-delay mark")


def evidence():
    """The evidence the verdicts cite, and the --json keys."""
    d = json.load(open(os.path.join(out, "k419-sync.json")))
    say(any("reference read" in s for s in d["evidence"]) and any("synchronised" in s for s in d["evidence"]),
        "reliable TSC marked by the watchdog: the evidence blames the reference read and cites the sync")
    d = json.load(open(os.path.join(out, "k419-skew.json")))
    say(any("CPU 2" in s and "off CPU 0" in s for s in d["evidence"]) and "CPU 2" in d["summary"],
        "skewed TSC: the summary names CPU 2 and its offset")
    for key in ("current_clocksource", "available", "tsc_verdict", "events", "costs_ns", "recommendation", "evidence"):
        say(key in d, "--json has %s" % key)


for name, want in WANT.items():
    verdict(name, want)
stories()
evidence()
