# SPDX-License-Identifier: BSD-2-Clause
# Shared by tests/deb/test_*.sh: the package, unpacked into a fake root, and
# the stand-ins for an installed system's tools.  Sourced, not run; the caller
# sets OUT (its own directory under BUILD).
#
# The fake system:
#   $OUT/root            the .deb unpacked (dpkg-deb -x): /boot, /etc, /usr
#   $OUT/root/boot       /boot, a file system of its own: bootfs.img
#   $OUT/esp             the EFI system partition, mounted: esp.img
#   $OUT/bin             grub-probe, grub-mkrelpath and update-grub for them
# grub-probe answers a path below one of the trees with that tree's image
# file, and asks the real grub-probe (which reads an image file as a device)
# everything it asks of a device: the file system, its UUID, its modules.
# shellcheck disable=SC2034 # TP, ESP_UUID, BOOTFS_UUID: for the tests that source this
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
VERSION=$(sed -n 's/^VERSION *:= *//p' Makefile)
DEB=$BUILD/tickprobe_${VERSION}_amd64.deb
ESP_UUID=7E1C-0B0E
BOOTFS_UUID=7E1C-0B0B

# now_ms and QEMU_EXIT_DEVICE, the boot helper's.
. tests/lib/boot.sh

# make deb when the .deb is older than a packaged source (a no-op otherwise);
# the first build takes about a minute on 2 cores.  Both deb tests call it and
# tests/run.sh may run them at once: the lock makes the second wait for the
# first's build and then find the package up to date, so one test builds it.
# nocheck: the package build's own unit test run (debian/rules,
# dh_auto_test) is the one make check has already made; the package's files
# are the same either way.
build_deb() {
	t0=$(now_ms)
	if flock "$BUILD/.deb.lock" make -s deb BUILD="$BUILD" DEB_BUILD_OPTIONS=nocheck >"$OUT/make-deb.log" 2>&1 &&
		[ -f "$DEB" ]; then
		pass "make deb: $DEB, $(wc -c <"$DEB") bytes ($(( ($(now_ms) - t0) / 1000 )) s)"
	else
		fail "make deb: $(tail -n 5 "$OUT/make-deb.log" | tr '\n' ' ')"
		exit 1
	fi
}

# The package unpacked into $OUT/root, its control files into $OUT/control.
unpack_deb() {
	rm -rf "$OUT/root" "$OUT/control"
	dpkg-deb -x "$DEB" "$OUT/root" && dpkg-deb -e "$DEB" "$OUT/control" || {
		fail "setup: cannot unpack $DEB"
		exit 1
	}
	mkdir -p "$OUT/root/boot/grub"
	: >"$OUT/root/boot/grub/grub.cfg" # GRUB is installed: the scripts run update-grub
}

