/* SPDX-License-Identifier: BSD-2-Clause */
/* The EFI system partition of this system, for `tickprobe schedule`: where
 * it is mounted (the package's search: the first of /boot/efi, /efi, /boot
 * that is FAT and holds EFI/), the disk and partition under it (sysfs), and
 * that partition's first LBA, size and unique GUID, read from the disk's GPT
 * itself: an initramfs or a server without udev has no /dev/disk/by-partuuid. */
#ifndef TOOLS_SCHEDULE_ESP_H
#define TOOLS_SCHEDULE_ESP_H

#include <limits.h>
#include <stddef.h>
#include "tools/schedule/efivar.h"

struct esp {
	char dir[PATH_MAX];  /* the mount point */
	char disk[PATH_MAX]; /* the whole disk: /dev/nvme0n1, or an image file in a test */
	struct efi_partition part;
};

/* The mounted ESP: dir when given, else the package's search.  false with
 * why when there is none. */
bool esp_mount(char *dir, size_t cap, const char *given, char *why, size_t wcap);

/* e->dir set; disk and number given (a test's image file) or found from the
 * mount's device in sysfs.  Fills e->disk and e->part; false with why. */
bool esp_partition(struct esp *e, const char *disk, unsigned number, char *why, size_t cap);

#endif
