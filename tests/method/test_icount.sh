#!/bin/sh
# Exact tests of the measurement method under qemu -icount shift=0,sleep=off:
# the guest is deterministic and every instruction costs one TSC cycle (1 ns),
# so the TSC runs at exactly 1 GHz and an overhead-subtracted read costs
# exactly the instructions the read executes.
BUILD=${BUILD:-build}
ELF=$BUILD/tickprobe.elf
KERNEL=$BUILD/tickprobe.elf32
OUT=$BUILD/test-icount
mkdir -p "$OUT"

boot() { # name, extra qemu args...
	name=$1; shift
	timeout 120 qemu-system-x86_64 -cpu max -icount shift=0,sleep=off -kernel "$KERNEL" \
		-append "preset=quick" -serial "file:$OUT/$name.log" -display none -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 "$@"
	echo $? >"$OUT/$name.rc"
}
boot first
boot second
boot q35 -machine q35

# Instructions of each read function before its ret, from the binary itself:
# the independent check of the descriptors' "insns".  acpi-safe's retry
# (dec; jnz) is not on the path where the first triple is in order.
for sym in tsc_read_rdtsc tsc_read_rdtscp tsc_read_lfence hpet_read32 hpet_read64 \
	acpi_pm_read_io acpi_pm_read_safe_io i8254_read_latched i8254_read_inb40 \
	i8254_write_outb43 port80_read; do
	start=$(nm "$ELF" | awk -v s="$sym" '$3 == s { print $1 }')
	objdump -d --no-show-raw-insn --start-address=0x$start --stop-address=$(printf '0x%x' $((0x$start + 256))) "$ELF" |
		awk -v s="$sym" '/^ +[0-9a-f]+:/ { if ($2 ~ /^ret/) { print s, n; exit } n++ }'
done >"$OUT/insns.txt"

python3 - "$OUT" <<'PY'
import json, sys, os
sys.path.insert(0, os.path.join(os.getcwd(), "tests", "boot"))
import checklog  # the log format's second implementation: hist_pairs
out = sys.argv[1]
def ok(cond, msg):
    print(("PASS: " if cond else "FAIL: ") + msg)

def records(name):
    recs = []
    for line in open(os.path.join(out, name + ".log"), "rb").read().decode("ascii", "replace").splitlines():
        line = line.rstrip("\r")
        if line.startswith("{"):
            recs.append((line, json.loads(line)))
    return recs

for n in ("first", "second", "q35"):
    rc = open(os.path.join(out, n + ".rc")).read().strip()
    ok(rc == "33", f"icount boot {n}: exit status 33 (ok), got {rc}")

a, b = records("first"), records("second")
ok(len(a) > 10 and [l for l, _ in a] == [l for l, _ in b],
   f"two icount boots give identical records ({len(a)} and {len(b)} lines)")

sym = {"tsc": "tsc_read_rdtsc", "rdtscp": "tsc_read_rdtscp", "tsc-lfence": "tsc_read_lfence",
       "hpet": "hpet_read32", "hpet64": "hpet_read64", "acpi-fast": "acpi_pm_read_io",
       "acpi-safe": "acpi_pm_read_safe_io", "i8254": "i8254_read_latched",
       "i8254-inb40": "i8254_read_inb40", "i8254-outb43": "i8254_write_outb43", "port80": "port80_read"}
counted = dict(l.split() for l in open(os.path.join(out, "insns.txt")))
for run in ("first", "q35"):
    recs = [r for _, r in records(run)]
    tsc = next(r for r in recs if r["type"] == "tsc")
    err = tsc["error_ppm"]
    dev = abs(tsc["hz"] - 1e9) / 1e3
    ok(err is not None and 0 < err < 10 and dev <= err,
       f"{run}: TSC found to be 1 GHz: {tsc['hz']} Hz from {tsc['source']}, off {dev:.2f} ppm, error {err} ppm")
    over = next(r for r in recs if r["type"] == "overhead")
    ok(over["cycles"]["min"] == over["cycles"]["max"] == over["subtracted"],
       f"{run}: harness overhead is constant ({over['cycles']['min']} cycles, {over['sequence']})")
    timers = {r["name"]: r for r in recs if r["type"] == "timer"}
    ok(set(timers) == set(sym), f"{run}: a timer record for each of the {len(sym)} counters")
    for name, t in sorted(timers.items()):
        if not t["healthy"]:
            ok(False, f"{run}: {name} healthy ({t.get('reason')})")
            continue
        want = int(counted[sym[name]]) - (2 if name == "acpi-safe" else 0)
        c = t["cost_cycles"]
        ok(t["insns"] == want, f"{run}: {name}: descriptor says {t['insns']} instructions, binary has {want}")
        ok(c["min"] == c["p50"] == c["max"] == want and t["clamped"] == 0,
           f"{run}: {name}: overhead-subtracted cost min/p50/max {c['min']}/{c['p50']}/{c['max']} = {want} instructions")
        ok(sum(n for _, n in checklog.hist_pairs(t["hist"])) == t["samples"],
           f"{run}: {name}: histogram holds every sample")
        f = t["freq"]
        if name in ("hpet", "hpet64", "acpi-fast", "acpi-safe", "i8254"):
            ok(f is not None and abs(f["ppm"]) <= f["err_ppm"] and f["err_ppm"] < 100,
               f"{run}: {name}: frequency {f and f['measured_hz']} Hz vs nominal {f and f['nominal_hz']}: "
               f"{f and f['ppm']} ppm within +/- {f and f['err_ppm']}")
        else:
            ok(f is None, f"{run}: {name}: no frequency check for a TSC read or a bare port access")
PY
