#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What follows the run (probe/run_after.c): after=reboot and after=poweroff
# on SeaBIOS (pc and q35, through -kernel) and on OVMF (the image as a USB
# stick).  QEMU must end by itself: -no-reboot turns a reset into an exit,
# and QMP's SHUTDOWN event tells a reset ("guest-reset") from ACPI S5 or
# ResetSystem(EfiResetShutdown) ("guest-shutdown"), which both exit 0.  The
# log must be complete, its end record naming what followed, and the serial
# line the mechanism that fired (boot/bios_power.c, boot/efi_after.c).  A key
# typed on the serial line or pressed on the keyboard (QMP send-key; UEFI:
# the firmware's ConIn) during after_s= cancels; a power off that cannot be
# done (no ACPI) halts and says why.  The exit device is there
# in every boot: a halt reaches it (exit 33/35), a reboot or power off must
# leave it alone.
# shellcheck disable=SC2046 # stick prints QEMU's options for a disk, split on purpose
. tests/lib/check.sh
. tests/nocable/lib.sh
OUT=$BUILD/test-remote/after
rm -rf "$OUT" && mkdir -p "$OUT"
need_nocable
# QEMU itself, not `tickprobe qemu`: QMP tells a reset from a power off.
WATCH="python3 tests/remote/qemuwatch.py"
KERNEL=$BUILD/tickprobe.elf32
BASE="qemu-system-x86_64 -accel tcg -cpu max -m 256 -no-reboot -nic none -monitor none -display none
 -device $QEMU_EXIT_DEVICE"
OPTS="preset=quick smp=off counters=tsc"

# watch NAME TIMEOUT [--type PATTERN TEXT | --key PATTERN QCODE] QEMU-ARGS...:
# $OUT/NAME.log is the serial line, $OUT/NAME.watch the QMP events and
# QEMU's exit (tests/remote/qemuwatch.py).
watch() {
	name=$1 limit=$2
	shift 2
	typ=
	if [ "$1" = --type ] || [ "$1" = --key ]; then
		typ=$1 pat=$2 txt=$3
		shift 3
	fi
	t0=$(now_ms)
	# shellcheck disable=SC2086
	if [ -n "$typ" ]; then
		$WATCH "$typ" "$pat" "$txt" "$limit" "$OUT/$name.log" -- $BASE "$@" >"$OUT/$name.watch" 2>&1
	else
		$WATCH "$limit" "$OUT/$name.log" -- $BASE "$@" >"$OUT/$name.watch" 2>&1
	fi
	wrc=$?
	ms=$(( $(now_ms) - t0 ))
	echo "boot $name: $(tr '\n' ' ' <"$OUT/$name.watch")in $ms ms ($(wc -c <"$OUT/$name.log") serial bytes)"
}

# ends NAME EVENT: QEMU ended by itself, after QMP event EVENT (or, a
# pattern, "exit N" for the exit device's status).
ends() {
	[ "$wrc" -eq 0 ] && grep -Eqx "$2" "$OUT/$1.watch"
	ok "$1: QEMU ended by itself ($2)" $? "$(tr '\n' ' ' <"$OUT/$1.watch")"
}

# after_is NAME WANT: end.after is WANT and the log is complete.
after_is() {
	got=$(field "$1" end after)
	[ "$got" = "\"$2\"" ] && "$TP" show "$OUT/$1.log" >"$OUT/$1.show" 2>&1
	ok "$1: the log is complete and end.after is $2" $? "end.after $got, show: $(head -c 200 "$OUT/$1.show")"
}

# last_try NAME TEXT: the last mechanism the serial line names is TEXT.
last_try() {
	l=$(tr -d '\r' <"$OUT/$1.log" | grep -a '^tickprobe: \(reboot\|poweroff\): ' | tail -n 1)
	[ "$l" = "tickprobe: $2" ]
	ok "$1: the mechanism tried last is '$2'" $? "saw '$l'"
}

# --- SeaBIOS, -kernel ----------------------------------------------------------
watch bios-pc-reboot 120 -machine pc -kernel "$KERNEL" -append "$OPTS after=reboot"
ends bios-pc-reboot "event SHUTDOWN guest-reset"
after_is bios-pc-reboot reboot
last_try bios-pc-reboot "reboot: port 0xcf9 (reset control <- 0x02, then 0x06)"
field bios-pc-reboot end after_via | grep -q 'no FADT reset register: FADT revision 1'
ok "bios-pc-reboot: end.after_via says pc's FADT (revision 1) has no reset register" $?

