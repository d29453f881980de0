#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The Debian package (make deb): what it holds, lintian on it and on its
# source, its maintainer scripts against a fake EFI system partition, and
# /etc/grub.d/25_tickprobe against a fake /boot and ESP, checked with
# grub-script-check.  The QEMU boots of that menu are test_deb_boot.sh.
. tests/lib/check.sh
BUILD=${BUILD:-build}
OUT=$BUILD/test-deb/pkg
rm -rf "$OUT" && mkdir -p "$OUT"
. tests/deb/lib.sh
for t in dpkg-buildpackage dh lintian fakeroot grub-script-check mkfs.fat mcopy; do
	command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
T0=$(now_ms)


build_deb
unpack_deb
write_fake_tools

# --- what the package holds -------------------------------------------------
dpkg-deb -c "$DEB" >"$OUT/contents"
awk '$1 !~ /^d/ { print $1, $6, $7, $8 }' "$OUT/contents" | sed 's/ *$//' | sort >"$OUT/files"
cat >"$OUT/files.want" <<EOF
-rw-r--r-- ./boot/tickprobe.elf32
-rw-r--r-- ./usr/share/doc/tickprobe/README.md.gz
-rw-r--r-- ./usr/share/doc/tickprobe/changelog.gz
-rw-r--r-- ./usr/share/doc/tickprobe/collect.md.gz
-rw-r--r-- ./usr/share/doc/tickprobe/copyright
-rw-r--r-- ./usr/share/doc/tickprobe/db.md.gz
-rw-r--r-- ./usr/share/doc/tickprobe/log-format.md.gz
-rw-r--r-- ./usr/share/lintian/overrides/tickprobe
-rw-r--r-- ./usr/share/man/man1/tickprobe.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-acpi.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-capture.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-collect.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-compare.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-db.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-doctor.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-export.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-logs.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-os.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-qemu.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-report.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-schedule.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-show.1.gz
-rw-r--r-- ./usr/share/man/man1/tickprobe-stat.1.gz
-rw-r--r-- ./usr/share/man/man7/tickprobe-boot.7.gz
-rw-r--r-- ./usr/share/tickprobe/grub-menu.cfg
-rw-r--r-- ./usr/share/tickprobe/presets.cfg
-rw-r--r-- ./usr/share/tickprobe/tickprobe.efi
-rw-r--r-- ./usr/share/tickprobe/tickprobe.img
-rw-r--r-- ./lib/systemd/system/tickprobe-after-boot.service
-rw-r--r-- ./lib/systemd/system/tickprobe-collect.service
-rw-r--r-- ./lib/systemd/system/tickprobe-metrics.service
-rw-r--r-- ./lib/systemd/system/tickprobe-metrics.timer
-rw-r--r-- ./usr/share/doc/tickprobe/metrics.md
-rwxr-xr-x ./etc/grub.d/25_tickprobe
-rwxr-xr-x ./usr/bin/tickprobe
-rwxr-xr-x ./usr/lib/tickprobe/tickprobe-collect
-rwxr-xr-x ./usr/lib/tickprobe/tickprobe-static
lrwxrwxrwx ./usr/share/tickprobe/tickprobe.elf32 -> /boot/tickprobe.elf32
EOF
sort -o "$OUT/files.want" "$OUT/files.want"
if cmp -s "$OUT/files" "$OUT/files.want"; then
	pass "deb: dpkg-deb -c lists exactly the $(wc -l <"$OUT/files.want") expected files, modes and link"
else
	fail "deb: contents differ: $(diff "$OUT/files.want" "$OUT/files" | grep '^[<>]' | head -4 | tr '\n' ' ')"
fi

R=$OUT/root
if grub-file --is-x86-multiboot "$R/boot/tickprobe.elf32" && grub-file --is-x86_64-efi "$R/usr/share/tickprobe/tickprobe.efi" &&
	! readelf -S "$R/boot/tickprobe.elf32" | grep -q '\.debug_'; then
	pass "deb: /boot/tickprobe.elf32 is a stripped multiboot kernel, tickprobe.efi an x86_64 EFI application"
else
	fail "deb: the boot files are not what GRUB loads (grub-file), or the kernel keeps its debug sections"
