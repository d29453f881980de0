#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Do idle CPUs cost the measuring one?  The main table of BOOTS boots with 1
# CPU against BOOTS boots with 4, under TCG (-kernel, the quick preset, pc),
# for each way the 4-CPU boots' idle APs wait: hlt (-cpu max,-monitor) and
# mwait (-cpu max).  Per counter, the mean over boots of each boot's p50 and
# the difference with its confidence interval (Student's t, pooled variance,
# 2*BOOTS-2 degrees of freedom): the boot is the unit, as the boot-to-boot
# spread is what idle CPUs would move.  Then `tickprobe compare` of the first
# 1-CPU boot against the first of each 4-CPU set, per round.  Not a test:
# numbers (TCG's timings follow the host's load), and a check that each boot
# ended ok or ok-absent.
#   sh tests/bench/idle.sh [BUILD] [BOOTS]      (BOOTS default 5)
BUILD=${1:-${BUILD:-build}}
BOOTS=${2:-5}
. tests/lib/check.sh
. tests/lib/boot.sh
OUT=$BUILD/bench-idle
rm -rf "$OUT" && mkdir -p "$OUT"
[ -x "$TP" ] && [ -f "$BUILD/tickprobe.elf32" ] || { echo "bench: build first (make all)" >&2; exit 1; }

# boots NAME CPU_MODEL CPUS: BOOTS boots, $OUT/NAME-1.log and on.
boots() {
	i=1
	while [ $i -le "$BOOTS" ]; do
		boot "$1-$i" "0|10" --kernel="$BUILD/tickprobe.elf32" --preset quick --machine pc --cpu "$2" --smp "$3"
		i=$((i + 1))
	done
}
echo "host load before: $(cut -d' ' -f1-3 /proc/loadavg)"
boots one max,-monitor 1
boots hlt max,-monitor 4
boots mwait max 4
echo "host load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$OUT" "$BOOTS" <<'PY'
import math, sys
sys.path.insert(0, "tests/lib")
from tplog import read  # the records whose crc holds
out, boots = sys.argv[1], int(sys.argv[2])
# Student's t, two-sided 95 %, by degrees of freedom (any table of the t
# distribution; 8 is the 5-against-5 case).
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
       10: 2.228, 12: 2.179, 14: 2.145, 16: 2.120, 18: 2.101, 20: 2.086, 30: 2.042}

def t95(df):
    return T95.get(df) or T95[max(k for k in T95 if k <= df)]

def table(log):  # counter -> p50 ns of the main table; and how idle CPUs waited
    hz, p50, idle = None, {}, None
    for o in read(log, clean=True).records:
        t = o.get("type")
        if t == "tsc":
            hz = o.get("hz")
        elif t == "timer" and "cpu" not in o and isinstance(o.get("cost_cycles"), dict):
            p50.setdefault(o["name"], o["cost_cycles"]["p50"])
        elif t == "team_check":
            idle = o.get("idle")
    return {k: v * 1e9 / hz for k, v in p50.items()} if hz else {}, idle

def group(name):
    runs = [table("%s/%s-%d.log" % (out, name, i)) for i in range(1, boots + 1)]
    return [r for r, _ in runs if r], {i for _, i in runs}

def stats(v):
    m = sum(v) / len(v)
    return m, (sum((x - m) ** 2 for x in v) / (len(v) - 1)) if len(v) > 1 else 0.0

one, _ = group("one")
for name in ("hlt", "mwait"):
    four, idle = group(name)
    print("\n1 CPU (%d boots) against 4 CPUs, idle APs in %s (%d boots; team_check.idle %s)" %
          (len(one), name, len(four), ",".join(sorted(str(i) for i in idle))))
    print("%-14s %10s %10s %9s %18s  %s" % ("counter", "1 CPU ns", "4 CPU ns", "diff %", "95 % CI of diff", "verdict"))
    for c in sorted(set().union(*one) if one else []):
        a = [r[c] for r in one if c in r]
        b = [r[c] for r in four if c in r]
        if len(a) < 2 or len(b) < 2:
            continue
        (ma, va), (mb, vb) = stats(a), stats(b)
        df = len(a) + len(b) - 2
        sp = math.sqrt(((len(a) - 1) * va + (len(b) - 1) * vb) / df)
        half = t95(df) * sp * math.sqrt(1 / len(a) + 1 / len(b))
        d = mb - ma
        verdict = "different" if abs(d) > half else "no difference proven"
        print("%-14s %10.1f %10.1f %+8.1f%% %+8.1f..%+7.1f%%  %s" %
              (c, ma, mb, 100 * d / ma, 100 * (d - half) / ma, 100 * (d + half) / ma, verdict))
PY
for name in hlt mwait; do
	echo
	echo "tickprobe compare: the first 1-CPU boot against the first 4-CPU ($name) boot, per round"
	"$TP" compare "$OUT/one-1.log" "$OUT/$name-1.log" | tail -n 25
done
