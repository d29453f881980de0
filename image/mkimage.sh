#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Builds BUILD/tickprobe.img: one file that boots
#   - legacy BIOS: GRUB i386-pc (El Torito image, reached from the MBR through
#     boot_hybrid.img on a disk), menu from image/presets.cfg (build/mkgrubcfg),
#     `multiboot`;
#   - UEFI: \EFI\BOOT\BOOTX64.EFI on a FAT ESP (efi.img, the El Torito EFI image
#     and, through the GPT, a partition on a disk), with presets.cfg beside it,
#     and room for the logs the app saves in \tickprobe\logs;
# written with dd to a USB stick, or as a CD.  No root, no mounts: mtools for
# the FAT, xorriso for the ISO (the hosts' kernels have no vfat/iso9660).
#
#   sh image/mkimage.sh BUILD      (what `make image` runs)
#   sh image/mkimage.sh BUILD EFI OUT
#                                  the same with another EFI application, e.g.
#                                  BOOTX64.EFI signed for Secure Boot (`make sign`)
#
# Deterministic: every timestamp comes from SOURCE_DATE_EPOCH (default: the
# last commit's time), and the volume ids are fixed, so the same inputs give
# the same bytes.
set -eu

BUILD=${1:-build}
HERE=$(dirname "$0")
PRESETS=$HERE/presets.cfg
ELF=$BUILD/tickprobe.elf32
EFI=${2:-$BUILD/BOOTX64.EFI}
MKGRUBCFG=$BUILD/mkgrubcfg
OUT=${3:-$BUILD/tickprobe.img}
W=$BUILD/image-work${3:+-$(basename "$OUT" .img)}
GRUB_PC=/usr/lib/grub/i386-pc

for f in "$ELF" "$EFI" "$MKGRUBCFG" "$PRESETS" "$HERE/grub.cfg" "$GRUB_PC/boot_hybrid.img"; do
	[ -f "$f" ] || { echo "mkimage: missing $f" >&2; exit 1; }
done
for t in grub-mkimage xorriso mcopy mmd mkfs.fat; do
	command -v $t >/dev/null 2>&1 || { echo "mkimage: $t not found (make deps)" >&2; exit 1; }
done

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$HERE" log -1 --format=%ct 2>/dev/null || echo 1700000000)
fi
export SOURCE_DATE_EPOCH

rm -rf "$W"
mkdir -p "$W/iso/boot/grub"

# --- presets.cfg: check it, then the GRUB menu from it ----------------------
# build/mkgrubcfg (image/mkgrubcfg.c) parses it with the probe's own parser
# and fails, naming each bad line, rather than drop a preset.
"$MKGRUBCFG" "$PRESETS" >"$W/menu.cfg"
cat "$HERE/grub.cfg" "$W/menu.cfg" >"$W/iso/boot/grub/grub.cfg"

# --- the environment block both menus read (see image/grub.cfg) -------------
# 512 bytes, one sector: it is contiguous inside the FAT and the ISO alike,
# which is what lets `tickprobe qemu` rewrite it in place in a copy.
{
	printf '# GRUB Environment Block\ntp_preset=\ntp_timeout=\ntp_options=\n'
	head -c 512 /dev/zero | tr '\0' '#'
} | head -c 512 >"$W/tickprobe.env"

# --- BIOS: GRUB core as an El Torito no-emulation image ---------------------
# The modules are built in: the image carries no module directory.
grub-mkimage -O i386-pc-eltorito -p /boot/grub -o "$W/iso/boot/grub/eltorito.img" \
	biosdisk iso9660 part_msdos part_gpt normal multiboot loadenv test echo configfile serial terminal
cp "$ELF" "$W/iso/boot/tickprobe.elf32"

# --- UEFI: the ESP as a FAT16 image -----------------------------------------
# Sized to its contents plus 64 KiB, plus room for the logs the UEFI app saves
# there (\tickprobe\logs\NNNN.log, boot/efi_log.c): 8 MiB holds about 500
# default logs as QEMU gives them (about 15 KB, 16 KiB in 2 KiB clusters) and
# 100 of 80 KB, what a real machine's wider histograms could give.  From about
# 4 MiB up mkfs.fat makes FAT16; FAT32 would need 32 MiB at least.
LOG_ROOM_KIB=8192
cp "$PRESETS" "$W/presets.cfg"
cp "$EFI" "$W/BOOTX64.EFI"
touch -d "@$SOURCE_DATE_EPOCH" "$W/presets.cfg" "$W/BOOTX64.EFI" "$W/tickprobe.env"
kib=$(( ($(wc -c <"$EFI") + $(wc -c <"$PRESETS") + 512) / 1024 + 64 + LOG_ROOM_KIB ))
# --invariant fixes the volume ID (1234-ABCD; it overrides -i) and the
# creation times, so two builds give the same bytes.
mkfs.fat -C -n TICKPROBE --invariant "$W/iso/efi.img" $kib >/dev/null
mmd -i "$W/iso/efi.img" ::EFI ::EFI/BOOT
mcopy -i "$W/iso/efi.img" -m "$W/tickprobe.env" ::EFI/BOOT/tickprobe.env
mcopy -i "$W/iso/efi.img" -m "$W/BOOTX64.EFI" ::EFI/BOOT/BOOTX64.EFI
mcopy -i "$W/iso/efi.img" -m "$W/presets.cfg" ::EFI/BOOT/presets.cfg
cp "$W/tickprobe.env" "$W/iso/boot/grub/tickprobe.env"
find "$W/iso" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

# --- the hybrid ISO ----------------------------------------------------------
# --grub2-mbr puts boot_hybrid.img in the MBR, patched to load eltorito.img;
# -efi-boot-part --efi-boot-image adds a GPT partition over efi.img, so a
# disk boots on UEFI too; --protective-msdos-label keeps BIOSes that want a
# partition table happy.
xorriso -as mkisofs -quiet -R -J -V TICKPROBE -o "$OUT.tmp" \
	--modification-date="$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y%m%d%H%M%S00)" \
	-b boot/grub/eltorito.img -no-emul-boot -boot-load-size 4 -boot-info-table --grub2-boot-info \
	--grub2-mbr "$GRUB_PC/boot_hybrid.img" \
	-eltorito-alt-boot -e efi.img -no-emul-boot \
	-efi-boot-part --efi-boot-image \
	--protective-msdos-label \
	"$W/iso" 2>"$W/xorriso.log" || { cat "$W/xorriso.log" >&2; exit 1; }
mv "$OUT.tmp" "$OUT"
echo "mkimage: $OUT: $(wc -c <"$OUT") bytes"
