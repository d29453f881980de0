#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The other CPUs: started on both boot paths (the multiboot kernel through
# -kernel and GRUB on SeaBIOS, the EFI application on OVMF), on pc and q35,
# and driven through one team operation.  Each log must be valid as a whole
# (checklog.py) and its `cpus` record consistent (smpcheck.py); the start-up
# time of every AP is printed.  The matrix is kept small: the OVMF boots are
# the slowest.  Most boots run their CPUs in turn on one host thread
# (--tcg=single): the same records, at a fraction of the host's time, since
# with a thread a CPU every waiting AP spins at once with the others.  The
# boots whose subject is CPUs running at the same moment keep a thread each
# (--tcg=multi): both boot paths (k-pc-2, uefi-pc-2), every CPU spinning on
# the TSC (k-latency), and the skew found across vCPU threads (k-skew); the
# contention levels with their readers at once are tests/boot/test_idle.sh's.
# shellcheck disable=SC2086 # $K and $I: option lists, split on purpose
. tests/lib/check.sh
. tests/lib/boot.sh
OUT=$BUILD/test-boot/smp
rm -rf "$OUT" && mkdir -p "$OUT"
need_tool
for f in tickprobe.elf32 tickprobe.img; do
	[ -f "$BUILD/$f" ] || { fail "setup: $BUILD/$f missing (make all)"; exit 1; }
done
# slow_rates=off: the RTC's 1-2.5 s rate check is not what this tests, and
# under TCG every spinning vCPU burns host time through it.  A later --tcg
# wins over the one here.
K="--kernel=$BUILD/tickprobe.elf32 --preset quick --options slow_rates=off --tcg=single"
I="--image $BUILD/tickprobe.img --preset quick --options slow_rates=off --tcg=single"
SMP="python3 tests/boot/smpcheck.py"
t_all=$(now_ms)

# smp NAME [smpcheck options...]: the cpus record of NAME's log.
smp() {
	name=$1
	shift
	$SMP "$OUT/$name.log" --label "$name" "$@"
}

# ---- every CPU running: BIOS (-kernel and GRUB), pc and q35, 2 to 8 CPUs ----
boot k-pc-2 0 $K --tcg=multi --machine pc -- -smp 2
checklog k-pc-2 --expect-status ok --expect-boot bios
smp k-pc-2 --count 2 --states bsp,running --team

# APIC IDs with a gap (3 cores a socket: 0,1,2 then 4,5,6), and CPUs the MADT
# lists as not enabled (maxcpus: room for hot-plug).
boot k-sparse-6 0 $K --machine q35 -- -smp 6,sockets=2,cores=3
checklog k-sparse-6 --expect-status ok --expect cpus.list.3.apic_id=4 --expect cpus.list.5.apic_id=6
smp k-sparse-6 --count 6 --started 6 --team

boot k-maxcpus 0 $K --machine pc -- -smp 2,maxcpus=4
checklog k-maxcpus --expect-status ok
# The MADT parser lists enabled and online-capable CPUs; QEMU's hot-pluggable
# slots are neither, so they are counted in acpi.madt.disabled, not listed.
checklog k-maxcpus --expect acpi.madt.disabled=2
smp k-maxcpus --count 2 --states bsp,running --team

boot k-pc-8 0 $K --machine pc -- -smp 8
# The default run on 8 CPUs: at most 24 KB of records, per-CPU data included.
checklog k-pc-8 --expect-status ok --max-record-bytes 24576
smp k-pc-8 --count 8 --started 8 --team

# GRUB's multiboot information sits elsewhere in low memory than -kernel's.
boot grub-q35-4 0 $I --firmware bios --machine q35 -- -smp 4
checklog grub-q35-4 --expect-status ok --expect-boot bios
smp grub-q35-4 --count 4 --started 4 --team

# ---- OVMF: the EFI application, boot services active ----
# (8 CPUs on OVMF work too, but take 15 s: 8 and 2 are left to -kernel and pc.)
boot uefi-q35-4 0 $I --firmware uefi --machine q35 -- -smp 4
checklog uefi-q35-4 --expect-status ok --expect-boot uefi
smp uefi-q35-4 --count 4 --started 4 --team

boot uefi-pc-2 0 $I --tcg=multi --firmware uefi --machine pc -- -smp 2
checklog uefi-pc-2 --expect-status ok --expect-boot uefi
smp uefi-pc-2 --count 2 --states bsp,running --team

# ---- one CPU, and the options that leave CPUs out ----
boot k-1 0 $K --machine pc -- -smp 1
checklog k-1 --expect-status ok --expect cpus.count=1 --expect cpus.list.0.state='"bsp"'
smp k-1 --count 1 --states bsp --team --quiet

boot k-smp-off 0 $K --machine pc --options "smp=off" -- -smp 4
checklog k-smp-off --expect-status ok
smp k-smp-off --count 4 --states bsp,disabled,disabled,disabled --why smp=off --team --quiet

