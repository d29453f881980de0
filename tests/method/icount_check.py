# SPDX-License-Identifier: BSD-2-Clause
"""The method, exactly, under -icount: every record of the deterministic boots.

Run by tests/method/test_icount.sh from the top of the tree.  Arguments: OUT_DIR.
"""
import sys, os
sys.path.insert(0, os.path.join(os.getcwd(), "tests", "boot"))
import checklog  # the log format's second implementation: hist_pairs
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402
out = sys.argv[1]

def log(name):
    return read(os.path.join(out, name + ".log"))

a, b = log("first"), log("second")
ok(len(a.lines) > 10 and a.lines == b.lines and a.bad == b.bad == 0,
   f"two icount boots give identical records ({len(a.lines)} and {len(b.lines)} lines)")

sym = {"tsc": "tsc_read_rdtsc", "rdtscp": "tsc_read_rdtscp", "tsc-lfence": "tsc_read_lfence",
       "hpet": "hpet_read32", "hpet64": "hpet_read64", "acpi-fast": "acpi_pm_read_io",
       "acpi-safe": "acpi_pm_read_safe_io", "i8254": "i8254_read_latched",
       "i8254-inb40": "i8254_read_inb40", "i8254-outb43": "i8254_write_outb43", "port80": "port80_read",
       "lapic": "lapic_read_xapic", "rtc": "rtc_read_seconds", "rtc-time": "rtc_read_time"}
# Absent under QEMU 7.2's TCG whatever -cpu asks (it warns "TCG doesn't
# support requested feature" for x2apic, tsc-deadline and rdpid): each with
# the reason its log must give, and its read's symbol.  Not asked for with
# counters=, they have no timer record: their reasons are in plan.absent.
absent = {"lapic-x2": ("lapic_read_x2apic", "CPUID.01H:ECX[21] clear: no x2APIC"),
          "tsc-deadline": ("tsc_deadline_write", "CPUID.01H:ECX[24] clear: no TSC-deadline timer"),
          "rdpid": ("rdpid_read", "CPUID.(EAX=7,ECX=0):ECX[22] clear: no RDPID"),
          "kvmclock": (None, "the hypervisor is TCGTCGTCGTCG, not KVM"),
          "hv-refcount": ("hv_refcount_read", "the hypervisor is TCGTCGTCGTCG, not Microsoft Hv"),
          "hv-tsc-page": (None, "the hypervisor is TCGTCGTCGTCG, not Microsoft Hv")}
off_path = {"acpi-safe": 2, "rtc-time": 4}  # loop instructions not on the measured path
counted = dict(l.split() for l in open(os.path.join(out, "insns.txt")))
# No boot here runs them, so their descriptors' "insns" are held to the binary
# from the drivers' source: each counter's const desc begins
# { .name = "NAME", .read = SYMBOL, .insns = INSNS, (probe/counter.h).
import glob, re
described = {}
for src in glob.glob("drivers/*.c"):
    for m in re.finditer(r'\.name = "([a-z0-9-]+)", \.read = (\w+), \.insns = (\d+),', open(src).read()):
        described[m.group(1)] = (m.group(2), int(m.group(3)))
for name, (s, _) in absent.items():
    if s:
        fn, insns = described.get(name, (None, None))
        want = int(counted.get(s, 0))
        ok(fn == s and want > 0 and insns == want,
           f"{name}: descriptor says {fn} of {insns} instructions, binary has {s} of {want}")
