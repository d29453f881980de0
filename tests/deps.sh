#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Check the Debian packages tickprobe needs; install the missing ones when
# running as root, otherwise print the exact apt-get line and fail.
PKGS="build-essential qemu-system-x86 ovmf seabios grub-pc-bin grub-efi-amd64-bin grub-common
ipxe-qemu xorriso mtools dosfstools gnu-efi ministat acpica-tools chromium clang clang-tidy clang-format cppcheck shellcheck libclang-rt-14-dev
python3 util-linux libsqlite3-dev sqlite3 zlib1g-dev libmicrohttpd-dev busybox-static fdisk cpio grub2-common
debhelper dpkg-dev fakeroot lintian mandoc man-db systemd init-system-helpers sbsigntool openssl bochs bochs-term bochsbios vgabios
prometheus prometheus-node-exporter yamllint python3-yaml python3-junitparser libxml2-utils"
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
	echo "tickprobe: missing Debian packages. Run:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
