# SPDX-License-Identifier: BSD-2-Clause
# The doctor's verdict for each kernel log of the corpus and hardware story
# that tests/doctor/test_doctor.sh ran, in --json and in the text: the
# verdict, the clocksource, the parameters to add and remove, the cause and
# the exit status; then the remedies' reasons, the kernel each was judged
# for, and the doctor's text for the 2026 log with the drifting HPET.
#   python3 tests/doctor/verdicts_check.py OUT
import json
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok  # noqa: E402

out = sys.argv[1]


def load(name):
    return json.load(open(os.path.join(out, name + ".json")))


def text(name):
    return open(os.path.join(out, name + ".txt")).read()


# name: (verdict, exit, clocksource (None: the cheaper of the capture's
# HPET and PM timer), add, remove, cause)
OLD_MARK = ("reliable", 4, "tsc", ["tsc=nowatchdog"], [], "watchdog-unstable")
WANT = {
    "k510-propolis-sync": OLD_MARK,
    "k510-propolis-skew": ("unreliable", 5, "acpi_pm", [], [], "cpu-offset"),
    "k510-propolis-none": ("unknown", 0, "acpi_pm", [], [], "watchdog-unstable"),
    "k510-propolis-kmsg-sync": OLD_MARK,
    "k510-propolis-kmsg-skew": ("unreliable", 5, "acpi_pm", [], [], "cpu-offset"),
    "k510-propolis-kmsg-none": ("unknown", 0, "acpi_pm", [], [], "watchdog-unstable"),
    "k510-propolis-hpet": OLD_MARK,
    "k54-jiffies-sync": OLD_MARK,
    "k54-jiffies-skew": ("unreliable", 5, "acpi_pm", [], [], "cpu-offset"),
    "k54-jiffies-none": ("unknown", 0, "acpi_pm", [], [], "watchdog-unstable"),
    "k515-lede-sync": ("reliable", 0, "tsc", [], [], "none"),
    "k515-lede-skew": ("unreliable", 5, "acpi_pm", ["tsc=unstable", "clocksource=acpi_pm"], [], "cpu-offset"),
    "k515-lede-none": ("unknown", 0, "tsc", [], [], "none"),
    "k515-lede-noninv": ("unreliable", 5, "acpi_pm", ["tsc=unstable", "clocksource=acpi_pm"], [], "not-invariant"),
    "k61-param-sync": ("reliable", 4, "tsc", [], ["tsc=unstable"], "boot-parameter"),
    "k61-param-skew": ("unreliable", 5, "hpet", [], [], "cpu-offset"),
    "k61-param-none": ("unknown", 4, "tsc", [], ["tsc=unstable"], "boot-parameter"),
    "k61-param-noninv": ("unreliable", 5, "hpet", [], [], "not-invariant"),
    "k61-idle-sync": ("reliable", 0, "hpet", [], [], "halts-in-idle"),
    "k61-idle-skew": ("unreliable", 5, "hpet", [], [], "cpu-offset"),
    "k61-idle-none": ("unknown", 5, "hpet", [], [], "halts-in-idle"),
    "k61-idle-noninv": ("unreliable", 5, "hpet", [], [], "halts-in-idle"),
    "k612-skew-sync": OLD_MARK,
    "k612-skew-skew": ("unreliable", 5, "acpi_pm", [], [], "cpu-offset"),
    "k612-skew-none": ("unknown", 0, "acpi_pm", [], [], "watchdog-unstable"),
    "k612-skew-hpet": OLD_MARK,
    "k612-skew-pm": ("reliable", 4, "tsc", ["tsc=nowatchdog"], [], "reference-drift"),
    "k612-readback-sync": ("reliable", 4, "tsc", ["tsc=nowatchdog"], [], "reference-delay"),
    "k612-readback-skew": ("unreliable", 5, "acpi_pm", [], [], "cpu-offset"),
    "k612-readback-none": ("unknown", 0, "acpi_pm", [], [], "reference-delay"),
    "k5-mlx-sync": ("reliable", 4, "tsc", ["tsc=nowatchdog"], [], "reference-delay"),
    "k5-mlx-skew": ("unreliable", 5, None, [], [], "cpu-offset"),
    "k5-mlx-none": ("unknown", 0, "hpet", [], [], "reference-delay"),
    "k6-sgi-sync": OLD_MARK,
    "k6-sgi-skew": ("unreliable", 5, "sgi_rtc", [], [], "cpu-offset"),
    "k6-sgi-none": ("unknown", 0, "sgi_rtc", [], [], "watchdog-unstable"),
    "k72-kvmclock-sync": OLD_MARK,
    "k72-kvmclock-skew": ("unreliable", 5, "kvm-clock", [], [], "cpu-offset"),
    "k72-kvmclock-none": ("unknown", 0, "kvm-clock", [], [], "watchdog-unstable"),
    "k71-hpet-sync": OLD_MARK,
    "k71-hpet-skew": ("unreliable", 5, "hpet", [], [], "cpu-offset"),
    "k71-hpet-none": ("unknown", 0, "hpet", [], [], "watchdog-unstable"),
    "k71-hpet-hpet": ("reliable", 4, "tsc", ["hpet=disable"], [], "reference-drift"),
    "k71-cpuskew-sync": ("reliable", 5, "hpet", [], ["clocksource.verify_n_cpus"], "cpu-offset"),
    "k71-cpuskew-skew": ("unreliable", 5, "hpet", [], ["clocksource.verify_n_cpus"], "cpu-offset"),
    "k71-cpuskew-none": ("unknown", 5, "hpet", [], ["clocksource.verify_n_cpus"], "cpu-offset"),
    "k66-tscadjust-sync": ("reliable", 0, "tsc", [], [], "none"),
    "k66-tscadjust-skew": ("unreliable", 5, None, ["tsc=unstable"], [], "cpu-offset"),
    "k66-tscadjust-none": ("unknown", 0, "tsc", [], [], "none"),
    "k618-clean-sync": ("reliable", 0, "tsc", [], [], "none"),
    "k618-clean-skew": ("unreliable", 5, None, ["tsc=unstable"], [], "cpu-offset"),
    "k618-clean-none": ("unknown", 0, "tsc", [], [], "none"),
    "k4-noref-sync": ("reliable", 4, "tsc", [], [], "kernel-fix"),
    "k4-noref-skew": ("unreliable", 5, "hpet", [], ["tsc=reliable", "clocksource=tsc"], "cpu-offset"),
    "k4-noref-none": ("unknown", 0, "hpet", [], [], "watchdog-unstable"),
}


