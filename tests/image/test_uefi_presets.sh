#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The UEFI menu on a presets.cfg edited on the stick: the copy beside
# BOOTX64.EFI is changed in a copy of the image (same length, in place: the
# FAT holds it in one piece), one preset given other words and one line
# broken.  The preset must boot its own words rather than preset=NAME, and the
# broken line must be named, file and line, on the console (OVMF mirrors it to
# the serial log) while the other presets stay.
. tests/lib/check.sh
. tests/boot/lib.sh
OUT=$BUILD/test-image/uefi-presets
rm -rf "$OUT" && mkdir -p "$OUT"
need_tool
IMG=$BUILD/tickprobe.img
[ -f "$IMG" ] || { fail "setup: $IMG missing (make image)"; exit 1; }
[ -f /usr/share/ovmf/OVMF.fd ] || { fail "setup: OVMF missing (make deps)"; exit 1; }

quick=$(grep '^quick:' image/presets.cfg)
verbose_line=$(grep -n '^verbose:' image/presets.cfg | cut -d: -f1)
if ! python3 tests/image/edit_presets.py "$IMG" "$OUT/edited.img" image/presets.cfg; then
	fail "setup: cannot edit presets.cfg in a copy of the image"
	exit 1
fi
pass "setup: the ESP's presets.cfg edited in a copy of the image ($quick: samples=5000; line $verbose_line without ':')"

# No menu (tp_timeout 0): the problems go to ConOut, so to the serial log.
# slow_rates=off in every boot: the RTC's rate is not what this tests.
boot edited-quick 0 --image "$OUT/edited.img" --firmware uefi --machine q35 --preset quick --options slow_rates=off
checklog edited-quick --expect-status ok --expect-boot uefi \
	--expect begin.cmdline='"samples=5000 rounds=10 calib_ms=20 slow_rates=off"' --expect begin.options.samples=5000 \
	--expect begin.option_problems='[]'
if tr -d '\r' <"$OUT/edited-quick.log" | grep -qaF "presets.cfg:$verbose_line: no ':' in 'verbose "; then
	pass "edited-quick: the broken line is named on the console: presets.cfg:$verbose_line: no ':'"
else
	fail "edited-quick: no 'presets.cfg:$verbose_line: no ':'' in the serial log"
fi

# The presets the edit left alone still boot as preset=NAME.
boot edited-default 0 --image "$OUT/edited.img" --firmware uefi --machine q35 --preset default --options slow_rates=off
checklog edited-default --expect-status ok --expect-boot uefi --expect begin.cmdline='"preset=default slow_rates=off"' \
	--expect begin.options.preset='"default"'

# The menu itself, headless (no VGA: the menu goes to ConOut and the serial
# line), with a 1 s countdown: the problem is listed under the presets.
boot edited-menu 0 --image "$OUT/edited.img" --firmware uefi --machine q35 --preset quick --options slow_rates=off \
	--menu-timeout 1 -- -vga none
checklog edited-menu --expect-status ok --expect-boot uefi \
	--expect begin.cmdline='"samples=5000 rounds=10 calib_ms=20 slow_rates=off"'
if tr -d '\r' <"$OUT/edited-menu.log" | grep -qaF "choose a preset" &&
	tr -d '\r' <"$OUT/edited-menu.log" | grep -qaF "presets.cfg:$verbose_line: no ':'"; then
	pass "edited-menu: the menu shows, and the broken line under it"
else
	fail "edited-menu: menu or problem line missing from the serial log"
fi
