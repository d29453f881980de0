/* SPDX-License-Identifier: BSD-2-Clause */
/* Boot#### load options and efivarfs files (efivar.h). */
#define _GNU_SOURCE
#include "tools/schedule/efivar.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define EFIVARFS_MAGIC 0xde5e81e4u /* linux/magic.h */

/* Device path nodes (UEFI 2.10, 10.3.5): type, subtype, and the hard drive
 * node's fixed 42 bytes. */
#define DP_MEDIA 4
#define DP_MEDIA_HD 1
#define DP_MEDIA_FILE 4
#define DP_END 0x7f
#define DP_END_ENTIRE 0xff
#define HD_NODE_LEN 42
#define HD_GPT 2     /* MBRType: GUID partition table */
#define HD_SIG_GUID 2 /* SignatureType: a GUID */

struct out {
	uint8_t *p;
	size_t n, cap;
	bool bad;
};

static void put(struct out *o, const void *src, size_t n)
{
	if (o->bad || o->n + n > o->cap) {
		o->bad = true;
		return;
	}
	memcpy(o->p + o->n, src, n);
	o->n += n;
}

static void put_le(struct out *o, uint64_t v, size_t bytes)
{
	uint8_t b[8];
	for (size_t i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put(o, b, bytes);
}

/* s as UCS-2 with its NUL; only printable ASCII is taken. */
static void put_ucs2(struct out *o, const char *s)
{
	for (; *s; s++) {
		if (*s < 0x20 || *s > 0x7e)
			o->bad = true;
		put_le(o, (uint8_t)*s, 2);
	}
	put_le(o, 0, 2);
}

size_t load_option_encode(uint8_t *buf, size_t cap, uint32_t attributes, const char *description,
			  const struct efi_partition *p, const char *path, const char *options)
{
	struct out o = { buf, 0, cap, false };
	size_t fplen_at, dp_start;

	put_le(&o, attributes, 4);
	fplen_at = o.n;
	put_le(&o, 0, 2); /* FilePathListLength, filled in below */
	put_ucs2(&o, description);
	dp_start = o.n;
	put_le(&o, DP_MEDIA, 1);
	put_le(&o, DP_MEDIA_HD, 1);
	put_le(&o, HD_NODE_LEN, 2);
	put_le(&o, p->number, 4);
	put_le(&o, p->start, 8);
	put_le(&o, p->size, 8);
	put(&o, p->guid, 16);
	put_le(&o, HD_GPT, 1);
	put_le(&o, HD_SIG_GUID, 1);
	put_le(&o, DP_MEDIA, 1);
	put_le(&o, DP_MEDIA_FILE, 1);
	put_le(&o, 4 + 2 * (strlen(path) + 1), 2);
	put_ucs2(&o, path);
	put_le(&o, DP_END, 1);
	put_le(&o, DP_END_ENTIRE, 1);
	put_le(&o, 4, 2);
	if (!o.bad) {
		size_t fplen = o.n - dp_start;
		buf[fplen_at] = (uint8_t)fplen;
		buf[fplen_at + 1] = (uint8_t)(fplen >> 8);
	}
	if (*options)
		put_ucs2(&o, options);
	return o.bad ? 0 : o.n;
}

static uint64_t get_le(const uint8_t *b, size_t bytes)
{
	uint64_t v = 0;
	for (size_t i = bytes; i-- > 0;)
		v = v << 8 | b[i];
	return v;
}

/* UCS-2 text of n bytes (a NUL ends it early) as ASCII into out; false if
 * it holds anything else or no NUL when nul_needed. */
static bool ucs2_text(const uint8_t *b, size_t n, char *out, size_t cap, bool nul_needed, size_t *used)
{
	size_t k = 0, i;
	for (i = 0; i + 1 < n; i += 2) {
		unsigned c = (unsigned)get_le(b + i, 2);
		if (!c) {
			out[k] = 0;
			*used = i + 2;
			return true;
		}
		if ((c < 0x20 && c != '\t') || c > 0x7e || k + 1 >= cap)
			return false;
		out[k++] = (char)c;
	}
	out[k] = 0;
	*used = i;
	return !nul_needed;
}

/* The device path list: a GPT hard drive node and the file path nodes. */
static bool decode_path(const uint8_t *dp, size_t n, struct load_option *o)
{
	size_t at = 0, used;
	while (at + 4 <= n) {
		unsigned type = dp[at], sub = dp[at + 1], len = (unsigned)get_le(dp + at + 2, 2);
		if (len < 4 || at + len > n)
			return false;
		if (type == DP_END && sub == DP_END_ENTIRE)
			return true;
		if (type == DP_MEDIA && sub == DP_MEDIA_HD && len == HD_NODE_LEN && dp[at + 40] == HD_GPT) {
			o->has_partition = true;
			o->part.number = (uint32_t)get_le(dp + at + 4, 4);
			o->part.start = get_le(dp + at + 8, 8);
			o->part.size = get_le(dp + at + 16, 8);
			memcpy(o->part.guid, dp + at + 24, 16);
		} else if (type == DP_MEDIA && sub == DP_MEDIA_FILE) {
			size_t have = strlen(o->path);
			if (!ucs2_text(dp + at + 4, len - 4, o->path + have, sizeof o->path - have, false, &used))
				return false;
		}
		at += len;
	}
	return false; /* no end node */
}

bool load_option_decode(const uint8_t *buf, size_t n, struct load_option *o)
{
	size_t used, fplen, at;

	memset(o, 0, sizeof *o);
	if (n < 6)
		return false;
	o->attributes = (uint32_t)get_le(buf, 4);
	fplen = get_le(buf + 4, 2);
	if (!ucs2_text(buf + 6, n - 6, o->description, sizeof o->description, true, &used))
		return false;
	at = 6 + used;
	if (at + fplen > n || !decode_path(buf + at, fplen, o))
		return false;
	at += fplen;
	/* Optional data that is not text (OVMF's entries carry a GUID) is no options. */
	if (at < n && ((n - at) % 2 || !ucs2_text(buf + at, n - at, o->options, sizeof o->options, false, &used)))
		o->options[0] = 0;
	return true;
}

void efi_guid_text(const uint8_t g[16], char out[37])
{
	snprintf(out, 37, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", (unsigned)get_le(g, 4),
		 (unsigned)get_le(g + 4, 2), (unsigned)get_le(g + 6, 2), g[8], g[9], g[10], g[11], g[12], g[13], g[14],
		 g[15]);
}

static void var_path(char *out, size_t cap, const char *dir, const char *name)
{
	snprintf(out, cap, "%s/%s-%s", dir, name, EFI_GLOBAL_GUID);
}

int efivar_read(const char *dir, const char *name, uint8_t *data, size_t cap, size_t *len, uint32_t *attrs)
{
	char path[4200];
	uint8_t buf[EFIVAR_MAX + 4];
	ssize_t got;
	int fd, e;

	var_path(path, sizeof path, dir, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno;
	got = read(fd, buf, sizeof buf);
	e = errno;
	close(fd);
	if (got < 0)
		return e;
	if (got < 4 || (size_t)got - 4 > cap)
		return EINVAL;
	*attrs = (uint32_t)get_le(buf, 4);
	*len = (size_t)got - 4;
	memcpy(data, buf + 4, *len);
	return 0;
}

/* efivarfs marks most of its files immutable; Boot#### and BootNext are
 * usually not, but a firmware's own entries may be: the flag is cleared, as
 * `chattr -i` would, before a file is changed or removed. */
static void make_mutable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), flags;
	if (fd < 0)
		return;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_IMMUTABLE_FL)) {
		flags &= ~FS_IMMUTABLE_FL;
		ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
}

