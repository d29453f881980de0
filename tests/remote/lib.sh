# SPDX-License-Identifier: BSD-2-Clause
# Shared by tests/remote/test_*.sh: an "installed system" on one GPT disk for
# OVMF, as a server's would be, with nothing from the host's own /boot.
# Sourced, not run; the caller sets BUILD and OUT.
#
#   the disk ($OUT/disk.img): GPT, partition 1 the EFI system partition (FAT16,
#   64 MiB, from LBA 2048), holding
#     \EFI\BOOT\BOOTX64.EFI     GRUB (grub-mkimage), the installed system's loader
#     \EFI\BOOT\grub.cfg        linux \EFI\linux\vmlinuz + initrd, no menu
#     \EFI\linux\               Debian's cloud kernel (an EFI stub) and the initramfs
#     \EFI\tickprobe\           tickprobe.efi and presets.cfg, where the package's
#                               postinst puts them
#     \tickprobe\logs\          where the probe saves its log
#     \state\                   /var/lib/tickprobe of the installed system
#   the initramfs: busybox-static, tickprobe-static as /usr/bin/tickprobe, the
#   kernel modules for FAT and efivarfs, and tests/remote/init.sh as /init.
ESP_START=2048        # sectors of 512 bytes: 1 MiB, where every partitioner starts
ESP_KIB=65536
ESP_GUID=5A1E0B0E-7E1C-4C0B-9A5E-0123456789AB
# The boot helper's clock (tests/lib/boot.sh), under the name test_e2e.sh uses.
. tests/lib/boot.sh
NOW_MS() { now_ms; }

