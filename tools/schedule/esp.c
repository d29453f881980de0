/* SPDX-License-Identifier: BSD-2-Clause */
/* The ESP, its disk and its GPT entry (esp.h). */
#define _GNU_SOURCE
#include "tools/schedule/esp.h"
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#define MSDOS_SUPER_MAGIC 0x4d44 /* linux/magic.h: FAT, as the package's `stat -f -c %T` says "msdos" */
#define GPT_ENTRIES_MAX 1024     /* far above the 128 every partitioning tool writes */

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

bool esp_mount(char *dir, size_t cap, const char *given, char *why, size_t wcap)
{
	static const char *const places[] = { "/boot/efi", "/efi", "/boot" };
	char efi[PATH_MAX + 8];

	if (given) {
		if (!is_dir(given)) {
			snprintf(why, wcap, "--esp %s is not a directory", given);
			return false;
		}
		snprintf(dir, cap, "%s", given);
		return true;
	}
	for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
		struct statfs fs;
		snprintf(efi, sizeof efi, "%s/EFI", places[i]);
		if (is_dir(efi) && statfs(places[i], &fs) == 0 && fs.f_type == MSDOS_SUPER_MAGIC) {
			snprintf(dir, cap, "%s", places[i]);
			return true;
		}
	}
	snprintf(why, wcap, "no EFI system partition mounted at /boot/efi, /efi or /boot (a FAT file system holding "
			    "EFI/); mount it, or name it with --esp DIR");
	return false;
}

static bool read_text(const char *path, char *out, size_t cap)
{
	FILE *f = fopen(path, "r");
	bool ok = f && fgets(out, (int)cap, f);
	if (f)
		fclose(f);
	if (ok)
		out[strcspn(out, "\n")] = 0;
	return ok;
}

/* The disk and partition number of the file system mounted at dir. */
static bool from_sysfs(const char *dir, char *disk, size_t cap, unsigned *number, char *why, size_t wcap)
{
	char sys[64], real[PATH_MAX], f[PATH_MAX + 16], text[32];
	struct stat st;

	if (stat(dir, &st) != 0) {
		snprintf(why, wcap, "%s: %s", dir, strerror(errno));
		return false;
	}
	snprintf(sys, sizeof sys, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	snprintf(f, sizeof f, "%s/partition", sys);
	if (!realpath(sys, real) || !read_text(f, text, sizeof text)) {
		snprintf(why, wcap, "%s is on device %u:%u, which is no disk partition in /sys/dev/block; name the disk "
				    "and partition with --disk DEV --partition N", dir, major(st.st_dev), minor(st.st_dev));
		return false;
	}
	*number = (unsigned)strtoul(text, NULL, 10);
	snprintf(disk, cap, "/dev/%s", basename(dirname(real)));
	return true;
}

static uint64_t le(const uint8_t *b, int n)
{
	uint64_t v = 0;
	while (n-- > 0)
		v = v << 8 | b[n];
	return v;
}

/* The GPT header at LBA 1, for a sector size of 512 or 4096 bytes. */
static bool gpt_header(int fd, uint8_t hdr[92], unsigned *lbs)
{
	static const unsigned sizes[] = { 512, 4096 };
	for (size_t i = 0; i < 2; i++)
		if (pread(fd, hdr, 92, sizes[i]) == 92 && !memcmp(hdr, "EFI PART", 8)) {
			*lbs = sizes[i];
			return true;
		}
	return false;
}

static bool gpt_entry(const char *disk, unsigned number, struct efi_partition *p, char *why, size_t cap)
{
	uint8_t hdr[92], ent[128];
	unsigned lbs;
	int fd = open(disk, O_RDONLY | O_CLOEXEC);
	uint64_t at, count, size;

	if (fd < 0) {
		snprintf(why, cap, "cannot read the disk %s: %s", disk, strerror(errno));
		return false;
	}
	if (!gpt_header(fd, hdr, &lbs)) {
		close(fd);
		snprintf(why, cap, "%s has no GUID partition table (no \"EFI PART\" at LBA 1): a boot entry for an MBR "
				   "disk is efibootmgr's job", disk);
		return false;
	}
	at = le(hdr + 72, 8);
	count = le(hdr + 80, 4);
	size = le(hdr + 84, 4);
	if (!number || number > count || count > GPT_ENTRIES_MAX || size < 128 ||
	    pread(fd, ent, 128, (off_t)(at * lbs + (number - 1) * size)) != 128) {
		close(fd);
		snprintf(why, cap, "%s: partition %u is not in its GPT (%llu entries)", disk, number,
			 (unsigned long long)count);
		return false;
	}
	close(fd);
	if (!memcmp(ent, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16)) {
		snprintf(why, cap, "%s: GPT entry %u is unused", disk, number);
		return false;
	}
	p->number = number;
	memcpy(p->guid, ent + 16, 16);
	p->start = le(ent + 32, 8);
	p->size = le(ent + 40, 8) - p->start + 1;
	return true;
}

bool esp_partition(struct esp *e, const char *disk, unsigned number, char *why, size_t cap)
{
	if (disk) {
		snprintf(e->disk, sizeof e->disk, "%s", disk);
	} else if (!from_sysfs(e->dir, e->disk, sizeof e->disk, &number, why, cap)) {
		return false;
	}
	return gpt_entry(e->disk, number, &e->part, why, cap);
}
