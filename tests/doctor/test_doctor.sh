#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe doctor on the host, with no privilege and nothing of this host's
# but its CPUID: kernel logs in the 4.19, 5.x and 6.x wordings (written by
# mkklog.py from the kernels' format strings, each with a fake sysfs/proc
# tree) against three hardware stories: a bare-metal log with a synchronised
# TSC (`tickprobe qemu -smp 4`), one with CPU 2's TSC skewed by 1,000,000
# cycles (`tsc_skew=2:1000000`, under -icount: exact), and none.  The two
# captures are made here (about 3 s each) and given this machine's
# fingerprint and the invariant-TSC bit by mkbare.py.  Each combination's
# verdict, parameters and exit status are checked; then hostile input (a
# truncated kernel log, another machine's bare log, damaged bare logs), and
# the same verdicts in show and report.
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
OUT=$BUILD/test-doctor
HERE=$(dirname "$0")
rm -rf "$OUT"
mkdir -p "$OUT"

if [ ! -x "$TP" ]; then
	fail "setup" "$TP is not built (make)"
	exit 1
fi

# --- the two hardware stories --------------------------------------------------
for b in sync:"" skew:"tsc_skew=2:1000000"; do
	name=${b%%:*}
	opt=${b#*:}
	timeout 300 "$TP" qemu --kernel --icount --smp 4 --preset quick --timeout 240 \
		--options "counters=tsc,hpet,acpi-fast,i8254 $opt" -o "$OUT/$name-qemu.log" >"$OUT/$name-qemu.out" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 10 ]; then
		fail "setup" "tickprobe qemu ($name) exit $rc: $(tail -2 "$OUT/$name-qemu.out" | tr '\n' ' ')"
		exit 1
	fi
done
python3 "$HERE/mkklog.py" "$OUT/k" || { fail "setup" "mkklog.py"; exit 1; }
"$TP" doctor --json --no-measure --kernel-log "$OUT/k/clean.log" --sysfs "$OUT/k/clean.root" >"$OUT/ident.json"
for name in sync skew; do
	python3 "$HERE/mkbare.py" "$OUT/$name-qemu.log" "$OUT/$name.log" "$OUT/ident.json" ||
		{ fail "setup" "mkbare.py $name"; exit 1; }
done

# doctor NAME KLOG BARE [more options]: the JSON in $OUT/NAME.json, the text in
# $OUT/NAME.txt, the exit status in $OUT/NAME.rc.
doctor() {
	n=$1 k=$2 b=$3
	shift 3
	if [ "$b" = none ]; then set -- "$@"; else set -- --bare "$OUT/$b.log" "$@"; fi
	"$TP" doctor --json --no-measure --kernel-log "$OUT/k/$k.log" --sysfs "$OUT/k/$k.root" "$@" \
		>"$OUT/$n.json" 2>"$OUT/$n.err"
	echo $? >"$OUT/$n.rc"
	"$TP" doctor --no-measure --kernel-log "$OUT/k/$k.log" --sysfs "$OUT/k/$k.root" "$@" >"$OUT/$n.txt" 2>&1
	echo $? >>"$OUT/$n.rc"
}

for k in k419 k510 k61 k66 clean; do
	for b in sync skew none; do
		doctor "$k-$b" "$k" "$b"
	done
done

python3 - "$OUT" <<'PY'
import json, os, sys
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
for name, (verdict, rc, cs, add, rm, cause) in WANT.items():
    rcs = open(os.path.join(out, name + ".rc")).read().split()
    try:
        d = json.load(open(os.path.join(out, name + ".json")))
    except ValueError as e:
        say(False, "%s: --json is not JSON: %s" % (name, e))
        continue
    r = d["recommendation"]
    got = (d["tsc_verdict"], int(rcs[0]), r["clocksource"], r["kernel_parameters"], r["remove_parameters"], d["cause"])
    ok = got[0] == verdict and got[1] == rc and (cs is None or got[2] == cs) and got[3][:len(add)] == add \
        and all(p in got[3] for p in add) and got[4] == rm and got[5] == cause and int(rcs[1]) == rc
    if verdict == "unreliable":
        ok = ok and "tsc=reliable" not in r["kernel_parameters"] and r["clocksource"] in ("hpet", "acpi_pm")
    if verdict == "unknown":
        ok = ok and "bare-metal log" in (r["next_step"] or "")
    say(ok, "%s: verdict %s, clocksource %s, add %s, remove %s, exit %d (text exit %s)" %
        (name, got[0], got[2], got[3], got[4], got[1], rcs[1]) + ("" if ok else " (wanted %r)" % (WANT[name],)))
    txt = open(os.path.join(out, name + ".txt")).read()
    say(txt.startswith("TSC: " + verdict) and all(p in txt for p in add + rm) and
        ("GRUB_CMDLINE_LINUX" in txt) == bool(add or rm),
        "%s: the text says the same verdict and parameters, with where they go" % name)

