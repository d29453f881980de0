#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The package's part in `tickprobe schedule` (docs/server.md):
# the unit tickprobe-after-boot.service is installed and enabled (not started)
# by the debhelper snippet, systemctl enables it in the unpacked root, and
# 25_tickprobe's entry takes tickprobe_once; then a removal as dpkg does it
# (prerm remove, the files gone, postrm remove) against a fake efivarfs
# holding OVMF's entries and tickprobe's, and a fake grubenv holding the
# one-shot, leaves no Boot#### entry and no GRUB entry behind.
. tests/lib/check.sh
BUILD=${BUILD:-build}
OUT=$BUILD/test-deb/remote
rm -rf "$OUT" && mkdir -p "$OUT"
. tests/deb/lib.sh
for t in dpkg-buildpackage systemctl grub-editenv grub-script-check sfdisk python3 mkfs.fat mcopy; do
	command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
T0=$(now_ms)

build_deb
unpack_deb
write_fake_tools
fake_system
R=$OUT/root
U=lib/systemd/system/tickprobe-after-boot.service

# --- the unit -------------------------------------------------------------------
if [ -f "$R/$U" ] && grep -qx 'ExecStart=/usr/bin/tickprobe schedule --after-boot' "$R/$U" && grep -qx 'Type=oneshot' "$R/$U" &&
	grep -qx 'TimeoutStartSec=300' "$R/$U" && grep -qx 'WantedBy=multi-user.target' "$R/$U" &&
	dpkg-deb -c "$DEB" >"$OUT/contents" && grep -q "^-rw-r--r-- .* ./$U\$" "$OUT/contents"; then
	pass "deb: /$U, a oneshot running tickprobe schedule --after-boot, bounded to 300 s, wanted by multi-user.target"
else
	fail "deb: /$U missing or not as written: $(tr '\n' ' ' <"$R/$U" 2>/dev/null | cut -c1-200)"
fi
if grep -q "deb-systemd-helper .*enable 'tickprobe-after-boot.service'" "$OUT/control/postinst" &&
	grep -q "deb-systemd-helper purge 'tickprobe-after-boot.service'" "$OUT/control/postrm" &&
	! grep -q "deb-systemd-invoke .*'tickprobe-after-boot.service'" "$OUT/control/postinst"; then
	pass "postinst enables the unit (debhelper's snippet) and does not start it; postrm purges it"
else
	fail "the maintainer scripts' systemd snippets: $(grep -c deb-systemd "$OUT/control/postinst") in postinst"
fi
if systemctl --root="$R" enable tickprobe-after-boot.service >"$OUT/enable.out" 2>&1 &&
	[ "$(readlink "$R/etc/systemd/system/multi-user.target.wants/tickprobe-after-boot.service")" = "/$U" ]; then
	pass "systemctl --root enable: multi-user.target.wants/tickprobe-after-boot.service -> /$U"
else
	fail "systemctl --root enable: $(head -n 2 "$OUT/enable.out" | tr '\n' ' ')"
fi
rm -rf "$R/etc/systemd"
if sh -n "$OUT/control/prerm" && dash -n "$OUT/control/prerm" && ! TICKPROBE_BIN=/bin/true sh "$OUT/control/prerm" bogus >/dev/null 2>&1; then
	pass "prerm: sh -n and dash -n; an unknown action is refused"
else
	fail "prerm: syntax, or it accepts an unknown action"
fi

# --- 25_tickprobe's entry takes the one-shot -------------------------------------------
maint postinst configure >"$OUT/postinst.out" 2>&1
fat_image "$OUT/esp" "$OUT/esp.img" 8192 7e1c0b0e && fat_image "$R/boot" "$OUT/bootfs.img" 4096 7e1c0b0b ||
	{ fail "setup: the file system images"; exit 1; }
