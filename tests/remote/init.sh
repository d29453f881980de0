#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# /init of the installed system tests/remote/test_e2e.sh boots: what a server
# with the package does at boot, in busybox.  It mounts the ESP as /boot/efi
# and keeps /var/lib/tickprobe on it (the disk's only file system), runs the
# package unit's step (tickprobe schedule --after-boot), and, the first time
# (\e2e\schedule on the ESP), `tickprobe schedule --preset quick --reboot`, as
# `ssh host sudo tickprobe schedule --reboot` would.  Otherwise it powers off.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in efivarfs fat vfat nls_cp437 nls_ascii; do insmod /lib/modules/$m.ko; done
mount -t efivarfs efivarfs /sys/firmware/efi/efivars
mount -t vfat /dev/nvme0n1p1 /boot/efi || echo "tickprobe-e2e: cannot mount the ESP"
ln -s /boot/efi/state /var/lib/tickprobe
echo "tickprobe-e2e: installed system up, kernel $(uname -r)"
tickprobe schedule --after-boot
echo "tickprobe-e2e: after-boot exit $?"
for v in BootNext BootOrder BootCurrent; do
	f=/sys/firmware/efi/efivars/$v-8be4df61-93ca-11d2-aa0d-00e098032b8c
	if [ -e "$f" ]; then
		echo "tickprobe-e2e: $v $(od -An -tx1 -j4 "$f" | tr -d '\n')"
	else
		echo "tickprobe-e2e: $v absent"
	fi
done
if [ -f /boot/efi/e2e/schedule ]; then
	rm /boot/efi/e2e/schedule
	sync
	echo "tickprobe-e2e: scheduling"
	tickprobe schedule --preset quick --reboot
	echo "tickprobe-e2e: schedule exit $?"
	sleep 30 # the reboot comes before this ends
fi
tickprobe logs
echo "tickprobe-e2e: logs exit $?"
tickprobe show --latest >/tmp/show.txt 2>&1
echo "tickprobe-e2e: show --latest exit $? ($(grep -c . /tmp/show.txt) lines)"
echo "tickprobe-e2e: done"
sync
umount /boot/efi
poweroff -f