# What the kernel's story must have been read as.
def events(name):
    return json.load(open(os.path.join(out, name + ".json")))["events"]
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
d = json.load(open(os.path.join(out, "k419-sync.json")))
say(any("reference read" in s for s in d["evidence"]) and any("synchronised" in s for s in d["evidence"]),
    "reliable TSC marked by the watchdog: the evidence blames the reference read and cites the sync")
d = json.load(open(os.path.join(out, "k419-skew.json")))
say(any("CPU 2" in s and "off CPU 0" in s for s in d["evidence"]) and "CPU 2" in d["summary"],
    "skewed TSC: the summary names CPU 2 and its offset")
for key in ("current_clocksource", "available", "tsc_verdict", "events", "costs_ns", "recommendation", "evidence"):
    say(key in d, "--json has %s" % key)
PY

# --- hostile input --------------------------------------------------------------
# A kernel log cut in the middle of the watchdog's reference line.
n=$(grep -b "wd_now" "$OUT/k/k419.log" | cut -d: -f1)
head -c $((n + 40)) "$OUT/k/k419.log" >"$OUT/k/cut.log"
cp -r "$OUT/k/k419.root" "$OUT/k/cut.root"
doctor cut cut sync
python3 - "$OUT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/cut.json"))
rc = open(sys.argv[1] + "/cut.rc").read().split()
m = [e for e in d["events"] if e["kind"] == "watchdog-unstable"]
ok = rc[0] == "4" and len(m) == 1 and any("cut short" in s for s in d["evidence"])
print(("PASS" if ok else "FAIL") + ": a kernel log cut mid-line: the mark is found, the cut is said, exit %s" % rc[0])
PY
# A kernel log whose start the ring buffer overwrote.
tail -n 7 "$OUT/k/k419.log" >"$OUT/k/late.log"
cp -r "$OUT/k/k419.root" "$OUT/k/late.root"
doctor late late sync
if grep -q "first messages were overwritten" "$OUT/late.txt"; then pass "a kernel log that starts at 312 s: said"; else fail "late log" "$(head -3 "$OUT/late.txt")"; fi
"$TP" doctor --no-measure --kernel-log "$OUT/k/nonexistent.log" --sysfs "$OUT/k/k419.root" >"$OUT/nolog.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "cannot read" "$OUT/nolog.out"; then pass "a kernel log that is not there: exit 2 with the reason"; else fail "missing kernel log" "exit $rc"; fi

# Another machine's bare log: the QEMU capture as it is.
"$TP" doctor --no-measure --kernel-log "$OUT/k/k419.log" --sysfs "$OUT/k/k419.root" --bare "$OUT/sync-qemu.log" >"$OUT/other.out" 2>"$OUT/other.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "is not this machine's: .*cpu_brand\|is not this machine's: cpu_vendor" "$OUT/other.err"; then
	pass "another machine's bare log: refused, exit 2: $(cat "$OUT/other.err")"
else
	fail "another machine's bare log" "exit $rc: $(cat "$OUT/other.err")"
fi
doctor other-same k419 sync-qemu --same-machine
python3 - "$OUT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/other-same.json"))
t = open(sys.argv[1] + "/other-same.txt").read()
ok = d["same_machine_override"] and "--same-machine" in d["bare_log_note"] and "--same-machine" in t \
    and d["tsc_verdict"] == "unreliable" and any("invariant" in s for s in d["evidence"])