def verdict(name, want):
    """The JSON's verdict and the text's, for one combination."""
    v, rc, cs, add, rm, cause = want
    rcs = open(os.path.join(out, name + ".rc")).read().split()
    try:
        d = load(name)
    except ValueError as e:
        ok(False, "%s: --json is not JSON: %s" % (name, e))
        return
    r = d["recommendation"]
    got = (d["tsc_verdict"], int(rcs[0]), r["clocksource"], r["kernel_parameters"], r["remove_parameters"], d["cause"])
    good = got[0] == v and got[1] == rc and (cs is None or got[2] == cs) and got[3] == add and \
        got[4] == rm and got[5] == cause and int(rcs[1]) == rc
    if v == "unreliable" and cause != "tsc-rate":
        good = good and "tsc=reliable" not in r["kernel_parameters"] and got[2] != "tsc"
    if v == "unknown" and cause not in ("cpu-offset", "halts-in-idle"):
        good = good and "bare-metal log" in (r["next_step"] or "")
    reasons = r.get("add_reasons", []) + r.get("remove_reasons", [])
    good = good and len(r.get("add_reasons", [])) == len(add) and all(x.get("why") for x in reasons)
    ok(good, "%s: verdict %s, clocksource %s, add %s, remove %s, cause %s, exit %d (text exit %s)" %
       (name, got[0], got[2], got[3], got[4], got[5], got[1], rcs[1]) + ("" if good else " (wanted %r)" % (want,)))
    t = text(name)
    ok(t.startswith("TSC: " + v) and all(("add %s: " % p) in t for p in add) and
       all(("remove %s: " % p) in t for p in rm) and ("GRUB_CMDLINE_LINUX" in t) == bool(add or rm),
       "%s: the text says the same verdict, and each parameter with its reason and where it goes" % name)


def no_old_excuse():
    """A kernel log that says why the TSC went must never get "did not say why"."""
    bad = [n for n in WANT if not n.startswith(("k618-clean", "k515-lede", "k66-tscadjust"))
           and "did not say why it left the TSC" in text(n)]
    ok(not bad, "every log whose kernel said why it left the TSC is read as saying so (%s)" % (bad or "none said otherwise"))


def firmware_claims():
    """No firmware update for a missing CPU feature; one for firmware's faults."""
    hv = load("k515-lede-noninv")["machine"]["hypervisor"]
    s = load("k515-lede-noninv")["summary"]
    ok("may fix the TSC" not in s and (("invtsc" in s) if hv else ("no firmware update adds" in s)),
       "a TSC that is not invariant: no firmware update is promised (%s)" % ("under a hypervisor: invtsc" if hv else "the CPU's design"))
    s = load("k510-propolis-skew")["summary"]
    ok("firmware (BIOS) update" in s and "CPU 2" in s, "TSCs out of step between CPUs: the firmware's to fix, CPU 2 named")
    d = load("k66-tscadjust-skew")
    ok("TSC_ADJUST" in d["summary"] and any("TSC_ADJUST register" in e for e in d["evidence"]),
       "firmware writing TSC_ADJUST: caught in the log, said in the summary")


