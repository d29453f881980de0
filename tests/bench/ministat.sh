#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Benchmark (not a test): `tickprobe stat` against Debian's ministat on two
# files of 1,000,000 values each.  Prints the best wall time of a few runs
# for both, the speed ratio, and whether the numbers agree.
#
# Debian's ministat is the 2015 code (formula generation 1): its Median of an
# even N is the upper middle value and its relative line uses e/avg, so those
# two differ by design; every other stats line must be identical.
BUILD=${BUILD:-${1:-build}}
TP=$BUILD/tickprobe
N=${N:-1000000}
REPS=${REPS:-5}
command -v ministat >/dev/null 2>&1 || { echo "ministat not installed (tests/deps.sh)"; exit 1; }
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

now() { date +%s.%N; }
# Timed runs write to $SINK (default /dev/null): with the plot a million
# values make ~75 MB of output, and copying that into a file costs both
# tools the same ~0.1 s of kernel time, which is not what is measured here.
# SINK=/some/file measures it anyway.  Outputs are compared from extra runs.
SINK=${SINK:-/dev/null}
best() { # command...: best wall time over REPS runs, in seconds
	b=""
	i=0
	while [ $i -lt "$REPS" ]; do
		s=$(now); "$@" >"$SINK" 2>&1; e=$(now)
		b=$(echo "$s $e ${b:-1e9}" | awk '{ d = $2 - $1; print (d < $3 ? d : $3) }')
		i=$((i + 1))
	done
	echo "$b"
}
tm=$(best ministat "$T/a" "$T/b")
tt=$(best "$TP" stat "$T/a" "$T/b")
tmA=$(best ministat -A "$T/a" "$T/b")
ttA=$(best "$TP" stat -A "$T/a" "$T/b")
ministat "$T/a" "$T/b" >"$T/theirs" 2>&1
"$TP" stat "$T/a" "$T/b" >"$T/mine" 2>&1
ministat -A "$T/a" "$T/b" >"$T/theirsA" 2>&1
"$TP" stat -A "$T/a" "$T/b" >"$T/mineA" 2>&1

# Compare: identical bytes, or else everything but the relative line, the
# Median column (field 5) of the vitals lines and the plot's bar lines.
strip() { grep -v '% +/- ' "$1" | awk '/^[x+] +[0-9]+ / { $5 = "-" } !/[AM]/ || /^[x+] / || /^(Difference|No difference)/' ; }
verdict() { # ministat output, ours
	if cmp -s "$1" "$2"; then
		echo "byte-identical"
	else
		strip "$1" >"$T/t2"; strip "$2" >"$T/m2"
		if cmp -s "$T/t2" "$T/m2"; then
			echo "identical apart from the gen1 Median / relative line (by design)"
		else
			echo "DIFFERENT:"; diff "$T/t2" "$T/m2" | head -20
		fi
	fi
}
echo "inputs: 2 x $N values ($(wc -c <"$T/a") + $(wc -c <"$T/b") bytes); best of $REPS runs, output to $SINK"
echo "with the plot ($(wc -l <"$T/mine") lines of output):"
echo "  ministat (Debian):  ${tm}s"
echo "  tickprobe stat:     ${tt}s"
echo "$tm $tt" | awk '{ printf "  speed ratio:        %.1fx\n", $1 / $2 }'
echo "  output: $(verdict "$T/theirs" "$T/mine")"
echo "-A (statistics only):"
echo "  ministat (Debian):  ${tmA}s"
echo "  tickprobe stat:     ${ttA}s"
echo "$tmA $ttA" | awk '{ printf "  speed ratio:        %.1fx\n", $1 / $2 }'
echo "  output: $(verdict "$T/theirsA" "$T/mineA")"
echo "--- tickprobe stat -A:"; cat "$T/mineA"
