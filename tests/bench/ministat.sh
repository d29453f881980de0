#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Benchmark (not a test): `tickprobe stat` against Debian's ministat on two
# files of 1,000,000 values each, with the plot and with -A.  Each pair of
# runs goes back to back (ministat, then tickprobe stat, REPS times), so both
# see the same load; prints the median wall time and the median CPU time
# (user + system, from wait4) of each, their ratios, and whether the outputs
# are byte-identical.  Exit status 1 when an output differs.
#
#   sh tests/bench/ministat.sh [BUILD]      N=…, REPS=…, SINK=… in the environment
#
# The CPU ratio is the one to read on a shared machine: wall time also counts
# the time a run waits for a core, which on a loaded 2-core host can be 3x its
# CPU time and varies from run to run.
#
# Debian's ministat is the 2015 code: the median of an even N is its upper
# middle value and its relative line uses e/avg.  With the default inputs the
# two middle values are equal and no difference is proven, so the outputs
# must be byte-identical; with another N the Median column (and a relative
# line) can differ by design (tests/stat/test_ministat.sh says which lines).
BUILD=${BUILD:-${1:-build}}
TP=$BUILD/tickprobe
N=${N:-1000000}
REPS=${REPS:-7}
command -v ministat >/dev/null 2>&1 || { echo "ministat not installed (tests/deps.sh)"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not installed (tests/deps.sh)"; exit 1; }
[ -x "$TP" ] || { echo "$TP not built"; exit 1; }

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# Read-cost-like values: a body around 1000-1100 cycles with a long tail.
awk -v n="$N" -v seed=7 'BEGIN { srand(seed); for (i = 0; i < n; i++) {
	v = 1000 + int(rand() * 100); if (rand() < 0.01) v += int(rand() * 50000);
	printf "%d.%d\n", v, int(rand() * 10) } }' >"$T/a"
awk -v n="$N" -v seed=11 'BEGIN { srand(seed); for (i = 0; i < n; i++) {
	v = 1003 + int(rand() * 100); if (rand() < 0.01) v += int(rand() * 50000);
	printf "%d.%d\n", v, int(rand() * 10) } }' >"$T/b"

# Timed runs write to $SINK (default /dev/null): with the plot a million
# values make ~75 MB of output, and copying that into a file costs both
# tools the same kernel time, which is not what is measured here.
# SINK=/some/file measures it anyway.  Outputs are compared from extra runs.
SINK=${SINK:-/dev/null}
timing() { # options...: "wall_mini wall_tp cpu_mini cpu_tp", medians in seconds
	python3 - "$REPS" "$SINK" "$TP" "$T/a" "$T/b" "$@" <<'EOF'
import os, statistics, sys, time
reps, sink, tp, a, b = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
opts = sys.argv[6:]
def once(argv):
    # posix_spawn (vfork-like): the child has no copy of this process to
    # fault in, so its CPU time is the tool's own.
    out = os.open(sink, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    acts = [(os.POSIX_SPAWN_DUP2, out, 1), (os.POSIX_SPAWN_DUP2, out, 2)]
    t0 = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=acts)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    os.close(out)
    return wall, ru.ru_utime + ru.ru_stime
runs = {"m": [], "t": []}
for _ in range(reps):
    runs["m"].append(once(["ministat"] + opts + [a, b]))
    runs["t"].append(once([tp, "stat"] + opts + [a, b]))
med = lambda k, i: statistics.median(r[i] for r in runs[k])
print(med("m", 0), med("t", 0), med("m", 1), med("t", 1))
EOF
}
verdict() { # options...: byte-identical, or the first lines that differ
	ministat "$@" "$T/a" "$T/b" >"$T/theirs" 2>&1
	"$TP" stat "$@" "$T/a" "$T/b" >"$T/mine" 2>&1
	if cmp -s "$T/theirs" "$T/mine"; then
		echo "  output: byte-identical ($(wc -l <"$T/mine") lines, $(wc -c <"$T/mine") bytes)"
	else
		echo "  output: DIFFERENT:"; diff "$T/theirs" "$T/mine" | head -10
		status=1
	fi
}
report() { # label; then on stdin: wall_mini wall_tp cpu_mini cpu_tp
	awk -v r="$REPS" -v label="$1" '{
		printf "%s\n", label
		printf "  median of %d   %12s %12s\n", r, "wall", "CPU"
		printf "  ministat        %11.3fs %11.3fs\n", $1, $3
		printf "  tickprobe stat  %11.3fs %11.3fs\n", $2, $4
		printf "  ratio           %11.1fx %11.1fx\n", $1 / $2, $3 / $4 }'
}
status=0
echo "inputs: 2 x $N values ($(wc -c <"$T/a") + $(wc -c <"$T/b") bytes), output to $SINK"
timing | report "with the plot:"
verdict
timing -A | report "-A (statistics only):"
verdict -A
echo "--- tickprobe stat -A:"; cat "$T/mine"
exit $status
