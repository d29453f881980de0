#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Quiet idle CPUs, topology-aware contention and scale, through -kernel boots
# of the quick preset under TCG:
#  - idle APs wait in hlt where the CPU has no MONITOR (-cpu max,-monitor) and
#    in mwait where it has (-cpu max), as team_check.idle says;
#  - a CPU that never wakes (fault=ap-deaf) is dropped and listed as unwoken;
#  - on -smp 8,sockets=2,cores=2,threads=2 every contention level names its
#    readers, spread over packages, then cores, then siblings, and ends with
#    the level of two siblings; every overlap is in [0, 1];
#  - -smp 64 ends within the boot's timeout with all 64 CPUs started and at
#    most 32 KB of records.
# Timing is never asserted (a loaded host moves every figure); structure is.
# The boots run their CPUs in turn on one host thread (--tcg=single), which
# costs the host less; the contention levels' boot (idle-2x2x2) gives each
# CPU a thread (--tcg=multi), since its readers must run at once.
# shellcheck disable=SC2086 # $K and $HLT: option lists, split on purpose
. tests/lib/check.sh
. tests/boot/lib.sh
OUT=$BUILD/test-boot/idle
rm -rf "$OUT" && mkdir -p "$OUT"
need_tool
[ -f "$BUILD/tickprobe.elf32" ] || { fail "setup: $BUILD/tickprobe.elf32 missing (make all)"; exit 1; }
# Only the counters the contention levels read: the boots stay short, and the
# LAPIC timer, whose calibration a loaded host can push past its wait bound,
# is not what these boots test.
K="--kernel=$BUILD/tickprobe.elf32 --preset quick --tcg=single"
ONLY="counters=tsc,hpet,acpi-fast"
SMP="python3 tests/boot/smpcheck.py"
HLT="--cpu max,-monitor"
t_all=$(now_ms)

smp() {
	name=$1
	shift
	$SMP "$OUT/$name.log" --label "$name" --quiet "$@"
}

boot idle-hlt 0 $K --machine pc $HLT --options "$ONLY" -- -smp 2
checklog idle-hlt --expect-status ok
smp idle-hlt --count 2 --started 2 --team --idle hlt

boot idle-mwait 0 $K --machine pc --cpu max --options "$ONLY" -- -smp 2
checklog idle-mwait --expect-status ok
smp idle-mwait --count 2 --started 2 --team --idle mwait

# CPU 1 stops at its wake-up without taking the work: the first run waits its
# 1 s bound and drops it, the second leaves it out.
boot idle-deaf 0 $K --machine pc $HLT --options "$ONLY fault=ap-deaf" -- -smp 3
checklog idle-deaf --expect-status ok --expect team_check.unwoken='[1]'
smp idle-deaf --count 3 --started 3 --team --dropped 1 --unwoken 1 --idle hlt

# QEMU numbers the vCPUs thread first: APIC IDs 0-7 are (package, core,
# thread) = (0,0,0) (0,0,1) (0,1,0) (0,1,1) (1,0,0) ...; so one a package is
# 0,4, one a core 0,4,2,6, and the siblings' level 0,1.
boot idle-2x2x2 0 $K --tcg=multi --machine pc $HLT --options "$ONLY" -- -smp 8,sockets=2,cores=2,threads=2
checklog idle-2x2x2 --expect-status ok --expect cpus.list.1.thread=1 --expect cpus.list.4.package=1
smp idle-2x2x2 --count 8 --started 8 --team --idle hlt --contention \
	--levels "0|0,4|0,4,2,6|0,4,2,6,1,5,3,7|s0,1"

# Scale: 64 CPUs; the boot's own timeout (240 s) bounds it.  The status may
# be ok or ok-absent: a loaded host can leave a counter unhealthy.
t0=$(now_ms)
"$TP" qemu --timeout 240 -o "$OUT/idle-64.log" $K --machine q35 $HLT --options "$ONLY" -- -smp 64 >"$OUT/idle-64.out" 2>"$OUT/idle-64.err"
rc=$?
echo "boot idle-64: exit $rc in $(( $(now_ms) - t0 )) ms"
if [ "$rc" -eq 0 ] || [ "$rc" -eq 10 ]; then
	pass "idle-64: tickprobe qemu ends ok or ok-absent within its timeout (exit $rc)"
else
	fail "idle-64: tickprobe qemu exits $rc: $(tail -n 2 "$OUT/idle-64.err" | tr '\n' ' ')"
fi
checklog idle-64 --max-record-bytes 32768
smp idle-64 --count 64 --started 64 --team --idle hlt --contention

echo "idle: all boots in $(( $(now_ms) - t_all )) ms"