# Debian's cloud kernel and the five modules the installed system loads, in
# the cache `tickprobe qemu --linux` keeps its kernel in (its vmlinuz is
# reused; the modules are kept beside it, in modules-VERSION/).
# Sets KERNEL and MODULES, or fails.
MODULE_FILES="kernel/fs/fat/fat.ko kernel/fs/fat/vfat.ko kernel/fs/nls/nls_cp437.ko kernel/fs/nls/nls_ascii.ko kernel/fs/efivarfs/efivarfs.ko"
cloud_kernel() {
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/tickprobe/linux
	mkdir -p "$cache" || return 1
	KERNEL=$(ls "$cache"/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
	ver=${KERNEL##*/vmlinuz-}
	MODULES=$cache/modules-$ver
	if [ -n "$KERNEL" ] && [ -f "$MODULES/efivarfs.ko" ]; then
		return 0
	fi
	scratch=$(mktemp -d "$cache/.remote-XXXXXX") || return 1
	(
		cd "$scratch" || exit 1
		if [ -n "$KERNEL" ]; then
			pkg=linux-image-$ver
		else
			apt-get download -q linux-image-cloud-amd64 >apt.out 2>&1 || exit 1
			pkg=$(dpkg-deb -f linux-image-cloud-amd64_*.deb Depends | sed 's/ *(= *\([^)]*\)).*/=\1/; s/,.*//')
		fi
		apt-get download -q "$pkg" >>apt.out 2>&1 && dpkg-deb -x linux-image-*-cloud-amd64_*.deb root
	) || { tail -n 3 "$scratch/apt.out" >&2; rm -rf "$scratch"; return 1; }
	for f in "$scratch"/root/boot/vmlinuz-* "$scratch"/root/boot/config-*; do
		[ -e "$cache/${f##*/}" ] || mv "$f" "$cache/"
	done
	KERNEL=$(ls "$cache"/vmlinuz-* | sort -V | tail -n 1)
	ver=${KERNEL##*/vmlinuz-}
	MODULES=$cache/modules-$ver
	mkdir -p "$MODULES.new"
	for m in $MODULE_FILES; do
		cp "$scratch/root/lib/modules/$ver/$m" "$MODULES.new/" || { rm -rf "$scratch" "$MODULES.new"; return 1; }
	done
	rm -rf "$MODULES" && mv "$MODULES.new" "$MODULES"
	rm -rf "$scratch"
}

# The installed system's initramfs: $OUT/initrd.gz.
make_initramfs() {
	r=$OUT/initramfs
	rm -rf "$r" && mkdir -p "$r/bin" "$r/usr/bin" "$r/usr/sbin" "$r/lib/modules" "$r/proc" "$r/sys" "$r/dev" "$r/run" \
		"$r/tmp" "$r/var/lib" "$r/boot/efi" || return 1
	cp /bin/busybox "$r/bin/busybox" && cp "$BUILD/tickprobe-static" "$r/usr/bin/tickprobe" &&
		cp "$MODULES"/*.ko "$r/lib/modules/" && cp tests/remote/init.sh "$r/init" && chmod 755 "$r/init" || return 1
	ln -s busybox "$r/bin/sh"
	# No systemd here: schedule --reboot runs `reboot`, this one.
	printf '#!/bin/sh\nsync\nexec /bin/busybox reboot -f\n' >"$r/usr/sbin/reboot" && chmod 755 "$r/usr/sbin/reboot"
	(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 >"$OUT/initrd.gz"
}

# GRUB for the installed system, with its grub.cfg.  no_timer_check: under
# TCG on a loaded host (load average 27 on 2 cores) the kernel's IO-APIC timer
# check failed and it panicked ("IO-APIC + timer doesn't work!").
make_grub() {
	cat >"$OUT/grub.cfg" <<'CFG'
set timeout=0
echo 'tickprobe-e2e: GRUB loads the installed system'
linux /EFI/linux/vmlinuz console=ttyS0 panic=-1 tsc=reliable no_timer_check loglevel=4
initrd /EFI/linux/initrd.gz
boot
CFG
	grub-mkimage -O x86_64-efi -p /EFI/BOOT -o "$OUT/BOOTX64.EFI" part_gpt fat normal linux echo test configfile
}

# $OUT/disk.img and $OUT/vars.fd (the machine's own copy of OVMF_VARS).
make_disk() {
	esp=$OUT/esp.img
	rm -f "$esp" "$OUT/disk.img"
	mkfs.fat -C -F 16 -n ESP "$esp" $ESP_KIB >/dev/null || return 1
	mmd -i "$esp" ::EFI ::EFI/BOOT ::EFI/linux ::EFI/tickprobe ::tickprobe ::tickprobe/logs ::state ::e2e &&
		mcopy -i "$esp" "$OUT/BOOTX64.EFI" "$OUT/grub.cfg" ::EFI/BOOT/ &&
		mcopy -i "$esp" "$KERNEL" ::EFI/linux/vmlinuz && mcopy -i "$esp" "$OUT/initrd.gz" ::EFI/linux/initrd.gz &&
		mcopy -i "$esp" "$BUILD/BOOTX64.EFI" ::EFI/tickprobe/tickprobe.efi &&
		mcopy -i "$esp" image/presets.cfg ::EFI/tickprobe/presets.cfg || return 1
	echo "schedule --preset quick --reboot" | mcopy -i "$esp" - ::e2e/schedule || return 1
	truncate -s $(( (ESP_START + ESP_KIB * 2 + 64) * 512 )) "$OUT/disk.img"
	printf 'label: gpt\nstart=%s, size=%s, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, uuid=%s, name="EFI system partition"\n' \
		$ESP_START $(( ESP_KIB * 2 )) $ESP_GUID | sfdisk -q "$OUT/disk.img" || return 1
	dd if="$esp" of="$OUT/disk.img" bs=512 seek=$ESP_START conv=notrunc status=none && rm -f "$esp"
	cp /usr/share/OVMF/OVMF_VARS_4M.fd "$OUT/vars.fd"
}

# mtools on the disk's ESP: esp_cmd mtype ::state/latest.txt
esp_cmd() {
	c=$1
	shift
	$c -i "$OUT/disk.img@@$(( ESP_START * 512 ))" "$@"
}