grub_d >"$OUT/menu.cfg" 2>/dev/null
if grub-script-check "$OUT/menu.cfg" && grep -q '^	tickprobe_more="\$tickprobe_once"$' "$OUT/menu.cfg" &&
	grep -q '^	if \[ -n "\$tickprobe_once" \]; then set tickprobe_once=; save_env tickprobe_once; fi$' "$OUT/menu.cfg" &&
	grep -q 'chainloader /EFI/tickprobe/tickprobe.efi preset=\$1 \$tickprobe_more$' "$OUT/menu.cfg" &&
	grep -q 'multiboot /tickprobe.elf32 preset=\$1 \$tickprobe_more$' "$OUT/menu.cfg"; then
	pass "25_tickprobe: tickprobe_boot takes tickprobe_once, clears it with save_env, and adds it to both command lines"
else
	fail "25_tickprobe: $(sed -n '1,6p' "$OUT/menu.cfg" | tr '\n\t' '  ')"
fi

# --- a removal leaves no boot entry behind ---------------------------------------------
G=8be4df61-93ca-11d2-aa0d-00e098032b8c
mkdir -p "$OUT/efivars" "$OUT/state" "$R/boot/grub"
python3 tests/remote/fakevars.py ovmf "$OUT/efivars"
ovmf=$(cd "$OUT/efivars" && ls | LC_ALL=C sort | tr '\n' ' ')
truncate -s 40M "$OUT/disk.img"
printf 'label: gpt\nstart=2048, size=65536, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n' | sfdisk -q "$OUT/disk.img"
"$R/usr/bin/tickprobe" schedule --efivars "$OUT/efivars" --esp "$OUT/esp" --disk "$OUT/disk.img" --partition 1 \
	--state-dir "$OUT/state" >"$OUT/schedule.out" 2>&1
grub-editenv "$R/boot/grub/grubenv" create && grub-editenv "$R/boot/grub/grubenv" set next_entry=tickprobe 'tickprobe_once=after=reboot'
if [ -e "$OUT/efivars/Boot0003-$G" ] && [ -e "$OUT/efivars/BootNext-$G" ]; then
	TICKPROBE_BIN=$R/usr/bin/tickprobe TICKPROBE_EFIVARS=$OUT/efivars TICKPROBE_BOOT=$R/boot TICKPROBE_STATE=$OUT/state \
		sh "$OUT/control/prerm" remove >"$OUT/prerm.out" 2>&1; rc=$?
	# dpkg removes the package's files (not the conffile), then runs postrm.
	awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' "$OUT/contents" | grep -vx /etc/grub.d/25_tickprobe |
		while read -r f; do rm -f "$R$f"; done
	maint postrm remove >"$OUT/postrm.out" 2>&1; rc2=$?
	left=$(cd "$OUT/efivars" && ls | LC_ALL=C sort | tr '\n' ' ')
	env=$(grub-editenv "$R/boot/grub/grubenv" list)
	grub_d >"$OUT/menu-after.cfg" 2>&1
	if [ $rc$rc2 = 00 ] && [ "$left" = "$ovmf" ] && [ -z "$env" ] && [ ! -s "$OUT/menu-after.cfg" ] &&
		[ ! -e "$OUT/state/schedule.state" ] && [ ! -e "$OUT/esp/EFI/tickprobe" ]; then
		pass "removal: prerm took Boot0003 and BootNext (OVMF's entries left), GRUB's next_entry and tickprobe_once; 25_tickprobe then writes no entry"
	else
		fail "removal: prerm $rc, postrm $rc2; efivars '$left'; grubenv '$env'; menu $(wc -c <"$OUT/menu-after.cfg") bytes: $(head -n 3 "$OUT/prerm.out" | tr '\n' ' ')"
	fi
else
	fail "setup: schedule made no entry: $(head -n 3 "$OUT/schedule.out" | tr '\n' ' ')"
fi
echo "test_deb_remote: $(( ($(now_ms) - T0) / 1000 )) s"
