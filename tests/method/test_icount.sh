#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Exact tests of the measurement method under qemu -icount shift=0,sleep=off:
# the guest is deterministic and every instruction costs one TSC cycle (1 ns),
# so the TSC runs at exactly 1 GHz and an overhead-subtracted read costs
# exactly the instructions the read executes; under shift=2 (--icount=2),
# exactly 4 cycles each.  The RTC runs on the virtual
# clock from a fixed date (-rtc clock=vm): on the host's clock (QEMU's
# default) it would tick at host seconds, some 3 a virtual second under
# -icount, and differ from boot to boot.  Two boots must give the same log,
# byte for byte.
. tests/lib/check.sh
. tests/lib/boot.sh
ELF=$BUILD/tickprobe.elf
KERNEL=$BUILD/tickprobe.elf32
OUT=$BUILD/test-icount
mkdir -p "$OUT"

# `tickprobe qemu --icount` gives QEMU -icount shift=0,sleep=off and the RTC
# on the virtual clock from a fixed date.
boot first 0 --kernel="$KERNEL" --preset quick --icount --timeout 120
boot second 0 --kernel="$KERNEL" --preset quick --icount --timeout 120
# q35 leaves out the RTC's rate (its seconds' edges): first and shift2 time it.
boot q35 0 --kernel="$KERNEL" --preset quick --options slow_rates=off --icount --timeout 120 --machine q35
# --icount=2: 4 ns an instruction, the TSC still at 1 GHz.
boot shift2 0 --kernel="$KERNEL" --preset quick --icount=2 --timeout 120
checklog first --expect-status ok
if [ -s "$OUT/first.log" ] && cmp -s "$OUT/first.log" "$OUT/second.log"; then
	pass "icount: two boots under -icount give identical logs"
else
	fail "icount: two boots under -icount differ: $(cmp "$OUT/first.log" "$OUT/second.log" 2>&1 | head -1)"
fi

# Instructions of each read function before its ret, from the binary itself:
# the independent check of the descriptors' "insns".  acpi-safe's retry
# (dec; jnz) is not on the path where the first triple is in order, nor are
# rtc-time's two (the UIP wait's and the re-read's).  The reads QEMU's TCG
# does not offer (x2APIC, TSC-deadline, RDPID, Hyper-V) are not run here:
# their descriptors are checked against the binary only.
for sym in tsc_read_rdtsc tsc_read_rdtscp tsc_read_lfence hpet_read32 hpet_read64 \
	acpi_pm_read_io acpi_pm_read_safe_io i8254_read_latched i8254_read_inb40 \
	i8254_write_outb43 port80_read lapic_read_xapic lapic_read_x2apic tsc_deadline_write \
	rtc_read_seconds rtc_read_time rdpid_read hv_refcount_read; do
	start=$(nm "$ELF" | awk -v s="$sym" '$3 == s { print $1 }')
	objdump -d --no-show-raw-insn --start-address="0x$start" --stop-address="$(printf '0x%x' $((0x$start + 256)))" "$ELF" |
		awk -v s="$sym" '/^ +[0-9a-f]+:/ { if ($2 ~ /^ret/) { print s, n; exit } n++ }'
done >"$OUT/insns.txt"

python3 tests/method/icount_check.py "$OUT"
# Every record of the boots has the schema's members and types (probe/log_schema.def).
"$PYTHON3" tests/method/schema_check.py "$OUT/first.log" "$OUT/q35.log" --label icount
