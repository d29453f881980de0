#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The hybrid image as a machine sees it: a disk on pc and q35, under SeaBIOS
# and OVMF, and a CD, each log validated (records, CRCs, machine, ACPI, status,
# the PM timer port each firmware's FADT gives, the boot path).  The runs use
# `tickprobe qemu`, which boots a copy whose menus wait 0 s and whose preset is
# chosen through the image's environment block; one run boots the image
# untouched, through its real menu timeout, to the "default" preset.
# shellcheck disable=SC2086,SC2089,SC2090 # $I and $COMMON: option lists, split on purpose;
# the quotes in COMMON are part of the value: the JSON string checked
. tests/lib/check.sh
. tests/boot/lib.sh
OUT=$BUILD/test-boot/image
rm -rf "$OUT" && mkdir -p "$OUT"
need_tool
IMG=$BUILD/tickprobe.img
[ -f "$IMG" ] || { fail "setup: $IMG missing (make image)"; exit 1; }
I="--image $IMG"
COMMON="--expect-status ok --expect-hpet 0xfed00000 --expect begin.options.preset=\"quick\""

# PM timer ports, as each firmware's FADT gives them: 0x608 everywhere but
# OVMF on pc, 0xB008.
boot bios-pc-disk 0 $I --firmware bios --machine pc --preset quick
checklog bios-pc-disk $COMMON --expect-boot bios --expect-pm-timer io:0x608

# These two also wait 1 s in their menu (which reaches the serial line too,
# once: tests/nocable/test_menus.sh) and pass an extra option, which reaches
# the probe through the menu entry (GRUB) or the app's command line (UEFI):
# one boot for both checks.  The other disk boots wait 0 s.
boot bios-q35-disk 0 $I --firmware bios --machine q35 --preset quick --menu-timeout 1 --options "bogus=1"
checklog bios-q35-disk $COMMON --expect-boot bios --expect-pm-timer io:0x608 \
	--expect begin.cmdline='"preset=quick bogus=1"' --expect-problem bogus

boot uefi-pc-disk 0 $I --firmware uefi --machine pc --preset quick --menu-timeout 1 --options "bogus=1"
checklog uefi-pc-disk $COMMON --expect-boot uefi --expect-pm-timer io:0xb008 --expect acpi.rsdp.revision=2 \
	--expect begin.cmdline='"preset=quick bogus=1"' --expect-problem bogus

boot uefi-q35-disk 0 $I --firmware uefi --machine q35 --preset quick
checklog uefi-q35-disk $COMMON --expect-boot uefi --expect-pm-timer io:0x608 --expect acpi.root='"xsdt"'

boot bios-pc-cd 0 $I --cdrom --firmware bios --machine pc --preset quick
checklog bios-pc-cd $COMMON --expect-boot bios --expect-pm-timer io:0x608

boot uefi-q35-cd 0 $I --cdrom --firmware uefi --machine q35 --preset quick
checklog uefi-q35-cd $COMMON --expect-boot uefi --expect-pm-timer io:0x608

# The default preset's log must stay small enough for a 115200-baud line: at
# most 15 KB of records (about 1.3 s; a 10 % margin under 16 KB) on q35, BIOS
# and UEFI, under TCG.  A
# bound on bytes written, not on time: TCG's noise adds histogram bins, and
# the bound holds with it (docs/log-format.md, "Size", has the figures).
# The BIOS one is the image as shipped: GRUB's own timeout, then the
# "default" preset (one boot for both).
boot bios-shipped 0 $I --menu --firmware bios --machine q35
checklog bios-shipped --expect-status ok --expect-boot bios --expect begin.options.preset='"default"' \
	--expect begin.schema=2 --max-record-bytes 15360
boot uefi-q35-default 0 $I --firmware uefi --machine q35
checklog uefi-q35-default --expect-status ok --expect-boot uefi --expect begin.options.preset='"default"' \
	--expect begin.schema=2 --max-record-bytes 15360
