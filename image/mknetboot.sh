#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Builds a directory to serve over TFTP (or HTTP) so that machines boot the
# probe from the network (docs/lab.md; docs/netboot.md):
#
#   sh image/mknetboot.sh BUILD [OUT]     (make netboot: OUT = BUILD/netboot)
#   NETBOOT_SERVER=A.B.C.D sh image/mknetboot.sh BUILD [OUT]
#                                         (make netboot NETBOOT_SERVER=A.B.C.D)
#
# NETBOOT_SERVER: the TFTP server's IPv4 address, built into core.0.  Without
# it GRUB fetches its menu from the server that the DHCP answer names
# (next-server), which is right when one DHCP server gives both the address
# and the boot file.  Behind a proxy DHCP (dnsmasq's "proxy" range: the lab's
# DHCP server gives the address, another host the boot file) GRUB 2.06 on
# BIOS still reads only the first server's answer, asks that server for its
# modules, and stops at "grub rescue>"; the UEFI firmware needs no such help.
#
#   OUT/BOOTX64.EFI               UEFI: the boot file for PXE or HTTP boot
#   OUT/presets.cfg               the presets, beside it, as on the stick
#   OUT/tickprobe.cfg             the lab's options for the UEFI probe (image/tickprobe.cfg)
#   OUT/boot/grub/i386-pc/core.0  legacy BIOS: the PXE boot file, GRUB from grub-mknetdir,
#                                 which loads its modules and its menu over TFTP
#   OUT/boot/grub/grub.cfg        the image's menu (image/grub.cfg and build/mkgrubcfg
#                                 --netboot from image/presets.cfg), each entry adding net=auto
#   OUT/boot/grub/tickprobe.env   the environment block that menu reads (tp_preset,
#                                 tp_timeout, tp_options: `grub-editenv FILE set ...`)
#   OUT/boot/tickprobe.elf32      the multiboot kernel the menu boots
#
# The paths under OUT/boot are the ISO's (image/mkimage.sh), so one menu
# serves both.
#
# Deterministic: the files' times are SOURCE_DATE_EPOCH (default: the last
# commit's time), and grub-mkimage writes the same core.0 for the same inputs,
# so two builds give the same tree, byte for byte.
set -eu

BUILD=${1:-build}
OUT=${2:-$BUILD/netboot}
HERE=$(dirname "$0")
PRESETS=$HERE/presets.cfg
ELF=$BUILD/tickprobe.elf32
EFI=$BUILD/BOOTX64.EFI
MKGRUBCFG=$BUILD/mkgrubcfg
GRUB_PC=/usr/lib/grub/i386-pc

for f in "$ELF" "$EFI" "$MKGRUBCFG" "$PRESETS" "$HERE/grub.cfg" "$HERE/tickprobe.cfg" "$GRUB_PC/moddep.lst"; do
	[ -f "$f" ] || { echo "mknetboot: missing $f" >&2; exit 1; }
done
command -v grub-mknetdir >/dev/null 2>&1 || { echo "mknetboot: grub-mknetdir not found (make deps)" >&2; exit 1; }

SERVER=${NETBOOT_SERVER:-}
if [ -n "$SERVER" ] && ! echo "$SERVER" | grep -Eqx '((25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])'; then
	echo "mknetboot: NETBOOT_SERVER=$SERVER is not an IPv4 address (GRUB's TFTP server, e.g. 192.168.1.10)" >&2
	exit 1
fi

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$HERE" log -1 --format=%ct 2>/dev/null || echo 1700000000)
fi
export SOURCE_DATE_EPOCH

# Built beside OUT and moved into place whole: a failed build leaves the old
# tree, never half of a new one, and takes its work directory with it.
W=$OUT.tmp
rm -rf "$W"
trap 'rm -rf "$W" "$W.log"' EXIT
mkdir -p "$W/boot/grub"

# --- BIOS: GRUB for PXE ------------------------------------------------------
# core.0 holds the pxe and tftp modules and the prefix /boot/grub on the boot
# server; every other module is fetched from OUT/boot/grub/i386-pc as the
# menu needs it.  No translations, fonts or themes: the menu is plain text on the
# screen and on COM1 (2.6 MB instead of 9 MB).
grub-mknetdir --net-directory="$W" --subdir=boot/grub -d "$GRUB_PC" \
	--locales= --fonts= --themes= >"$W.log" 2>&1 || { cat "$W.log" >&2; exit 1; }
rmdir "$W/boot/grub/locale" "$W/boot/grub/fonts" 2>/dev/null || true
[ -f "$W/boot/grub/i386-pc/core.0" ] || { echo "mknetboot: grub-mknetdir made no OUT/boot/grub/i386-pc/core.0" >&2; exit 1; }
# With NETBOOT_SERVER, the same core.0 (grub-mknetdir's own grub-mkimage
# line: the tftp and pxe modules) with the server in its prefix.
if [ -n "$SERVER" ]; then
	grub-mkimage -d "$GRUB_PC" -O i386-pc-pxe -p "(tftp,$SERVER)/boot/grub" \
		-o "$W/boot/grub/i386-pc/core.0" tftp pxe
fi

# --- the menu: the image's, from the one presets.cfg ---------------------------
# build/mkgrubcfg fails, naming each bad line, rather than drop a preset.
"$MKGRUBCFG" --netboot "$PRESETS" >"$W/menu.cfg"
cat "$HERE/grub.cfg" "$W/menu.cfg" >"$W/boot/grub/grub.cfg"
rm -f "$W/menu.cfg"

# The environment block, as in the image (512 bytes): a lab sets the preset
# booted when nobody chooses, the wait, or more options with grub-editenv.
{
	printf '# GRUB Environment Block\ntp_preset=\ntp_timeout=\ntp_options=\n'
	head -c 512 /dev/zero | tr '\0' '#'
} | head -c 512 >"$W/boot/grub/tickprobe.env"

cp "$ELF" "$W/boot/tickprobe.elf32"

# --- UEFI: the application, its presets and the lab's options -----------------
cp "$EFI" "$W/BOOTX64.EFI"
cp "$PRESETS" "$W/presets.cfg"
cp "$HERE/tickprobe.cfg" "$W/tickprobe.cfg"

find "$W" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
find "$W" -type d -exec chmod 755 {} + && find "$W" -type f -exec chmod 644 {} +
rm -rf "$OUT"
mv "$W" "$OUT"
echo "mknetboot: $OUT: $(find "$OUT" -type f | wc -l) files, $(du -sk "$OUT" | cut -f1) KiB;" \
	"boot files: boot/grub/i386-pc/core.0 (BIOS PXE${SERVER:+, menu from $SERVER}), BOOTX64.EFI (UEFI)"