# shift2 (--icount=2): every instruction is 4 ns of the same 1 GHz TSC, so
# each cost is 4 cycles an instruction.
for run, shift in (("first", 0), ("q35", 0), ("shift2", 2)):
    step = 1 << shift
    recs = log(run).records
    tsc = next(r for r in recs if r["type"] == "tsc")
    end = next(r for r in recs if r["type"] == "end")
    slow_rates = next(r for r in recs if r["type"] == "begin")["options"].get("slow_rates", True)
    err = tsc["error_ppm"]
    dev = abs(tsc["hz"] - 1e9) / 1e3
    ok(err is not None and 0 < err < 10 and dev <= err,
       f"{run}: TSC found to be 1 GHz: {tsc['hz']} Hz from {tsc['source']}, off {dev:.2f} ppm, error {err} ppm")
    over = next(r for r in recs if r["type"] == "overhead")
    ok(over["cycles"]["min"] == over["cycles"]["max"] == over["subtracted"],
       f"{run}: harness overhead is constant ({over['cycles']['min']} cycles, {over['sequence']})")
    timers = {r["name"]: r for r in recs if r["type"] == "timer"}
    ok(set(timers) == set(sym),
       f"{run}: a timer record for each of the {len(sym)} counters TCG has, none for the {len(absent)} it lacks")
    plan_absent = next(r for r in recs if r["type"] == "plan").get("absent") or {}
    ok(list(plan_absent) == list(absent), f"{run}: plan.absent lists {', '.join(absent)}: {list(plan_absent)}")
    for name, (s, why) in absent.items():
        ok(why in (plan_absent.get(name) or ""), f"{run}: {name}: absent under TCG: {plan_absent.get(name)}")
    ok(end["status"] == "ok", f"{run}: status ok: the counters absent here are absent by design (optional)")
    for name, t in sorted(timers.items()):
        if not t.get("samples"):  # a measured record has samples, its health implied
            ok(False, f"{run}: {name} measured ({t.get('reason')})")
            continue
        want = int(counted[sym[name]]) - off_path.get(name, 0)
        c = t["cost_cycles"]
        ok(t["insns"] == want, f"{run}: {name}: descriptor says {t['insns']} instructions, binary has {want}")
        want *= step
        # rtc-time waits while UIP is set (244 us before each update): a
        # sample that meets one is dearer, deterministically.  Every other
        # read has one path.
        top = c["max"] if name != "rtc-time" else want
        ok(c["min"] == c["p50"] == top == want and t.get("clamped", 0) == 0,  # left out when 0
           f"{run}: {name}: overhead-subtracted cost min/p50/max {c['min']}/{c['p50']}/{c['max']} = "
           f"{want // step} instructions of {step} cycles")
        ok(sum(n for _, n in checklog.hist_pairs(t["hist"])) == t["samples"],
           f"{run}: {name}: histogram holds every sample")
        f = t.get("freq")  # left out where there is no frequency check
        if name in ("rtc", "rtc-time") and not slow_rates:
            ok(f is None, f"{run}: {name}: slow_rates=off: no frequency check")
        elif name in ("hpet", "hpet64", "acpi-fast", "acpi-safe", "i8254", "rtc", "rtc-time"):
            ok(f is not None and abs(f["ppm"]) <= f["err_ppm"] and f["err_ppm"] < 100,
               f"{run}: {name}: frequency {f and f['measured_hz']} Hz vs nominal {f and f['nominal_hz']}: "
               f"{f and f['ppm']} ppm within +/- {f and f['err_ppm']}")
        elif name == "lapic":
            # No nominal rate (no CPUID 0x15 crystal); QEMU's APIC timer
            # counts virtual nanoseconds at divide 1: 1 GHz, as the TSC.
            ok(f is not None and f["nominal_hz"] is None and f["ppm"] is None and
               abs(f["measured_hz"] / tsc["hz"] - 1) * 1e6 <= f["err_ppm"] + 0.01 and f["err_ppm"] < 100,
               f"{run}: lapic: {f and f['measured_hz']} Hz, the TSC's rate within +/- {f and f['err_ppm']} ppm, nominal null")
        else:
            ok("freq" not in t, f"{run}: {name}: no frequency check for a TSC read or a bare port access")
        ok("core_clock" not in t and "cost_core_cycles" not in t,
           f"{run}: {name}: no core_clock (TCG has no APERF/MPERF)")
    m = next(r for r in recs if r["type"] == "machine")
    ok(m.get("aperf_mperf") is False and m.get("rtc_time", "").startswith("2020-01-01T00:00:0"),
       f"{run}: machine: aperf_mperf false, rtc_time {m.get('rtc_time')} (-rtc base=2020-01-01T00:00:00)")