# A FAT image of a tree: fat_image DIR IMAGE KiB VOLUME_ID
fat_image() {
	rm -f "$2"
	mkfs.fat -C -i "$4" "$2" "$3" >/dev/null &&
		{ [ -z "$(ls -A "$1")" ] || mcopy -s -m -i "$2" "$1"/* ::; }
}

write_fake_tools() {
	mkdir -p "$OUT/bin"
	TP_TREES="$(cd "$OUT" && pwd)/esp=$(cd "$OUT" && pwd)/esp.img $(cd "$OUT" && pwd)/root/boot=$(cd "$OUT" && pwd)/bootfs.img"
	export TP_TREES
	cat >"$OUT/bin/grub-probe" <<'EOF'
#!/bin/sh
# grub-probe for the test trees in TP_TREES ("DIR=IMAGE ...").
target= device= arg=
while [ $# -gt 0 ]; do
	case $1 in
	-t | --target) target=$2; shift ;;
	--target=*) target=${1#--target=} ;;
	-d | --device) device=1 ;;
	-*) ;;
	*) arg=$1 ;;
	esac
	shift
done
if [ -n "$device" ]; then
	exec /usr/sbin/grub-probe --device "$arg" --target="$target"
fi
for pair in $TP_TREES; do
	dir=${pair%%=*} img=${pair#*=}
	case $arg in
	"$dir" | "$dir"/*)
		if [ "$target" = device ]; then echo "$img"; exit 0; fi
		exec /usr/sbin/grub-probe --device "$img" --target="$target" ;;
	esac
done
echo "grub-probe (test): $arg is on no test device" >&2
exit 1
EOF
	cat >"$OUT/bin/grub-mkrelpath" <<'EOF'
#!/bin/sh
# grub-mkrelpath for the test trees: the path from the tree's root.
for pair in $TP_TREES; do
	dir=${pair%%=*}
	case $1 in
	"$dir") echo /; exit 0 ;;
	"$dir"/*) echo "${1#"$dir"}"; exit 0 ;;
	esac
done
echo "grub-mkrelpath (test): $1 is in no test tree" >&2
exit 1
EOF
	cat >"$OUT/bin/update-grub" <<'EOF'
#!/bin/sh
echo "update-grub${*:+ $*}" >>"$TP_UPDATE_GRUB_LOG"
EOF
	chmod +x "$OUT/bin/grub-probe" "$OUT/bin/grub-mkrelpath" "$OUT/bin/update-grub"
	TP_UPDATE_GRUB_LOG=$(cd "$OUT" && pwd)/update-grub.calls
	export TP_UPDATE_GRUB_LOG
}

# A maintainer script of the package against the fake system:
# maint postinst|postrm ARGS...   (TICKPROBE_SHARE, TICKPROBE_ESP, DPKG_ROOT may be set first)
# As dpkg runs it: DPKG_MAINTSCRIPT_PACKAGE set, and DPKG_ROOT, the root the
# state (/var/lib, /run) and deb-systemd-helper's links are under, always a
# test tree (default: the unpacked package), never this machine's /.
maint() {
	script=$1
	shift
	root=$(cd "${DPKG_ROOT:-$OUT/root}" 2>/dev/null && pwd)
	if [ -z "$root" ] || [ "$root" = / ]; then
		echo "maint: no test tree for DPKG_ROOT (${DPKG_ROOT:-$OUT/root}): not run" >&2
		return 99
	fi
	PATH="$OUT/bin:$PATH" TICKPROBE_BOOT="$OUT/root/boot" \
		TICKPROBE_SHARE="${TICKPROBE_SHARE:-$OUT/root/usr/share/tickprobe}" \
		TICKPROBE_ESP="${TICKPROBE_ESP-$OUT/esp}" DPKG_ROOT="$root" \
		DPKG_MAINTSCRIPT_PACKAGE=tickprobe DPKG_MAINTSCRIPT_NAME="$script" sh "$OUT/control/$script" "$@"
}

# /etc/grub.d/25_tickprobe against the fake system, as grub-mkconfig runs it:
# grub_d [VAR=VALUE...]  (VAR=VALUE: more environment, e.g. TICKPROBE_ESP=...)
grub_d() {
	env pkgdatadir=/usr/share/grub grub_probe="$OUT/bin/grub-probe" grub_mkrelpath="$OUT/bin/grub-mkrelpath" \
		GRUB_DEVICE_BOOT="$(cd "$OUT" && pwd)/bootfs.img" TICKPROBE_BOOT="$(cd "$OUT" && pwd)/root/boot" \
		TICKPROBE_SHARE="$(cd "$OUT" && pwd)/root/usr/share/tickprobe" TICKPROBE_ESP="$(cd "$OUT" && pwd)/esp" \
		TICKPROBE_GRUB_DEFAULTS="$(cd "$OUT" && pwd)/default-grub" "$@" sh "$OUT/root/etc/grub.d/25_tickprobe"
}

# The ESP as the package leaves it, and the two file systems' images.
fake_system() {
	rm -rf "$OUT/esp" && mkdir -p "$OUT/esp/EFI/BOOT" "$OUT/esp/EFI/debian"
	echo "firmware's fallback loader" >"$OUT/esp/EFI/BOOT/BOOTX64.EFI"
	echo "the system's GRUB" >"$OUT/esp/EFI/debian/grubx64.efi"
	: >"$OUT/default-grub"
	: >"$TP_UPDATE_GRUB_LOG"
}