watch bios-q35-reboot 120 -machine q35 -kernel "$KERNEL" -append "$OPTS after=reboot"
ends bios-q35-reboot "event SHUTDOWN guest-reset"
after_is bios-q35-reboot reboot
last_try bios-q35-reboot "reboot: the FADT reset register (io 0xcf9 <- 0xf)"

for m in pc q35; do
	watch bios-$m-poweroff 120 -machine $m -kernel "$KERNEL" -append "$OPTS after=poweroff"
	ends bios-$m-poweroff "event SHUTDOWN guest-shutdown"
	after_is bios-$m-poweroff poweroff
	last_try bios-$m-poweroff "poweroff: ACPI S5"
	field bios-$m-poweroff end after_via | grep -q 'ACPI S5: PM1a_CNT io 0x604 <- SLP_TYP 0 | SLP_EN'
	ok "bios-$m-poweroff: end.after_via names PM1a_CNT 0x604 and \\_S5's SLP_TYP 0" $?
done

# No ACPI at all: power off cannot be done; the machine halts and says why.
watch bios-noacpi 120 -machine pc,acpi=off -kernel "$KERNEL" -append "$OPTS after=poweroff"
ends bios-noacpi "exit ($QEMU_OK|$QEMU_OK_ABSENT)"
after_is bios-noacpi halt
field bios-noacpi end after_problem | grep -q 'poweroff asked for, but not possible: no FADT'
st=$? why=$(field bios-noacpi end after_problem)
ok "bios-noacpi: end.after_problem says why: $why" $st

# cancelled NAME: a key during the countdown made the machine halt: it
# reached the exit device, with no reset, and the log says so.
cancelled() {
	grep -Eqx "exit ($QEMU_OK|$QEMU_OK_ABSENT)" "$OUT/$1.watch" && ! grep -q "^event" "$OUT/$1.watch"
	ok "$1: the machine halted (it reached the exit device), no reset" $? "$(tr '\n' ' ' <"$OUT/$1.watch")"
	after_is "$1" halt
	[ "$(field "$1" end after_cancelled)" = true ] && grep -aq 'a key was pressed: the machine halts' "$OUT/$1.log"
	ok "$1: end.after_cancelled true, and the screen says so" $?
}

# A key on the serial line, then on the keyboard (the i8042), during the
# countdown: halt, not reboot.
watch bios-cancel 120 --type "rebooting in 3 s" x -machine pc -kernel "$KERNEL" -append "$OPTS after=reboot after_s=3"
cancelled bios-cancel
watch bios-cancel-kbd 120 --key "rebooting in 3 s" x -machine q35 -kernel "$KERNEL" -append "$OPTS after=reboot after_s=3"
cancelled bios-cancel-kbd

# --- OVMF: the image as a USB stick ---------------------------------------------
for k in pc:reboot q35:poweroff; do
	m=${k%:*} a=${k#*:}
	copy_image "uefi-$a" quick 0 "counters=tsc smp=off after=$a"
	watch "uefi-$a" 240 -machine "$m" -bios "$OVMF" $(stick "$OUT/uefi-$a.img")
	after_is "uefi-$a" "$a"
	logfile "$OUT/uefi-$a.img" 0000 "$OUT/uefi-$a.0000.log"
	same_records "uefi-$a" "$OUT/uefi-$a.0000.log"
done
ends uefi-reboot "event SHUTDOWN guest-reset"
last_try uefi-reboot "reboot: ResetSystem(EfiResetCold)"
ends uefi-poweroff "event SHUTDOWN guest-shutdown"
last_try uefi-poweroff "poweroff: ResetSystem(EfiResetShutdown)"

# A key on the keyboard during the countdown, through the firmware's ConIn.
copy_image uefi-cancel quick 0 "counters=tsc smp=off after=reboot after_s=5"
watch uefi-cancel 240 --key "rebooting in 4 s" x -machine q35 -bios "$OVMF" $(stick "$OUT/uefi-cancel.img")
cancelled uefi-cancel
