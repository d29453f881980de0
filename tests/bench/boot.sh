#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Boot timings per configuration, under TCG: wall time from QEMU's start to its
# exit, serial bytes (the whole capture, and the records alone: the end
# record's `bytes`), timer samples taken, and samples per second of wall time
# and of measured read time (samples x mean cost).  Not a test: numbers only.
#   sh tests/bench/boot.sh [BUILD] [PRESET]     (make bench; PRESET default: quick)
BUILD=${1:-${BUILD:-build}}
PRESET=${2:-quick}
TP=$BUILD/tickprobe
OUT=$BUILD/bench-boot
mkdir -p "$OUT"
[ -x "$TP" ] && [ -f "$BUILD/tickprobe.img" ] || { echo "bench: build first (make all)" >&2; exit 1; }

summary() { # log -> "record_bytes samples samples_per_wall_s samples_per_read_s plan_s"
	python3 - "$1" "$2" <<'PY'
import sys
sys.path.insert(0, "tests/lib")
from tplog import read  # the records whose crc holds
log, wall_ms = sys.argv[1], int(sys.argv[2])
def ns(cycles, hz):  # the log has cycles; ns at the run's tsc.hz
    return cycles * 1e9 / hz if hz else 0
samples, read_ns, plan, records, hz = 0, 0.0, None, None, None
for o in read(log, clean=True).records:
    if o.get("type") == "tsc":
        hz = o.get("hz")
    elif o.get("type") == "timer" and o.get("samples"):
        samples += o["samples"]
        read_ns += ns(o["samples"] * ((o.get("cost_cycles") or {}).get("mean") or 0), hz)
    elif o.get("type") == "plan":
        plan = o.get("total_s")
    elif o.get("type") == "end":
        records = o.get("bytes")
per_wall = samples / (wall_ms / 1000) if wall_ms else 0
per_read = samples / (read_ns / 1e9) if read_ns else 0
print(f"{records if records is not None else '-':>8} {samples:>9} {per_wall:>13.0f} {per_read:>13.0f} "
      f"{plan if plan is not None else '-':>7}")
PY
}

printf '%-22s %6s %8s %8s %8s %9s %13s %13s %7s\n' config exit wall_ms bytes records samples "samples/s wall" \
	"samples/s read" plan_s
run() { # name, tickprobe qemu options...
	name=$1
	shift
	t0=$(date +%s%3N)
	"$TP" qemu --timeout 600 --preset "$PRESET" -o "$OUT/$name.log" "$@" >/dev/null 2>"$OUT/$name.err"
	rc=$?
	ms=$(( $(date +%s%3N) - t0 ))
	printf '%-22s %6s %8s %8s %s\n' "$name" $rc $ms "$(wc -c <"$OUT/$name.log" 2>/dev/null || echo 0)" \
		"$(summary "$OUT/$name.log" $ms)"
}
run kernel-bios-pc --kernel --machine pc
run kernel-bios-q35 --kernel --machine q35
run disk-bios-pc --firmware bios --machine pc
run disk-bios-q35 --firmware bios --machine q35
run disk-uefi-pc --firmware uefi --machine pc
run disk-uefi-q35 --firmware uefi --machine q35
run cd-bios-pc --cdrom --firmware bios --machine pc
run cd-uefi-q35 --cdrom --firmware uefi --machine q35
