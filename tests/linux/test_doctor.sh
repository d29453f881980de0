#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe doctor inside the Linux guest of `tickprobe qemu --linux`: its
# /init runs `tickprobe os --quick --switch`, then `tickprobe doctor
# --os-log` on that log (the text on the console, the JSON on ttyS1 after
# "tickprobe-guest: doctor: ").  Two guests (about 20 s each on 2 cores):
#   - with `--kernel-cmdline tsc=unstable`: the doctor must find the boot
#     parameter as the cause and the switch to hpet, recommend removing it,
#     and give the measured cost ratio;
#   - without it (the kernel keeps tsc): nothing needs changing.
# The kernel is the one tests/linux/test_linux.sh uses ($BUILD/cache, fetched
# with apt-get download on the first run).
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
OUT=$BUILD/test-linux-doctor
export XDG_CACHE_HOME
XDG_CACHE_HOME=$(cd "$BUILD" && pwd)/cache
rm -rf "$OUT"
mkdir -p "$OUT"

for f in "$TP" "$BUILD/tickprobe-static" "$BUILD/tickprobe.img"; do
	if [ ! -e "$f" ]; then
		fail "setup" "$f is not built (make all)"
		exit 1
	fi
done

guest() {
	name=$1
	shift
	t0=$(date +%s)
	timeout 400 "$TP" qemu --linux --machine q35 --smp 2 --preset quick --timeout 240 \
		--os-options "--quick --switch" --keep "$OUT/$name" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
	rc=$?
	echo "guest $name: exit $rc in $(( $(date +%s) - t0 )) s"
	if [ $rc -ne 0 ] || [ ! -s "$OUT/$name/os.log" ]; then
		fail "guest $name" "exit $rc: $(tail -3 "$OUT/$name.err" | tr '\n' ' ')"
	fi
}
guest unstable --kernel-cmdline "tsc=unstable"
guest plain

python3 - "$OUT" <<'PY'
import json, os, re, sys
out = sys.argv[1]
def say(ok, what):
    print(("PASS: " if ok else "FAIL: ") + what)
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
say(d is not None, "tsc=unstable guest: the doctor's JSON came back on ttyS1")
if d:
    kinds = [e["kind"] for e in d["events"]]
    sw = [e for e in d["events"] if e["kind"] == "switched"]
    r = d["recommendation"]
    say("boot-parameter" in kinds and d["cause"] == "boot-parameter", "tsc=unstable guest: the cause is the boot parameter")
    say(sw and sw[0]["clocksource"] == "hpet" and sw[0]["timestamp"] is not None,
        "tsc=unstable guest: the kernel's switch to hpet, with its timestamp (%s)" % (sw[0]["timestamp"] if sw else None))
    say(r["remove_parameters"] == ["tsc=unstable"] and "tsc=reliable" not in r["kernel_parameters"] and rc == 4,
        "tsc=unstable guest: remove tsc=unstable, never add tsc=reliable without a bare log; exit %s" % rc)
    say("hpet" in d["costs_ns"] and "acpi_pm" in d["costs_ns"] and r["gain"] and "×" in r["gain"],
        "tsc=unstable guest: costs measured %s; gain: %s" % (d["costs_ns"], r["gain"]))
    say(d["tsc_verdict"] == "unknown" and "bare-metal log" in (r["next_step"] or ""),
        "tsc=unstable guest: no bare log, verdict unknown, says how to get one")
say("TSC: unknown" in console and "remove tsc=unstable" in console, "tsc=unstable guest: the doctor's text on the console")

d, rc, console = doctor("plain")
say(d is not None, "plain guest: the doctor's JSON came back")
if d:
    r = d["recommendation"]
    say(d["current_clocksource"] == "tsc" and rc == 0 and not r["kernel_parameters"] and not r["remove_parameters"]
        and d["summary"].startswith("Nothing to change"),
        "plain guest: current tsc, nothing needs changing, exit %s: %s" % (rc, d["summary"]))
PY