int efivar_write(const char *dir, const char *name, uint32_t attrs, const uint8_t *data, size_t n, char *why,
		 size_t cap)
{
	char path[4200];
	uint8_t buf[EFIVAR_MAX + 4];
	struct statfs fs;
	int fd, e = 0, trunc;

	var_path(path, sizeof path, dir, name);
	if (n > EFIVAR_MAX) {
		snprintf(why, cap, "%s: %zu bytes is too long", path, n);
		return EINVAL;
	}
	/* efivarfs takes the whole variable in one write and has no truncate;
	 * an ordinary directory (a test's) needs O_TRUNC to lose a longer old copy. */
	trunc = statfs(dir, &fs) == 0 && (unsigned)fs.f_type == EFIVARFS_MAGIC ? 0 : O_TRUNC;
	make_mutable(path);
	for (int i = 0; i < 4; i++)
		buf[i] = (uint8_t)(attrs >> (8 * i));
	memcpy(buf + 4, data, n);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | trunc, 0644);
	if (fd < 0 || write(fd, buf, n + 4) != (ssize_t)(n + 4))
		e = errno ? errno : EIO;
	if (fd >= 0 && close(fd) != 0 && !e)
		e = errno;
	if (e)
		snprintf(why, cap, "cannot write %s: %s", path, strerror(e));
	return e;
}

int efivar_delete(const char *dir, const char *name, char *why, size_t cap)
{
	char path[4200];
	var_path(path, sizeof path, dir, name);
	make_mutable(path);
	if (unlink(path) != 0 && errno != ENOENT) {
		int e = errno;
		snprintf(why, cap, "cannot remove %s: %s", path, strerror(e));
		return e;
	}
	return 0;
}

static int by_num(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

size_t efivar_boot_entries(const char *dir, uint16_t *nums, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	/* cppcheck-suppress readdirCalled ; one thread reads this directory */
	while ((e = readdir(d)) && n < cap) {
		unsigned v = 0;
		int i;
		if (strncmp(e->d_name, "Boot", 4) || strlen(e->d_name) != 8 + 1 + 36 || e->d_name[8] != '-' ||
		    strcmp(e->d_name + 9, EFI_GLOBAL_GUID))
			continue;
		/* Boot####: four upper-case hex digits (UEFI 2.10, 3.1.1) */
		for (i = 4; i < 8 && strchr("0123456789ABCDEF", e->d_name[i]) && e->d_name[i]; i++)
			v = v * 16 + (unsigned)(strchr("0123456789ABCDEF", e->d_name[i]) - "0123456789ABCDEF");
		if (i == 8)
			nums[n++] = (uint16_t)v;
	}
	closedir(d);
	qsort(nums, n, sizeof *nums, by_num);
	return n;
}
