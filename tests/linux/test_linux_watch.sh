#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The kernel in the loop of the watch: in the Linux guest of `tickprobe qemu
# --linux`, `tickprobe os --watch --raw-io` reads the TSC, CLOCK_MONOTONIC_RAW,
# and through the kernel (ioperm, /dev/mem) the PM timer and the HPET; then
# the probe's watch=, on bare metal, the same VM.  The two must agree
# (tests/linux/watch_agree.py).  About 40 s of wall time on 2 cores.  The
# kernel is the one tests/linux/test_linux.sh uses.
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
OUT=$BUILD/test-linux-watch
export XDG_CACHE_HOME
XDG_CACHE_HOME=$(cd "$BUILD" && pwd)/cache
rm -rf "$OUT"
mkdir -p "$OUT"

timeout 400 "$TP" qemu --linux --preset quick --timeout 240 --options "slow_rates=off watch=10" \
	--os-options "--watch 10 --raw-io" --keep "$OUT" >"$OUT/out" 2>"$OUT/err"
rc=$?
ok "the guest's live watch, then the probe's: exit 0" $rc "exit $rc: $(tail -n 3 "$OUT/err" | tr '\n' ' ')"
"$PYTHON3" tests/linux/watch_agree.py "$OUT/bare.log" "$OUT/os.log"