print(("PASS" if ok else "FAIL") + ": --same-machine: used, and said so; the QEMU CPU's missing invariant TSC makes it unreliable")
PY
# Damaged bare logs: a byte changed in the tsc_sync record; the log cut in half; not a log at all.
python3 - "$OUT/sync.log" "$OUT/damaged.log" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines(True)
out = [l.replace('"synchronized":true', '"synchronized":tru3') if '"type":"tsc_sync"' in l else l for l in lines]
open(sys.argv[2], "w").write("".join(out))
PY
doctor damaged k419 damaged
if [ "$(head -1 "$OUT/damaged.rc")" = 0 ] && grep -q '"tsc_verdict":"unknown"' "$OUT/damaged.json" && grep -q "crc\|CRC\|damaged" "$OUT/damaged.err"; then
	pass "a bare log whose tsc_sync record is damaged: named on stderr, the verdict unknown, nothing recommended"
else
	fail "damaged bare log" "exit $(head -1 "$OUT/damaged.rc"): $(head -2 "$OUT/damaged.err")"
fi
head -c $(( $(wc -c <"$OUT/sync.log") / 2 )) "$OUT/sync.log" >"$OUT/half.log"
doctor half k419 half
if grep -q '"tsc_verdict":"unknown"' "$OUT/half.json" && grep -q "end record\|cut short\|partial" "$OUT/half.err"; then
	pass "a bare log cut in half: said, verdict unknown (exit $(head -1 "$OUT/half.rc"))"
else
	fail "half bare log" "$(head -2 "$OUT/half.err") $(head -c 200 "$OUT/half.json")"
fi
head -c 3000 /dev/urandom >"$OUT/junk.log"
"$TP" doctor --no-measure --kernel-log "$OUT/k/k419.log" --sysfs "$OUT/k/k419.root" --bare "$OUT/junk.log" >/dev/null 2>"$OUT/junk.err"
rc=$?
if [ $rc -eq 2 ]; then pass "random bytes as the bare log: exit 2 ($(head -1 "$OUT/junk.err"))"; else fail "junk bare log" "exit $rc"; fi
"$TP" doctor --no-measure --os-log "$OUT/k/k419.log" >/dev/null 2>&1
rc=$?
if [ $rc -eq 1 ]; then pass "--os-log with --no-measure: usage error, exit 1"; else fail "usage" "exit $rc"; fi

# --- the same verdicts in show and report -------------------------------------
"$TP" show "$OUT/skew.log" >"$OUT/show-skew.txt" 2>&1
"$TP" show --json "$OUT/sync.log" >"$OUT/show-sync.json" 2>&1
"$TP" report "$OUT/sync.log" "$OUT/skew.log" -o "$OUT/report.html" >/dev/null 2>&1
"$TP" db import "$OUT/fleet.db" "$OUT/sync.log" "$OUT/skew-qemu.log" -q >/dev/null 2>&1
"$TP" report --db "$OUT/fleet.db" --no-pages -o "$OUT/fleet.html" >/dev/null 2>&1
python3 - "$OUT" <<'PY'
import json, re, sys
out = sys.argv[1]
t = open(out + "/show-skew.txt").read()
say = lambda ok, w: print(("PASS: " if ok else "FAIL: ") + w)
say("Verdicts:" in t and "TSC: unreliable: CPU 2's TSC" in t and "Linux would use hpet" in t and
    "FreeBSD would use" in t and "Cheapest correct counter" in t and "ACPI-fast or HPET" in t,
    "show: the skewed log's Verdicts: the TSC, Linux, FreeBSD, the cheapest counter, ACPI-fast or HPET")
v = json.load(open(out + "/show-sync.json"))["runs"][0]["verdicts"]
say(v["tsc_verdict"] == "reliable" and v["linux"]["clocksource"] == "tsc" and v["freebsd"]["timecounter"] == "TSC-low",
    "show --json: the synchronised log: reliable, Linux tsc, FreeBSD TSC-low")
h = open(out + "/report.html").read()
say(h.count("<h3>Verdicts</h3>") == 2 and "reliable</b>" in h and "unreliable</b>" in h,
    "report: a Verdicts section per run")
f = open(out + "/fleet.html").read()
m = re.search(r'id="fleet-verdicts">(.*?)</table>', f, re.S)
say(m and "<th>reliable</th><td>1</td>" in m.group(1) and "<th>unreliable</th><td>1</td>" in m.group(1),
    "report --db: 1 machine reliable, 1 unreliable")
PY