fi
if "$BUILD/mkgrubcfg" --grub-d image/presets.cfg | cmp -s - "$R/usr/share/tickprobe/grub-menu.cfg" &&
	cmp -s image/presets.cfg "$R/usr/share/tickprobe/presets.cfg"; then
	pass "deb: grub-menu.cfg is mkgrubcfg --grub-d's menu of image/presets.cfg, presets.cfg the file itself"
else
	fail "deb: grub-menu.cfg or presets.cfg is not built from image/presets.cfg"
fi
if [ "$(cat "$OUT/control/conffiles")" = /etc/grub.d/25_tickprobe ] &&
	grep -qx 'Architecture: amd64' "$OUT/control/control" && grep -q '^Depends:.*libsqlite3' "$OUT/control/control" &&
	grep -qx "Version: $VERSION" "$OUT/control/control"; then
	pass "deb: control: version $VERSION, amd64, shlibs depends; the grub.d script is the one conffile"
else
	fail "deb: control or conffiles: $(tr '\n' ' ' <"$OUT/control/conffiles")"
fi
changed=
for p in man/*.[17]; do
	zcat "$R/usr/share/man/man${p##*.}/${p#man/}.gz" 2>/dev/null | cmp -s - "$p" || changed="$changed $p"
done
if "$R/usr/bin/tickprobe" --version | grep -qx "tickprobe $VERSION" && [ -z "$changed" ]; then
	pass "deb: /usr/bin/tickprobe runs and says $VERSION; each page of man/ is in /usr/share/man as it is"
else
	fail "deb: /usr/bin/tickprobe --version, or the man pages:${changed:- --version}"
fi

# --- lintian: the binary package, then the source ---------------------------
# Every override must say why, on the comment lines above it.
lintian_clean() { # NAME FILE...
	name=$1
	shift
	lintian --pedantic --display-info "$@" >"$OUT/lintian-$name.txt" 2>&1
	tags=$(grep -E '^[EWIPX]: ' "$OUT/lintian-$name.txt")
	if [ -z "$tags" ] && ! grep -qE '^(Non-zero|lintian: )' "$OUT/lintian-$name.txt"; then
		pass "lintian ($name, pedantic and info): no tag"
	else
		fail "lintian ($name): $(printf '%s' "$tags" | head -5 | tr '\n' ' ')$(grep -E '^(Non-zero|lintian: )' "$OUT/lintian-$name.txt" | head -2)"
	fi
}
lintian_clean binary "$DEB"
rm -rf "$OUT/src" && mkdir -p "$OUT/src/tickprobe-$VERSION"
tar -cf - --exclude=./build --exclude=./.git . | tar -xf - -C "$OUT/src/tickprobe-$VERSION"
if (cd "$OUT/src" && dpkg-source -b "tickprobe-$VERSION" >dpkg-source.log 2>&1); then
	lintian_clean source "$OUT/src/tickprobe_$VERSION.dsc"
else
	fail "dpkg-source -b: $(tail -n 2 "$OUT/src/dpkg-source.log" | tr '\n' ' ')"
fi
bare=$(cat debian/source/lintian-overrides debian/tickprobe.lintian-overrides 2>/dev/null |
	awk '/^#/ { c = 1; next } /^[ \t]*$/ { c = 0; next } !c { print } { c = c }' | head -1)
if [ -z "$bare" ]; then
	pass "lintian overrides: each one under a comment that justifies it"
else
	fail "lintian overrides: '$bare' has no comment above it"
fi

# --- the scripts parse ---------------------------------------------------------
bad=
for s in "$OUT/control/postinst" "$OUT/control/postrm" "$R/etc/grub.d/25_tickprobe"; do
	sh -n "$s" 2>"$OUT/sh-n.err" && dash -n "$s" 2>>"$OUT/sh-n.err" || bad="$bad $(basename "$s")"
done
if [ -z "$bad" ]; then
	pass "sh -n and dash -n: postinst, postrm, 25_tickprobe"
else
	fail "syntax:$bad: $(head -1 "$OUT/sh-n.err")"
fi

# --- postinst and postrm against a fake ESP ----------------------------------
# The tree before, the tree after: exactly the files named may differ.
tree() { (cd "$1" && find . | LC_ALL=C sort); }
fake_system
tree "$OUT/esp" >"$OUT/esp.before"
maint postinst configure >"$OUT/postinst.out" 2>&1; rc=$?
tree "$OUT/esp" >"$OUT/esp.after"
printf '%s\n' ./EFI/tickprobe ./EFI/tickprobe/presets.cfg ./EFI/tickprobe/tickprobe.efi ./tickprobe ./tickprobe/logs |
	cat - "$OUT/esp.before" | LC_ALL=C sort >"$OUT/esp.want"
S=$R/usr/share/tickprobe
if [ $rc -eq 0 ] && cmp -s "$OUT/esp.after" "$OUT/esp.want" && cmp -s "$S/tickprobe.efi" "$OUT/esp/EFI/tickprobe/tickprobe.efi" &&
	cmp -s "$S/presets.cfg" "$OUT/esp/EFI/tickprobe/presets.cfg" && [ "$(cat "$TP_UPDATE_GRUB_LOG")" = update-grub ]; then
	pass "postinst configure: the app and presets.cfg in EFI/tickprobe, tickprobe/logs made, nothing else touched; update-grub once"
else
	fail "postinst configure: exit $rc; $(diff "$OUT/esp.want" "$OUT/esp.after" | grep '^[<>]' | head -3 | tr '\n' ' ')update-grub: $(wc -l <"$TP_UPDATE_GRUB_LOG")"
fi

# An upgrade: the new files replace the old, and nothing is left beside them.
echo "an older application" >"$OUT/esp/EFI/tickprobe/tickprobe.efi"
maint postinst configure 0.0.9 >"$OUT/upgrade.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && [ "$(tree "$OUT/esp")" = "$(cat "$OUT/esp.want")" ] && cmp -s "$S/tickprobe.efi" "$OUT/esp/EFI/tickprobe/tickprobe.efi"; then
	pass "postinst configure 0.0.9 (upgrade): the application replaced, no file added"
else
	fail "postinst upgrade: exit $rc"
fi

# A copy that fails (here: a share without presets.cfg) is reported, leaves no
# half file, and does not fail the installation.
mkdir -p "$OUT/share-short" && cp "$S/tickprobe.efi" "$OUT/share-short/"
mkdir -p "$OUT/esp2/EFI"
TICKPROBE_SHARE=$OUT/share-short TICKPROBE_ESP=$OUT/esp2 maint postinst configure >"$OUT/short.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "cannot copy .*/presets.cfg to " "$OUT/short.out" && [ -z "$(find "$OUT/esp2" -name '*.new')" ]; then
	pass "postinst: a failed copy is named on stderr, leaves no .new file, exit 0"
