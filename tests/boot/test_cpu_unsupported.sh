#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# CPUs the image cannot use: 32-bit-only models (qemu32, pentium3, 486, AMD's
# athlon, isapc's default), and 64-bit ones without the TSC or SSE2.  Each must
# print why, with the vendor and family, on COM1 (boot/cpu_check.S, and
# boot/efi_cpu.c on UEFI), end through the exit device with QEMU exit 39
# (`tickprobe qemu` exit 13), write no record (`tickprobe show` then says why,
# exit 2), and, without the exit device, halt with the message on screen.
. tests/lib/check.sh
. tests/lib/boot.sh
OUT=$BUILD/test-boot/cpu
rm -rf "$OUT" && mkdir -p "$OUT"
need_tool
for f in tickprobe.elf32 tickprobe.img; do
	[ -f "$BUILD/$f" ] || { fail "setup: $BUILD/$f missing (make all)"; exit 1; }
done
ELF=$BUILD/tickprobe.elf32
HEAD="tickprobe: this CPU cannot run tickprobe: it lacks"

# refused NAME LACKS VENDOR FAMILY: NAME's serial log is the refusal, naming
# LACKS (its first line, with the list's indented rest joined), the vendor and
# the family, and holds no record.
refused() {
	name=$1 lacks=$2 vendor=$3 family=$4
	log=$OUT/$name.log
	why=$(tr -d '\r' <"$log" | awk -v h="$HEAD " 'i = index($0, h) { s = substr($0, i + length(h)); on = 1; next }
		on && /^  / { s = s " " substr($0, 3); next } { on = 0 } END { print s }')
	if [ "$why" = "$lacks." ]; then
		pass "$name: the serial line says it lacks $lacks"
	else
		fail "$name: the refusal says '$why', not '$lacks.'"
	fi
	if grep -q "tickprobe: CPU vendor $vendor, family $family, model [0-9]*, stepping [0-9]*" "$log"; then
		pass "$name: vendor $vendor, family $family"
	else
		fail "$name: no 'CPU vendor $vendor, family $family' line: $(grep 'CPU vendor' "$log")"
	fi
	if grep -q '{"type":' "$log"; then
		fail "$name: a record was written after the refusal"
	else
		pass "$name: no record (nothing was measured)"
	fi
	"$TP" show "$log" >/dev/null 2>"$OUT/$name.show"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF "$log: no records: the CPU cannot run the probe: it lacks $lacks." "$OUT/$name.show"; then
		pass "$name: tickprobe show exits 2 and gives the reason"
	else
		fail "$name: tickprobe show exits $rc: $(cat "$OUT/$name.show")"
	fi
}

# kernel NAME CPU: -kernel on that CPU model; `tickprobe qemu` must exit 13
# (QEMU's 39, EXIT_CODE_UNSUPPORTED).
kernel() {
	boot "$1" 13 --kernel="$ELF" --preset quick --timeout 30 --cpu "$2"
}

kernel qemu32 qemu32
refused qemu32 "64-bit long mode" GenuineIntel 6
kernel pentium3 pentium3
refused pentium3 "64-bit long mode, SSE2" GenuineIntel 6
kernel 486 486
refused 486 "64-bit long mode, PAE, TSC, MSRs, CMPXCHG8B, CMOV, FXSR, SSE, SSE2" GenuineIntel 4
kernel athlon athlon
refused athlon "64-bit long mode" AuthenticAMD 6
# isapc: a machine `tickprobe qemu` does not offer (pc and q35 only), so QEMU
# itself, with the exit device.
timeout 30 qemu-system-x86_64 -machine isapc -kernel "$ELF" -append preset=quick -display none -nic none -no-reboot \
	-serial "file:$OUT/isapc.log" -device "$QEMU_EXIT_DEVICE" >"$OUT/isapc.err" 2>&1
rc=$?
check "isapc: QEMU exits 39 (EXIT_CODE_UNSUPPORTED)" "[ $rc -eq 39 ]" "exit $rc: $(head -c 200 "$OUT/isapc.err")"
refused isapc "64-bit long mode, PAE, TSC, MSRs, CMPXCHG8B, CMOV, FXSR, SSE, SSE2" GenuineIntel 4
kernel no-tsc max,-tsc
refused no-tsc "TSC" AuthenticAMD 15
kernel no-sse2 qemu64,-sse2
refused no-sse2 "SSE2" AuthenticAMD 15

# isapc with a 64-bit CPU runs (no ACPI, no MADT there: ok-absent).
timeout 60 qemu-system-x86_64 -machine isapc -cpu max -kernel "$ELF" -append "preset=quick slow_rates=off" -display none -nic none \
	-no-reboot -serial "file:$OUT/isapc-max.log" -device "$QEMU_EXIT_DEVICE" >"$OUT/isapc-max.err" 2>&1
rc=$?
if [ "$rc" -eq 35 ]; then
	pass "isapc-max: QEMU exits 35 (ok-absent)"
else
	fail "isapc-max: QEMU exits $rc, not 35"
fi
checklog isapc-max --expect-status ok-absent --expect acpi.rsdp=null

# Through GRUB from the disk, and through the UEFI application on OVMF (the
# TSC masked: OVMF itself times with the PM timer): `tickprobe qemu` exits 13
# and gives the reason.
for b in "grub-p3 --cpu pentium3" "uefi-no-tsc --firmware uefi --cpu max,-tsc"; do
	# shellcheck disable=SC2086 # a name and its options, split on purpose
	set -- $b
	name=$1
	shift
	boot "$name" 13 --image "$BUILD/tickprobe.img" --preset quick "$@"
	if grep -q "the CPU cannot run the probe (QEMU exit 39): it lacks" "$OUT/$name.err"; then
		pass "$name: tickprobe qemu gives the reason"
	else
		fail "$name: tickprobe qemu says: $(tail -n 1 "$OUT/$name.err")"
	fi
done
refused grub-p3 "64-bit long mode, SSE2" GenuineIntel 6
refused uefi-no-tsc "TSC" AuthenticAMD 15
n=$(grep -c "$HEAD" "$OUT/uefi-no-tsc.log")
if [ "$n" -eq 1 ]; then
	pass "uefi-no-tsc: the refusal crosses the serial line once (not mirrored through ConOut)"
else
	fail "uefi-no-tsc: the refusal is on the serial line $n times"
fi

# Without the exit device, as on a real machine (which `tickprobe qemu`
# always adds): halted, the message on screen.
sock=$OUT/mon.sock
timeout 30 qemu-system-x86_64 -cpu pentium3 -kernel "$ELF" -serial none -no-reboot -nic none \
	-monitor "unix:$sock,server,nowait" -display none >"$OUT/screen.err" 2>&1 &
qpid=$!
timeout 25 "$PYTHON3" tests/fault/vgascreen.py "$sock" "$OUT/screen.txt" --until "Power off or reset" --timeout 20 --quit
seen=$?
wait $qpid
if [ $seen -eq 0 ] && grep -q "^$HEAD 64-bit long mode, SSE2\.$" "$OUT/screen.txt" &&
	grep -q "^tickprobe: CPU vendor GenuineIntel, family 6, model" "$OUT/screen.txt"; then
	pass "screen: the refusal and the CPU are on screen; QEMU, halted, was still there to quit"
else
	fail "screen: not on screen within 20 s: $(head -n 3 "$OUT/screen.txt" | tr '\n' '|')"
fi
