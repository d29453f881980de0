#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# An installed system's boot menu, booted: the package unpacked into a fake
# root, its postinst run against a fake EFI system partition, its
# /etc/grub.d/25_tickprobe run as update-grub runs it, and the menu that
# writes booted by GRUB in QEMU, through the "quick" entry of the presets
# submenu:
#   disk 1  a hybrid disk: GRUB i386-pc (El Torito, reached from the MBR) and
#           GRUB x86_64-efi on the ESP, both reading /boot/grub/grub.cfg from
#           the ISO 9660 file system; the ESP as postinst left it
#   disk 2  /boot, a FAT file system of its own holding tickprobe.elf32
# SeaBIOS takes the multiboot branch, OVMF the chainloader one.  On OVMF the
# probe saves its log on the ESP (\tickprobe\logs\NNNN.log): it is read back
# from the disk image with mtools and read as `tickprobe logs`, `show
# --latest` and `compare --latest` read it after the reboot into Linux.
# shellcheck disable=SC2086,SC2089,SC2090 # $MODS and $EXPECT: lists, split on purpose;
# the quotes in EXPECT are part of the value: the JSON string checked
. tests/lib/check.sh
BUILD=${BUILD:-build}
OUT=$BUILD/test-deb/boot
rm -rf "$OUT" && mkdir -p "$OUT"
. tests/deb/lib.sh
for t in qemu-system-x86_64 grub-mkimage grub-script-check xorriso mkfs.fat mcopy mdir python3; do
	command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
[ -x "$TP" ] || { fail "setup: $TP is not built (make tool)"; exit 1; }
OVMF=/usr/share/ovmf/OVMF.fd


build_deb
unpack_deb
write_fake_tools
fake_system
R=$OUT/root

# --- the fake system, as the package leaves it -----------------------------------
maint postinst configure >"$OUT/postinst.out" 2>&1 || { fail "setup: postinst: $(head -1 "$OUT/postinst.out")"; exit 1; }
# Both GRUBs find the menu on the ISO 9660 file system, as an installed GRUB
# finds /boot/grub; every module is built in.
cat >"$OUT/early.cfg" <<'EOF'
search --no-floppy --file --set=root /boot/grub/grub.cfg
set prefix=($root)/boot/grub
EOF
MODS="part_msdos part_gpt fat iso9660 normal search search_fs_uuid search_fs_file test echo configfile"
rm "$OUT/esp/EFI/BOOT/BOOTX64.EFI"
mkdir -p "$OUT/iso/boot/grub"
if ! grub-mkimage -O x86_64-efi -p /boot/grub -c "$OUT/early.cfg" -o "$OUT/esp/EFI/BOOT/BOOTX64.EFI" $MODS chain ||
	! grub-mkimage -O i386-pc-eltorito -p /boot/grub -c "$OUT/early.cfg" -o "$OUT/iso/boot/grub/eltorito.img" $MODS biosdisk multiboot; then
	fail "setup: grub-mkimage"
	exit 1
fi
fat_image "$OUT/esp" "$OUT/esp.img" 8192 7e1c0b0e && fat_image "$R/boot" "$OUT/bootfs.img" 4096 7e1c0b0b ||
	{ fail "setup: the file system images"; exit 1; }

# --- update-grub's part: 25_tickprobe, after a head as 00_header writes it ----
grub_d >"$OUT/menu.cfg" 2>"$OUT/menu.err" || { fail "25_tickprobe: $(head -1 "$OUT/menu.err")"; exit 1; }
{
	cat <<'EOF'
if [ x"${feature_menuentry_id}" = xy ]; then
	menuentry_id_option="--id"
else
	menuentry_id_option=""
fi
export menuentry_id_option
set timeout=0
set default="tickprobe-presets>tickprobe-quick"
EOF
	cat "$OUT/menu.cfg"
} >"$OUT/iso/boot/grub/grub.cfg"
if grub-script-check "$OUT/iso/boot/grub/grub.cfg"; then
	pass "grub.cfg: 00_header's menuentry_id_option, default tickprobe-presets>tickprobe-quick, then 25_tickprobe's $(wc -l <"$OUT/menu.cfg") lines"
else
	fail "grub.cfg: grub-script-check refuses it"
fi
cp "$OUT/esp.img" "$OUT/iso/efi.img"
if ! xorriso -as mkisofs -quiet -R -J -V TPDEB -o "$OUT/disk.img" --modification-date=2020010100000000 \
	-b boot/grub/eltorito.img -no-emul-boot -boot-load-size 4 -boot-info-table --grub2-boot-info \
	--grub2-mbr /usr/lib/grub/i386-pc/boot_hybrid.img -eltorito-alt-boot -e efi.img -no-emul-boot \
	-efi-boot-part --efi-boot-image --protective-msdos-label "$OUT/iso" 2>"$OUT/xorriso.log"; then
	fail "setup: xorriso: $(tail -n 2 "$OUT/xorriso.log" | tr '\n' ' ')"
	exit 1
fi

# The byte offset of the GPT's EFI system partition in a disk image.
esp_offset() {
	python3 tests/deb/esp_offset.py "$1"
}