else
	fail "postinst with a failing copy: exit $rc: $(head -1 "$OUT/short.out")"
fi
if ! maint postinst bogus >/dev/null 2>&1 && ! maint postrm bogus >/dev/null 2>&1; then
	pass "postinst and postrm refuse an unknown action"
else
	fail "postinst or postrm accepts an unknown action"
fi

# postrm upgrade leaves everything; remove takes exactly what postinst added
# but the logs: a saved log (the user's measurement) keeps its directory.
: >"$TP_UPDATE_GRUB_LOG"
maint postrm upgrade 0.1.1 >/dev/null 2>&1
if [ "$(tree "$OUT/esp")" = "$(cat "$OUT/esp.want")" ] && [ ! -s "$TP_UPDATE_GRUB_LOG" ]; then
	pass "postrm upgrade: nothing removed, no update-grub"
else
	fail "postrm upgrade touched the ESP or ran update-grub"
fi
echo '{"type":"begin"}' >"$OUT/esp/tickprobe/logs/0001.log"
maint postrm remove >"$OUT/postrm.out" 2>&1; rc=$?
printf '%s\n' ./tickprobe ./tickprobe/logs ./tickprobe/logs/0001.log | cat - "$OUT/esp.before" | LC_ALL=C sort >"$OUT/esp.kept"
if [ $rc -eq 0 ] && [ "$(tree "$OUT/esp")" = "$(cat "$OUT/esp.kept")" ] && [ "$(cat "$TP_UPDATE_GRUB_LOG")" = update-grub ]; then
	pass "postrm remove: EFI/tickprobe gone, the saved log and its directory kept, the rest untouched; update-grub once"