boot k-cpus-2 0 $K --machine q35 --options "cpus=2" -- -smp 4
checklog k-cpus-2 --expect-status ok
smp k-cpus-2 --count 4 --states bsp,running,disabled,disabled --why "not in cpus=" --team

# ---- a CPU that never answers: "no response" within its bound, and the run
# goes on to a valid end (the bound is 1 s; the hang guard here is 60 s) ----
t0=$(now_ms)
boot k-ghost 0 $K --machine pc --timeout 60 --options "ghost_cpu=9" -- -smp 2
ms=$(($(now_ms) - t0))
checklog k-ghost --expect-status ok --expect cpus.list.2.apic_id=9
smp k-ghost --count 3 --states bsp,running,"no response" --why "no response within 1000 ms" --team
if [ "$ms" -lt 60000 ]; then
	pass "k-ghost: the boot with a ghost CPU ended in $ms ms"
else
	fail "k-ghost: the boot with a ghost CPU took $ms ms"
fi

# ---- a CPU that stops answering mid-run: dropped after the 1 s bound, left
# out of the next run, and the run goes on ----
boot k-ap-hang 0 $K --machine pc --options "fault=ap-hang" -- -smp 3
checklog k-ap-hang --expect-status ok --expect team_check.dropped='[1]'
smp k-ap-hang --count 3 --started 3 --team --dropped 1 --quiet

# ---- an exception on an AP: the boot CPU writes it and ends the run ----
boot k-ap-gp 11 $K --machine pc --options "fault=ap-gp" -- -smp 4
checklog k-ap-gp --expect-status failed --expect exception.step='"team check"' --expect exception.cpu=1 \
	--expect exception.apic_id=1
smp k-ap-gp --count 4 --started 4 --exception-cpu 1 --quiet

boot uefi-ap-gp 11 $I --firmware uefi --machine q35 --options "fault=ap-gp" -- -smp 2
checklog uefi-ap-gp --expect-status failed --expect exception.cpu=1
smp uefi-ap-gp --count 2 --started 2 --exception-cpu 1 --quiet

# The boot CPU's own exception names it too.
boot k-gp 11 $K --machine pc --options "fault=gp" -- -smp 2
checklog k-gp --expect-status failed --expect exception.cpu=0 --expect exception.apic_id=0

# ---- -icount: two boots give identical cpus records, start-up times included ----
boot k-icount-1 0 $K --machine pc --icount -- -smp 4
boot k-icount-2 0 $K --machine pc --icount -- -smp 4
smp k-icount-1 --count 4 --started 4 --team
c1=$(grep -a '"type":"cpus"' "$OUT/k-icount-1.log")
c2=$(grep -a '"type":"cpus"' "$OUT/k-icount-2.log")
if [ -n "$c1" ] && [ "$c1" = "$c2" ]; then
	pass "icount: two boots give identical cpus records"
else
	fail "icount: the cpus records differ: $(printf '%s\n%s\n' "$c1" "$c2" | cut -c1-300)"
fi
if cmp -s "$OUT/k-icount-1.log" "$OUT/k-icount-2.log"; then
	pass "icount: two 4-CPU boots give identical logs"
else
	fail "icount: two 4-CPU boots differ: $(cmp "$OUT/k-icount-1.log" "$OUT/k-icount-2.log" 2>&1 | head -1)"
fi

for r in cpus tsc_sync contention percpu; do
	c1=$(grep -a "\"type\":\"$r\"" "$OUT/k-icount-1.log")
	c2=$(grep -a "\"type\":\"$r\"" "$OUT/k-icount-2.log")
	if [ -n "$c1" ] && [ "$c1" = "$c2" ]; then
		pass "icount: two boots give identical $r records"
	else
		fail "icount: the $r records differ or are missing"
	fi
done

# ---- tsc_skew=CPU:CYCLES: a TSC skewed in software (TCG ignores writes to the
# TSC) must be found by the warp test and by the offset estimate ----
# Under TCG a round trip between vCPU threads on a busy 2-core host took up to
# 27 ms (70 M cycles), so the skew there is 10^10 cycles; under icount the
# estimate is exact, and 10^6 suffices.
boot k-skew 0 $K --tcg=multi --machine q35 --options "tsc_skew=2:10000000000" -- -smp 4
boot k-icount-skew 0 $K --machine q35 --icount --options "tsc_skew=2:1000000" -- -smp 4
for b in k-skew:10000000000 k-icount-skew:1000000; do
	python3 tests/boot/skew_check.py "$OUT/${b%%:*}.log" "${b#*:}" "${b%%:*}"
done

# ---- latency=SECONDS: every CPU spins on the TSC and bins its gaps ----
boot k-latency 0 $K --tcg=multi --machine pc --options "latency=1" -- -smp 2
python3 tests/boot/latency_check.py "$OUT/k-latency.log"

# ---- contention: the curve's structure; its numbers are reported, never
# asserted (on one host thread they are QEMU's turn-taking) ----
python3 tests/boot/contention_check.py "$OUT/k-pc-8.log"

echo "smp: the matrix took $(($(now_ms) - t_all)) ms"
