#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# `tickprobe schedule --method grub` booted: the package unpacked into a fake
# root, its postinst run against a fake ESP, and a grub.cfg made of what
# Debian's 00_header writes (load_env, the one-shot next_entry cleared with
# save_env, an "installed system" entry as the default) and of 25_tickprobe's
# menu, on the ESP with GRUB x86_64-efi.  schedule runs the real grub-reboot
# and grub-editenv on that grubenv.  Then one OVMF machine, resets allowed:
#   boot 1  GRUB boots next_entry 'tickprobe' with tickprobe_once; the probe
#           runs preset quick and reboots (after=reboot)
#   boot 2  GRUB boots its default, the installed system's entry, which halts
# and the grubenv read back off the disk holds neither one-shot any more.
. tests/lib/check.sh
BUILD=${BUILD:-build}
OUT=$BUILD/test-deb/grub-reboot
rm -rf "$OUT" && mkdir -p "$OUT"
. tests/deb/lib.sh
for t in qemu-system-x86_64 grub-mkimage grub-reboot grub-editenv grub-script-check sfdisk mkfs.fat mcopy; do
	command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
T0=$(now_ms)

build_deb
unpack_deb
write_fake_tools
fake_system
R=$OUT/root
maint postinst configure >"$OUT/postinst.out" 2>&1 || { fail "setup: postinst: $(head -1 "$OUT/postinst.out")"; exit 1; }
rm "$OUT/esp/EFI/BOOT/BOOTX64.EFI"
mkdir -p "$OUT/esp/boot/grub"
grub-mkimage -O x86_64-efi -p '(hd0,gpt1)/boot/grub' -o "$OUT/esp/EFI/BOOT/BOOTX64.EFI" \
	part_gpt fat normal search search_fs_uuid test echo configfile chain loadenv halt || { fail "setup: grub-mkimage"; exit 1; }
# 25_tickprobe probes the ESP's file system for its UUID: the image first.
fat_image "$OUT/esp" "$OUT/esp.img" 8192 7e1c0b0e && fat_image "$R/boot" "$OUT/bootfs.img" 4096 7e1c0b0b ||
	{ fail "setup: the file system images"; exit 1; }
grub_d >"$OUT/menu.cfg" 2>"$OUT/menu.err" || { fail "25_tickprobe: $(head -1 "$OUT/menu.err")"; exit 1; }
{
	cat <<'CFG'
if [ -s $prefix/grubenv ]; then
	set have_grubenv=true
	load_env
fi
if [ "${next_entry}" ] ; then
	set default="${next_entry}"
	set next_entry=
	save_env next_entry
	set boot_once=true
else
	set default="installed"
fi
if [ x"${feature_menuentry_id}" = xy ]; then
	menuentry_id_option="--id"
else
	menuentry_id_option=""
fi
export menuentry_id_option
set timeout=0
menuentry 'the installed system' $menuentry_id_option 'installed' {
	echo "tickprobe-test: the installed system's entry"
	halt
}
CFG
	cat "$OUT/menu.cfg"
} >"$OUT/esp/boot/grub/grub.cfg"
grub-script-check "$OUT/esp/boot/grub/grub.cfg" || fail "grub.cfg: grub-script-check refuses it"
grub-editenv "$OUT/esp/boot/grub/grubenv" create
"$R/usr/bin/tickprobe" schedule --method grub --boot-directory "$OUT/esp/boot" --state-dir "$OUT/state" --preset quick \
	>"$OUT/schedule.out" 2>&1; rc=$?
env=$(grub-editenv "$OUT/esp/boot/grub/grubenv" list | tr '\n' ' ')
if [ $rc = 0 ] && [ "$env" = "next_entry=tickprobe tickprobe_once=preset=quick after=reboot " ]; then
	pass "schedule --method grub: grub-reboot and grub-editenv wrote '$env'"
else
	fail "schedule --method grub: exit $rc, grubenv '$env': $(tail -n 2 "$OUT/schedule.out" | tr '\n' ' ')"
fi
mcopy -o -i "$OUT/esp.img" "$OUT/esp/boot/grub/grub.cfg" "$OUT/esp/boot/grub/grubenv" ::boot/grub/ 2>/dev/null ||
	{ mmd -i "$OUT/esp.img" ::boot ::boot/grub 2>/dev/null; mcopy -o -i "$OUT/esp.img" "$OUT/esp/boot/grub/grub.cfg" "$OUT/esp/boot/grub/grubenv" ::boot/grub/; }
truncate -s $(( (2048 + 8192 * 2 + 64) * 512 )) "$OUT/disk.img"
printf 'label: gpt\nstart=2048, size=%s, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n' $(( 8192 * 2 )) | sfdisk -q "$OUT/disk.img" &&
	dd if="$OUT/esp.img" of="$OUT/disk.img" bs=512 seek=2048 conv=notrunc status=none || { fail "setup: the disk"; exit 1; }
cp /usr/share/OVMF/OVMF_VARS_4M.fd "$OUT/vars.fd"

# No -no-reboot: the probe's reboot must happen.  The installed entry's halt
# ends QEMU; 240 s bounds a machine that never gets there.
t0=$(now_ms)
timeout 240 qemu-system-x86_64 -machine q35 -m 256 -display none -no-user-config -nodefaults -net none \
	-drive if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd \
	-drive if=pflash,format=raw,unit=1,file="$OUT/vars.fd" \
	-drive file="$OUT/disk.img",format=raw,if=none,id=d0 -device nvme,drive=d0,serial=tp0 \
	-serial file:"$OUT/serial.log" >"$OUT/qemu.err" 2>&1
rc=$?
echo "boot: QEMU exit $rc in $(( $(now_ms) - t0 )) ms"
tr -d '\r' <"$OUT/serial.log" >"$OUT/serial.txt"
if [ $rc = 0 ] && grep -q 'uefi boot, preset quick' "$OUT/serial.txt" && grep -qi 'rebooting' "$OUT/serial.txt" &&
	[ "$(awk '/tickprobe: run ended/ { e = NR } /the installed system.s entry/ { i = NR } END { print (e && i > e) }' "$OUT/serial.txt")" = 1 ] &&
	grep -q '"cmdline":"preset=default preset=quick after=reboot"' "$OUT/serial.txt"; then
	pass "boot 1: GRUB's next_entry booted the probe with 'preset=default preset=quick after=reboot', which rebooted; boot 2: the installed system's entry"
else
	fail "GRUB boots: QEMU exit $rc: $(grep -a -m3 'preset\|rebooting\|installed' "$OUT/serial.txt" | tr '\n' ' ')"
fi
mcopy -i "$OUT/disk.img@@$(( 2048 * 512 ))" ::boot/grub/grubenv "$OUT/grubenv.after" 2>/dev/null
# GRUB's save_env writes a cleared variable as NAME= (empty).
env=$(grub-editenv "$OUT/grubenv.after" list 2>&1 | tr '\n' ' ')
# shellcheck disable=SC2086 # one line per NAME=VALUE word, on purpose
if [ -n "$env" ] && ! printf '%s\n' $env | grep -q '^next_entry=.\|^tickprobe_once=.'; then
	pass "the grubenv on the disk afterwards: next_entry and tickprobe_once cleared by GRUB itself ('$env')"
else
	fail "the grubenv on the disk afterwards: '$env'"
fi
echo "test_deb_grub_reboot: $(( ($(now_ms) - T0) / 1000 )) s"
