#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Boots one build of the probe under qemu -icount shift=0,sleep=off -kernel,
# once for each kind of record: one CPU, four CPUs (cpus, team_check,
# tsc_sync, percpu, contention, latency), raw samples, counters asked for that
# are absent, a CPU exception and a short watch.  Under -icount every boot is
# the same instruction by instruction, so two builds' logs compared record by
# record (tests/method/same_records.py) show what a change of code moved.
#
#   icount_boots.sh TICKPROBE KERNEL_ELF32 OUT_DIR
#
# Writes OUT_DIR/NAME.log for each boot and OUT_DIR/NAME.rc with its exit
# status; prints one line per boot, and a check of its exit status.
. tests/lib/check.sh
. tests/lib/boot.sh
TP=$1
kernel=$2
OUT=$3
mkdir -p "$OUT"

# run NAME WANT_RC CPUS OPTIONS
run() {
	boot "$1" "$2" --kernel="$kernel" --icount --smp "$3" --preset quick --timeout 300 --options "$4"
	echo "$rc" >"$OUT/$1.rc"
	echo "$1: exit $rc, $(grep -c '^{' "$OUT/$1.log") records"
}

run one 0 1 ""
run smp4 0 4 "latency=1"
run raw 0 1 "raw=1200 counters=tsc,hpet slow_rates=off"
run absent 10 1 "counters=tsc,lapic-x2,rdpid,kvmclock slow_rates=off"
run fault 11 1 "fault=gp slow_rates=off"
run watch 0 2 "watch=2 slow_rates=off fault=drift:hpet:+500"