# grub_boot NAME FIRMWARE_ARGS...: both disks, copies of their own (written
# to); the serial log in $OUT/NAME.log; sets $rc.  QEMU itself, not
# `tickprobe qemu`: the disks are the installed system's, booted through the
# package's GRUB menu, not the image the tool boots.  A boot that does not
# reach the probe waits in GRUB: 120 s is 15 times what OVMF took on a
# loaded host.
grub_boot() {
	name=$1
	shift
	cp "$OUT/disk.img" "$OUT/$name-disk.img" && cp "$OUT/bootfs.img" "$OUT/$name-bootfs.img"
	t0=$(now_ms)
	timeout 120 qemu-system-x86_64 -machine pc -accel tcg -cpu max -m 256 "$@" \
		-drive file="$OUT/$name-disk.img",format=raw,media=disk \
		-drive file="$OUT/$name-bootfs.img",format=raw,media=disk \
		-serial file:"$OUT/$name.log" -device "$QEMU_EXIT_DEVICE" \
		-no-reboot -nic none -monitor none -display none >"$OUT/$name.err" 2>&1
	rc=$?
	echo "boot $name: QEMU exit $rc in $(( $(now_ms) - t0 )) ms ($(wc -c <"$OUT/$name.log") serial bytes)"
	# 33 and 35: the probe's ok and ok-absent through the exit device.
	if [ $rc -eq 33 ] || [ $rc -eq 35 ]; then
		pass "$name: GRUB's menu booted the probe to its end (QEMU exit $rc)"
	else
		fail "$name: QEMU exit $rc, not the probe's 33/35: $(tail -c 300 "$OUT/$name.log" | tr '\n\r' '  ')"
	fi
}
EXPECT="--expect begin.options.preset=\"quick\" --expect begin.cmdline=\"preset=quick\""

# --- SeaBIOS: multiboot /tickprobe.elf32 from the /boot disk ----------------
grub_boot bios
$CHECK "$OUT/bios.log" --label bios --expect-boot bios $EXPECT
if "$TP" show "$OUT/bios.log" >"$OUT/bios.show" 2>&1; then
	pass "bios: tickprobe show reads the serial log"
else
	fail "bios: tickprobe show: $(head -1 "$OUT/bios.show")"
fi

# --- OVMF: chainloader /EFI/tickprobe/tickprobe.efi on the ESP -----------------
if [ ! -f "$OVMF" ]; then
	fail "setup: $OVMF missing (make deps)"
	exit 1
fi
grub_boot uefi -bios "$OVMF"
$CHECK "$OUT/uefi.log" --label uefi --expect-boot uefi $EXPECT

# The log the probe saved on the ESP, read back as Linux would after the reboot.
off=$(esp_offset "$OUT/uefi-disk.img") || { fail "uefi: no EFI system partition in the disk's GPT"; exit 1; }
# $OUT/esp-read/tickprobe/logs stands for /boot/efi/tickprobe/logs.
mkdir -p "$OUT/esp-read"
mcopy -s -n -i "$OUT/uefi-disk.img@@$off" ::tickprobe "$OUT/esp-read/" 2>"$OUT/mcopy.err"
L=$OUT/esp-read/tickprobe/logs
saved=$(cd "$OUT/esp-read/tickprobe" && find . -type f | sed 's|^\./||' | sort)
if printf '%s\n' "$saved" | grep -qxE 'logs/[0-9]{4}\.log' && [ "$(printf '%s\n' "$saved" | wc -l)" -eq 1 ]; then
	pass "uefi: one log saved on the ESP: tickprobe/$saved"
else
	fail "uefi: the ESP's tickprobe/logs (at byte $off of the disk) holds '$(printf '%s' "$saved" | tr '\n' ' ')', not one NNNN.log: $(head -1 "$OUT/mcopy.err")"
fi
log=$(find "$L" -name '*.log' | sort | head -1)
if [ -n "$log" ]; then
	$CHECK "$log" --label uefi-esp-log --expect-boot uefi $EXPECT
	end_serial=$(grep -a -o '"type":"end".*' "$OUT/uefi.log" | tr -d '\r' | tail -1)
	end_saved=$(grep -a -o '"type":"end".*' "$log" | tr -d '\r' | tail -1)
	if [ -n "$end_saved" ] && [ "$end_saved" = "$end_serial" ]; then
		pass "uefi: the saved log's end record (its records and their CRC) is the serial log's"
	else
		fail "uefi: the saved log's end record '$end_saved' is not the serial log's '$end_serial'"
	fi
	"$TP" logs "$L" >"$OUT/logs.out" 2>&1; r1=$?
	"$TP" show --latest "$L" >"$OUT/show-latest.out" 2>&1; r2=$?
	"$TP" os --quick -o "$OUT/os.log" >"$OUT/os.out" 2>&1; r3=$?
	"$TP" compare --latest "$L" "$OUT/os.log" >"$OUT/compare.out" 2>&1; r4=$?
	if [ $r1$r2$r3$r4 = 0000 ] && grep -q "$(basename "$log" .log)" "$OUT/logs.out"; then
		pass "uefi: tickprobe logs lists it; show --latest, os --quick and compare --latest os.log read it (exit 0)"
	else
		fail "uefi: logs/show --latest/os/compare --latest exit $r1 $r2 $r3 $r4: $(head -1 "$OUT/logs.out")"
	fi
else
	fail "uefi: no saved log to read with tickprobe logs, show --latest and compare --latest"
fi
