#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Check the Debian packages tickprobe needs; install the missing ones when
# running as root, otherwise print the exact apt-get line and fail.
#
#   deps.sh [GROUP...]     the packages of these test groups (and of the
#                          build, which each needs); all without one
#
# A group is a folder of tests/ (tests/GROUP/test_*.sh), or a tag of
# tests/boots.cfg's entries ("uefi": the OVMF boots; "fast": make check-fast).
# A group that needs a package adds it to its list below: CI installs only
# what this script lists.
group_pkgs() {
	case $1 in
	build) echo "build-essential gnu-efi grub-pc-bin grub-efi-amd64-bin grub-common grub2-common xorriso mtools
		dosfstools python3 util-linux libsqlite3-dev zlib1g-dev libmicrohttpd-dev" ;;
	acpi | method | boot | integrity) echo "qemu-system-x86 seabios ovmf" ;;
	uefi) echo "qemu-system-x86 ovmf" ;;
	bochs) echo "bochs bochs-term bochsbios vgabios" ;;
	deb) echo "qemu-system-x86 seabios ovmf debhelper dpkg-dev fakeroot lintian mandoc man-db systemd
		init-system-helpers fdisk prometheus" ;;
	docs | doctor) ;;
	image) echo "qemu-system-x86 ovmf" ;;
	stat) echo "ministat" ;;
	unit) echo "acpica-tools" ;;
	fault) echo "qemu-system-x86 seabios ovmf sqlite3" ;;
	fuzz) echo "clang libclang-rt-14-dev qemu-system-x86 seabios ministat" ;;
	lint) echo "clang clang-tidy clang-format cppcheck shellcheck mandoc ministat" ;;
	linux) echo "qemu-system-x86 seabios busybox-static cpio ministat" ;;
	net) echo "qemu-system-x86 seabios ovmf ipxe-qemu sqlite3" ;;
	nocable) echo "qemu-system-x86 ovmf sbsigntool openssl" ;;
	remote) echo "qemu-system-x86 seabios ovmf busybox-static cpio fdisk sqlite3" ;;
	tools) echo "qemu-system-x86 seabios chromium sqlite3 prometheus prometheus-node-exporter yamllint
		python3-yaml python3-junitparser libxml2-utils mandoc man-db ministat" ;;
	fast) echo "$(group_pkgs lint) $(group_pkgs boot)" ;;
	*) return 1 ;;
	esac
}
# Every group, for the whole suite: the folders and the tags above.
ALL="acpi bochs boot deb docs doctor fault fuzz image integrity lint linux method net nocable remote stat tools unit uefi"

# shellcheck disable=SC2086 # lists of names, split on purpose
[ $# -gt 0 ] || set -- $ALL
PKGS=$(group_pkgs build)
for g in "$@"; do
	p=$(group_pkgs "$g") || { echo "tickprobe: no test group '$g' (groups: $ALL)" >&2; exit 2; }
	PKGS="$PKGS $p"
done
# shellcheck disable=SC2086 # lists of names, split on purpose
PKGS=$(printf '%s\n' $PKGS | sort -u | tr '\n' ' ')
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "tickprobe: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086 # a list of package names, split on purpose
	apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
		echo "tickprobe: apt-get install failed" >&2; exit 1; }
else
	echo "tickprobe: missing Debian packages (groups: $*). Run:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