def per_cause():
    """The remedies that only some causes have."""
    d = load("k61-idle-noninv")
    alts = [a["parameter"] for a in d["recommendation"]["alternatives"]]
    ok(alts == ["processor.max_cstate=1", "intel_idle.max_cstate=1"] and "tsc=reliable" not in alts,
       "a TSC that stops in deep C-states: keep it off, or hold the CPUs out of those states (%s)" % alts)
    d = load("k612-skew-pm")
    a = d.get("attribution") or {}
    ok(d.get("tsc_wrongly_blamed") and a.get("clock") == "acpi_pm" and 1100 < a.get("ppm", 0) < 1300 and
       "hpet=disable" not in d["recommendation"]["kernel_parameters"],
       "a PM timer that runs fast (%s ppm): the TSC wrongly blamed, no HPET to take away, tsc=nowatchdog" % a.get("ppm"))
    d = load("k612-readback-sync")
    why = " ".join(x["why"] for x in d["recommendation"].get("add_reasons", []))
    ok("151280 ns" in why and "SMIs" in why, "SMIs holding the reference read up: the read-back time and the SMIs named")


def kernels():
    """Which watchdog each kernel runs, and how the doctor knows."""
    cases = {"k71-hpet-none": ("2026", "7.1.0", "enforce"), "k72-kvmclock-none": ("2026", "", "enforce"),
             "k612-skew-none": ("4.19-7.0", "6.12.118", "tsc-as-watchdog"),
             "k61-param-none": ("4.19-7.0", "6.1.192", "absent"),
             "k510-propolis-none": ("4.19-7.0", "5.10.0-18-amd64", "absent"),
             "k618-clean-none": ("4.19-7.0", "6.18.3-200.fc43.x86_64", "tsc-as-watchdog"),
             "k66-tscadjust-none": ("unknown", "", "unknown")}
    for name, (wd, rel, means) in cases.items():
        k = load(name).get("kernel", {})
        ok(k.get("watchdog") == wd and k.get("release") == rel and k.get("tsc_watchdog_means") == means and
           k.get("watchdog_why"), "%s: kernel %r, watchdog %s, tsc=watchdog means %s: %s" %
           (name, k.get("release"), k.get("watchdog"), k.get("tsc_watchdog_means"), (k.get("watchdog_why") or "")[:70]))
    t = text("k66-tscadjust-none")
    ok("cannot tell whether it runs the watchdog rewritten in 2026" in t,
       "an unknown version and no watchdog message: the doctor says it cannot tell")


def never_dropped_params():
    """No kernel is offered a parameter it does not have."""
    bad = []
    for n in WANT:
        d = load(n)
        params = d["recommendation"]["kernel_parameters"] + [a["parameter"] for a in d["recommendation"].get("alternatives", [])]
        k = d.get("kernel", {})
        if any(p.startswith("clocksource.verify_n_cpus") or "max_skew" in p.lower() for p in params):
            bad.append(n)
        if "tsc=recalibrate" in params and not k.get("recalibrate"):
            bad.append(n)
        if "tsc=watchdog" in params and k.get("tsc_watchdog_means") != "enforce":
            bad.append(n)
    ok(not bad, "no parameter a kernel lacks is offered (%s)" % (bad or "none"))


def closing_note():
    """The 2026 log with the HPET that drifts, and the bare log that shows it."""
    d = load("k71-hpet-hpet")
    t = text("k71-hpet-hpet")
    a = d.get("attribution") or {}
    ok(a.get("clock") == "hpet" and -7900 < a.get("ppm", 0) < -7800 and d.get("tsc_wrongly_blamed"),
       "the weighing names the HPET, %s ppm (slow), and the TSC wrongly blamed" % a.get("ppm"))
    ev = [e for e in d["events"] if e["kind"] == "frequency-skew"]
    skew = ev[0].get("skew_ppm") if ev else None
    ok(skew is not None and abs(skew - 7898.0) < 0.5, "the kernel's own skew beside it: %s ppm from its two intervals" % skew)
    want = ["TSC: reliable (wrongly blamed", "hpet=disable", "the HPET runs 7,8", "+7898 ppm",
            "The kernel now keeps time with 'hpet'", "tsc=nowatchdog", "the one rewritten in 2026",
            "the kernel's figure within the weighing's uncertainty"]
    missing = [w for w in want if w not in t]
    ok(not missing and "did not say why" not in t, "the doctor's text for it says %d things it must (%s)" %
       (len(want), missing or "all there"))


for name, want in WANT.items():
    verdict(name, want)
no_old_excuse()
firmware_claims()
per_cause()
kernels()
never_dropped_params()
closing_note()