else
	fail "postrm remove: exit $rc; $(diff "$OUT/esp.kept" "$(tree "$OUT/esp" >"$OUT/esp.now"; echo "$OUT/esp.now")" | grep '^[<>]' | head -3 | tr '\n' ' ')"
fi
rm "$OUT/esp/tickprobe/logs/0001.log"
maint postrm purge >"$OUT/purge.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && [ "$(tree "$OUT/esp")" = "$(cat "$OUT/esp.before")" ]; then
	pass "postrm purge (again, logs gone): the empty log directories go too; the ESP is as it was"
else
	fail "postrm purge: exit $rc"
fi

# --- /etc/grub.d/25_tickprobe --------------------------------------------------
fake_system
maint postinst configure >/dev/null 2>&1
fat_image "$OUT/esp" "$OUT/esp.img" 8192 7e1c0b0e && fat_image "$R/boot" "$OUT/bootfs.img" 4096 7e1c0b0b ||
	{ fail "setup: the file system images"; exit 1; }
grub_d >"$OUT/menu.cfg" 2>"$OUT/menu.err"; rc=$?
if [ $rc -eq 0 ] && grub-script-check "$OUT/menu.cfg" 2>"$OUT/check.err"; then
	pass "25_tickprobe: exit 0, $(wc -l <"$OUT/menu.cfg") lines that grub-script-check accepts"
else
	fail "25_tickprobe: exit $rc, $(head -1 "$OUT/menu.err")$(head -1 "$OUT/check.err")"
fi
# Each firmware's branch reaches its file by its file system's UUID.
efi_branch=$(sed -n '/grub_platform" = "efi" ]; then$/,/^	fi$/p' "$OUT/menu.cfg" | head -n 20)
pc_branch=$(sed -n '/grub_platform" = "pc" ]; then$/,/^	fi$/p' "$OUT/menu.cfg" | head -n 20)
if printf '%s' "$efi_branch" | grep -q "search --no-floppy --fs-uuid --set=root $ESP_UUID" &&
	printf '%s' "$efi_branch" | grep -q 'chainloader /EFI/tickprobe/tickprobe.efi preset=\$1$' &&
	printf '%s' "$pc_branch" | grep -q "search --no-floppy --fs-uuid --set=root $BOOTFS_UUID" &&
	printf '%s' "$pc_branch" | grep -q 'multiboot /tickprobe.elf32 preset=\$1$' &&
	grep -q 'if \[ "$grub_platform" = "efi" -o "$grub_platform" = "pc" \]; then' "$OUT/menu.cfg"; then
	pass "25_tickprobe: efi: search $ESP_UUID, chainloader /EFI/tickprobe/tickprobe.efi; pc: search $BOOTFS_UUID, multiboot /tickprobe.elf32"
else
	fail "25_tickprobe: the tickprobe_boot function: $(head -n 12 "$OUT/menu.cfg" | tr '\n\t' '  ')"
fi
# The menu: "tickprobe" and one submenu entry per preset of presets.cfg, in order.
names=$(sed -n 's/^\([A-Za-z0-9_-]*\)[ \t]*:.*/\1/p' image/presets.cfg | grep -vx timeout | tr '\n' ' ')
calls=$(sed -n '/^submenu /,/^}/s/^\t\ttickprobe_boot \(.*\)/\1/p' "$OUT/menu.cfg" | tr '\n' ' ')
if [ "$names" = "$calls" ] && grep -q "^menuentry 'tickprobe' --class tickprobe \$menuentry_id_option 'tickprobe' {" "$OUT/menu.cfg" &&
	[ "$(grep -c 'menuentry ' "$OUT/menu.cfg")" -eq $(( $(echo "$names" | wc -w) + 1 )) ]; then
	pass "25_tickprobe: a 'tickprobe' entry and the submenu's entries call tickprobe_boot with each preset: $names"
