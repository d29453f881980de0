#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe os --watch on this machine (tools/os/watch.c): the live watch
# with clocks of a known answer, CLOCK_MONOTONIC_RAW made to run a set
# number of ppm off (--watch-fake): the one made off is found at that rate
# and named, the others agree; the records are the image's watch records;
# it sleeps between samples (its CPU time is printed).
. tests/lib/check.sh
BUILD=${BUILD:-build}
T=$BUILD/tickprobe
D=$(mktemp -d /tmp/tickprobe-oswatch.XXXXXX)
trap 'rm -rf "$D"' EXIT

# The two watches only sleep between samples: the second, with no clock made
# off, runs beside the first.
"$T" os --watch 4 --watch-fake same:0,three:0 -q -o "$D/n.log" 2>"$D/n.err" &
none_pid=$!
/usr/bin/time -f '%U %S %e' "$T" os --watch 4 --watch-fake same:0,fast:+8000 -q -o "$D/w.log" 2>"$D/w.err"
ok "os --watch 4: exit 0" $? "$(tail -n 3 "$D/w.err")"
"$PYTHON3" tests/method/watch_check.py "$D/w.log" drift fast 8000
check "the verdict on stderr too" "grep -q '^watch: fast runs 8000.0 ppm fast against the TSC, CLOCK_MONOTONIC_RAW and same' '$D/w.err'" \
	"$(grep '^watch:' "$D/w.err")"
check "the log's end checks out" "'$T' show '$D/w.log' >/dev/null 2>&1"
# shellcheck disable=SC2046 # three numbers, split into $1 $2 $3 on purpose
set -- $(tail -n 1 "$D/w.err")
echo "INFO: os --watch 4: $1 s user, $2 s system, $3 s wall (it sleeps between samples)"

wait "$none_pid"
ok "os --watch 4, no clock made off: exit 0" $? "$(tail -n 3 "$D/n.err")"
"$PYTHON3" tests/method/watch_check.py "$D/n.log" none

"$T" os --watch 25h >"$D/bad.out" 2>"$D/bad.err"
check "--watch 25h: exit 1 and why" "[ $? = 1 ] && grep -q 'a duration up to 24h' '$D/bad.err'" "$(cat "$D/bad.err")"
"$T" os --watch 2 --switch >"$D/bad.out" 2>"$D/bad.err"
check "--watch with --switch: exit 1 and why" "[ $? = 1 ] && grep -q 'does not go with --switch' '$D/bad.err'" \
	"$(cat "$D/bad.err")"
"$T" os --watch 2 --watch-fake nocolon >"$D/bad.out" 2>"$D/bad.err"
check "a --watch-fake that is not NAME:PPM: exit 1 and why" "[ $? = 1 ] && grep -q 'NAME:PPM' '$D/bad.err'" \
	"$(cat "$D/bad.err")"
