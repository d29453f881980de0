#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The MADT the probe reads from QEMU's firmware tables: each case is one boot
# of the multiboot kernel (preset=quick, about 1 s under TCG) with a CPU count
# from -smp, and the acpi record's madt summary must say exactly that many
# enabled CPUs (SeaBIOS lists the CPUs up to maxcpus, the absent ones with
# Enabled clear), one I/O APIC, the local APIC at 0xFEE00000 and no problem.
# The whole log is checked too (tests/boot/checklog.py, via faultcheck.py).
. tests/lib/check.sh
BUILD=${BUILD:-build}
ELF=$BUILD/tickprobe.elf32
QEMU=${QEMU:-qemu-system-x86_64}
FC="python3 tests/fault/faultcheck.py"

for t in "$QEMU" python3 timeout; do
	command -v "$t" >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
[ -f "$ELF" ] || { fail "setup: $ELF is not built (make all)"; exit 1; }
OUT=$(mktemp -d /tmp/tickprobe-madt.XXXXXX)
trap 'rm -rf "$OUT"' EXIT INT TERM

# boot NAME MACHINE SMP ENABLED DISABLED
boot() {
	name=$1 machine=$2 smp=$3 enabled=$4 disabled=$5
	timeout 60 "$QEMU" -machine "$machine" -accel tcg -cpu max -m 256 -smp "$smp" \
		-kernel "$ELF" -append "preset=quick slow_rates=off" -chardev "file,id=ser0,path=$OUT/$name.log" \
		-serial chardev:ser0 -device isa-debug-exit,iobase=0xf4,iosize=0x04 -no-reboot \
		-nic none -monitor none -display none >"$OUT/$name.err" 2>&1
	rc=$?
	[ "$enabled" -eq 1 ] && s="" || s=s
	if [ $rc -ne 33 ]; then
		fail "$name: QEMU exits $rc, not 33: $(tail -n 2 "$OUT/$name.err" | tr '\n' ' ')"
	else
		$FC "$OUT/$name.log" --label "$name" --status ok --expect acpi.madt.cpus="$enabled" \
		--expect acpi.madt.disabled="$disabled" --expect acpi.madt.listed="$enabled" \
		--expect acpi.madt.online_capable=0 --expect acpi.madt.x2apic=0 \
		--expect acpi.madt.ioapics=1 --expect acpi.madt.lapic_address=$((0xFEE00000)) \
		--expect acpi.madt.tables=1 --expect acpi.madt.problems=0 --expect acpi.madt.oem_id='"BOCHS"' \
		--text "MADT: $enabled CPU$s, 1 I/O APIC, local APIC 0xfee00000"
	fi
}

boot pc-smp1 pc 1 1 0
boot q35-smp4 q35 4 4 0
boot pc-smp3 pc 3 3 0
boot q35-smp2-max4 q35 2,maxcpus=4 2 2
boot q35-smp8-topology q35 8,sockets=2,cores=2,threads=2 8 0