else
	fail "25_tickprobe: presets '$names', submenu calls '$calls'"
fi

# Only what GRUB can read gets a branch; nothing to boot, no output at all.
mkdir -p "$OUT/no-esp/EFI" "$OUT/no-boot"
grub_d TICKPROBE_ESP="$OUT/no-esp" >"$OUT/menu-pc.cfg" 2>/dev/null
grub_d TICKPROBE_BOOT="$OUT/no-boot" >"$OUT/menu-efi.cfg" 2>/dev/null
grub_d TICKPROBE_BOOT="$OUT/no-boot" TICKPROBE_ESP="$OUT/no-esp" >"$OUT/menu-none.cfg" 2>"$OUT/menu-none.err"; rc=$?
if grub-script-check "$OUT/menu-pc.cfg" && ! grep -q chainloader "$OUT/menu-pc.cfg" && grep -q '^if \[ "$grub_platform" = "pc" \]; then' "$OUT/menu-pc.cfg" &&
	grub-script-check "$OUT/menu-efi.cfg" && ! grep -q multiboot "$OUT/menu-efi.cfg" && grep -q '^if \[ "$grub_platform" = "efi" \]; then' "$OUT/menu-efi.cfg" &&
	[ $rc -eq 0 ] && [ ! -s "$OUT/menu-none.cfg" ] && grep -q "no menu entry" "$OUT/menu-none.err"; then
	pass "25_tickprobe: no ESP copy: BIOS only; no /boot kernel: UEFI only; neither: no output, a message, exit 0"
else
	fail "25_tickprobe: with one file or none missing"
fi
# Without update-grub's GRUB_DEVICE_BOOT the kernel's device is probed: the
# same menu.  A path grub-mkrelpath cannot give drops the entry, not update-grub.
grub_d GRUB_DEVICE_BOOT= >"$OUT/menu-nodev.cfg" 2>/dev/null
grub_d grub_mkrelpath=false >"$OUT/menu-norel.cfg" 2>"$OUT/menu-norel.err"; rc=$?
if cmp -s "$OUT/menu.cfg" "$OUT/menu-nodev.cfg" && [ $rc -eq 0 ] && [ ! -s "$OUT/menu-norel.cfg" ] &&
	grep -q "no menu entry" "$OUT/menu-norel.err"; then
	pass "25_tickprobe: no GRUB_DEVICE_BOOT: grub-probe finds /boot, same menu; grub-mkrelpath failing: no entry, exit 0"
else
	fail "25_tickprobe: without GRUB_DEVICE_BOOT or grub-mkrelpath: $(diff "$OUT/menu.cfg" "$OUT/menu-nodev.cfg" | head -2 | tr '\n' ' ') exit $rc"
fi
echo 'GRUB_DISABLE_TICKPROBE=true' >"$OUT/default-grub"
grub_d >"$OUT/menu-off1.cfg" 2>&1; rc1=$?
: >"$OUT/default-grub"
grub_d GRUB_DISABLE_TICKPROBE=true >"$OUT/menu-off2.cfg" 2>&1; rc2=$?
mv "$R/usr/share/tickprobe/grub-menu.cfg" "$OUT/grub-menu.cfg.away"
grub_d >"$OUT/menu-removed.cfg" 2>&1; rc3=$?
mv "$OUT/grub-menu.cfg.away" "$R/usr/share/tickprobe/grub-menu.cfg"
if [ $rc1$rc2$rc3 = 000 ] && [ ! -s "$OUT/menu-off1.cfg" ] && [ ! -s "$OUT/menu-off2.cfg" ] && [ ! -s "$OUT/menu-removed.cfg" ]; then
	pass "25_tickprobe: GRUB_DISABLE_TICKPROBE=true (in /etc/default/grub or the environment), or the package removed: no output"
else
	fail "25_tickprobe: disabled or removed: exits $rc1 $rc2 $rc3, $(wc -c <"$OUT/menu-off1.cfg") $(wc -c <"$OUT/menu-off2.cfg") $(wc -c <"$OUT/menu-removed.cfg") bytes"
fi
echo "test_deb: $(( ($(now_ms) - T0) / 1000 )) s"
