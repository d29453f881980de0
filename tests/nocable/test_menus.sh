#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Headless machines: both menus reach the serial line, once, and take keys
# from it; their escape sequences stay out of the records; with no keyboard
# and no screen the image boots "default" by itself and ends; the UEFI shell
# starts the app with arguments from startup.nsh.
# shellcheck disable=SC2046 # stick prints QEMU's options for a disk, split on purpose
. tests/lib/check.sh
. tests/nocable/lib.sh
OUT=$BUILD/test-nocable/menus
rm -rf "$OUT" && mkdir -p "$OUT"
need_nocable
# The default preset, made quick (still preset=default); the RTC's rate, timed
# from one second's edge to the next, is not what these boots test.
FAST="samples=10000 calib_ms=20 slow_rates=off"
# The boots through `tickprobe qemu` may end ok or ok-absent (0 or 10): they
# test the menus, not the counters' health (see qboot in lib.sh).

# --- GRUB on serial (BIOS disk boot), no keyboard, no screen ----------------
boot bios-menu "0|10" --image "$IMG" --firmware bios --machine pc,i8042=off --preset default --options "$FAST" \
	--menu-timeout 1 -- -vga none
checklog bios-menu --expect-boot bios --expect begin.options.preset='"default"'
ended bios-menu
[ "$(count bios-menu "1) default")" -ge 1 ] && [ "$(count bios-menu "3) verbose")" -ge 1 ]
ok "bios-menu: GRUB's menu is in the serial capture (its entries '1) default' ... '3) verbose')" $?
grep -aq "$(printf '\033')\[" "$OUT/bios-menu.log"
ok "bios-menu: and so are GRUB's escape sequences" $?
show_exit "$OUT/bios-menu.log" 0 bios-menu
grep -aq "tickprobe: no log file: BIOS boot" "$OUT/bios-menu.log"
ok "bios-menu: the serial text says the log goes to the serial port only" $?

# --- the UEFI menu with a screen: ConOut reaches the serial line too ---------
copy_image uefi-menu default 20 slow_rates=off
qboot_keys uefi-menu ended "choose a preset" "2" -drive format=raw,file="$OUT/uefi-menu.img"
checklog uefi-menu --expect-boot uefi --expect begin.cmdline='"preset=quick slow_rates=off"'
ended uefi-menu
for line in "choose a preset" "1) default" "2) quick" "3) verbose"; do
	n=$(count uefi-menu "$line")
	[ "$n" -eq 1 ]
	ok "uefi-menu: '$line' crosses the serial line once" $? "$n times"
done
show_exit "$OUT/uefi-menu.log" 0 uefi-menu

# --- UEFI with no keyboard and no screen: "default" by itself -----------------
boot uefi-headless "0|10" --image "$IMG" --firmware uefi --machine pc,i8042=off --preset default --options "$FAST" \
	--menu-timeout 1 -- -vga none
checklog uefi-headless --expect-boot uefi --expect begin.options.preset='"default"'
ended uefi-headless
[ "$(count uefi-headless "choose a preset")" -eq 1 ]
ok "uefi-headless: the menu shows on the serial line, then the countdown boots default" $?

# --- the UEFI shell: startup.nsh starts the app with preset=quick --------------
# No \EFI\BOOT\BOOTX64.EFI, so OVMF falls back to its built-in shell, which
# runs startup.nsh from FS0 (Enter skips its 5 s wait).
S=$OUT/shell.img
cp "$IMG" "$S"
mmd -i "$S@@$ESP" ::EFI/tickprobe &&
	mmove -i "$S@@$ESP" ::EFI/BOOT/BOOTX64.EFI ::EFI/tickprobe/BOOTX64.EFI &&
	printf 'fs0:\\EFI\\tickprobe\\BOOTX64.EFI preset=quick slow_rates=off\r\n' >"$OUT/startup.nsh" &&
	mcopy -i "$S@@$ESP" "$OUT/startup.nsh" ::startup.nsh
ok "shell: a copy of the image with the app in \\EFI\\tickprobe and a startup.nsh" $?
qboot_keys shell ended "seconds to skip startup.nsh" '\r' $(stick "$S")
checklog shell --expect-boot uefi --expect begin.cmdline='"preset=quick slow_rates=off"' \
	--expect begin.options.preset='"quick"' --expect begin.log_file='"\\tickprobe\\logs\\0000.log"'
ended shell
[ "$(count shell "Shell> fs0:")" -ge 1 ]
st=$?
ok "shell: the shell ran it: $(plain "$OUT/shell.log" | grep -a -m1 'Shell> fs0:' | sed 's/.*Shell> //')" $st
logfile "$S" 0000 "$OUT/0000.log"
same_records shell "$OUT/0000.log"
