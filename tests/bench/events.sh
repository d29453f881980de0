#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What `tickprobe qemu --event` costs on this host: QMP stop to cont around
# a pause of PAUSE seconds (the overhead is the difference), and a live
# migration of a guest of MEMORY MiB running the probe's watch: the state
# file's size and the time from migrate sent to the new QEMU running.  RUNS
# runs under TCG (-kernel, the quick preset, pc), the guest's side of the
# channel played by tests/boot/events_guest.py; each run's figures, then the
# medians.  Not a test: numbers only (TCG follows the host's load, printed).
#   sh tests/bench/events.sh [BUILD] [RUNS] [MEMORY] [PAUSE]   (3, 256, 1)
BUILD=${1:-${BUILD:-build}}
RUNS=${2:-3}
MEMORY=${3:-256}
PAUSE=${4:-1}
TP=$BUILD/tickprobe
OUT=$BUILD/bench-events
rm -rf "$OUT" && mkdir -p "$OUT"
[ -x "$TP" ] && [ -f "$BUILD/tickprobe.elf32" ] || { echo "bench: build first (make all)" >&2; exit 1; }

echo "host load before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=1
while [ "$i" -le "$RUNS" ]; do
	EVENTS_MODE=first EVENTS_WATCH_S=20 EVENTS_LOG=$OUT/run$i.log EVENTS_RECORD=$OUT/run$i.rec \
		timeout 300 "$TP" qemu --qemu tests/boot/events_qemu.sh --kernel="$BUILD/tickprobe.elf32" --preset quick \
		--options "slow_rates=off watch=20" --memory "$MEMORY" --event "pause=${PAUSE}s@1s" --event migrate@4s \
		--timeout 240 -q -o "$OUT/run$i.log" >"$OUT/run$i.out" 2>"$OUT/run$i.err"
	echo "bench: run $i: exit $?" >&2
	i=$((i + 1))
done
echo "host load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$OUT" "$RUNS" "$MEMORY" "$PAUSE" <<'PY'
import re, statistics, sys
out, runs, memory, pause = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
stops, migs, sizes, parts = [], [], [], []
print("%s MiB guest, %.1f s pause; times in s" % (memory, pause))
print("run  stop-to-cont  overhead ms  state MB  migrate-to-running  migration  downtime ms  restore")
for i in range(1, runs + 1):
    err = open("%s/run%d.err" % (out, i)).read()
    p = re.search(r"event 1: pause for [0-9.]+ s at [0-9.]+ s of the watch: stop to cont ([0-9.]+) s", err)
    m = re.search(r"event 2: migrate at [0-9.]+ s of the watch: ([0-9.]+) MB of state, ([0-9.]+) s to the new QEMU "
                  r"running \(migration ([0-9.]+) s, ([0-9]+) ms of downtime, then ([0-9.]+) s to restore\)", err)
    if not p or not m:
        print("%3d  (no figures: %s)" % (i, " | ".join(l for l in err.splitlines() if "event" in l)))
        continue
    stops.append(float(p.group(1)))
    sizes.append(float(m.group(1)))
    migs.append(float(m.group(2)))
    parts.append([float(m.group(k)) for k in (3, 4, 5)])
    print("%3d  %12.3f  %11.1f  %8.1f  %18.2f  %9.2f  %11.0f  %7.2f" % (i, stops[-1], (stops[-1] - pause) * 1000,
          sizes[-1], migs[-1], parts[-1][0], parts[-1][1], parts[-1][2]))
if stops:
    med = statistics.median
    print("med  %12.3f  %11.1f  %8.1f  %18.2f  %9.2f  %11.0f  %7.2f" % (med(stops), (med(stops) - pause) * 1000,
          med(sizes), med(migs), med(p[0] for p in parts), med(p[1] for p in parts), med(p[2] for p in parts)))
PY
