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
# status; prints one line per boot.
set -u
tp=$1 kernel=$2 out=$3
mkdir -p "$out"

boot() { # name, smp, options
	"$tp" qemu --kernel="$kernel" --icount --smp "$2" --preset quick --timeout 300 -q \
		--options "$3" -o "$out/$1.log" >"$out/$1.out" 2>&1
	echo $? >"$out/$1.rc"
	echo "$1: exit $(cat "$out/$1.rc"), $(grep -c '^{' "$out/$1.log") records"
}

boot one 1 ""
boot smp4 4 "latency=1"
boot raw 1 "raw=1200 counters=tsc,hpet slow_rates=off"
boot absent 1 "counters=tsc,lapic-x2,rdpid,kvmclock slow_rates=off"
boot fault 1 "fault=gp slow_rates=off"
boot watch 2 "watch=2 slow_rates=off fault=drift:hpet:+500"
