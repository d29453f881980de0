/* SPDX-License-Identifier: BSD-2-Clause */
/* The newc cpio writer for the Linux guest's initramfs (initramfs.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tools/qemu/initramfs.h"

#define NEWC_MAGIC "070701"
#define NEWC_HEADER 110
#define MEMBER_MAX (256u << 20) /* a member above 256 MB is a mistake, not a guest file */

void cpio_start(struct cpio *c, FILE *f)
{
	memset(c, 0, sizeof *c);
	c->f = f;
	c->ino = 1;
}

__attribute__((format(printf, 2, 3)))
static bool failed(struct cpio *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->err[0]) {
		va_start(ap, fmt);
		vsnprintf(c->err, sizeof c->err, fmt, ap);
		va_end(ap);
	}
	return false;
}

static bool put(struct cpio *c, const void *p, size_t n)
{
	if (c->err[0])
		return false;
	if (n && fwrite(p, 1, n, c->f) != n)
		return failed(c, "writing the initramfs: %s", strerror(errno ? errno : EIO));
	c->bytes += n;
	return true;
}

static bool pad4(struct cpio *c)
{
	static const char zeros[4];
	return put(c, zeros, (size_t)((4 - c->bytes % 4) % 4));
}

/* Header, name, padding, data, padding. */
static bool member(struct cpio *c, const char *name, unsigned mode, unsigned rmajor, unsigned rminor,
		   const void *data, size_t n)
{
	char h[NEWC_HEADER + 64]; /* 110 used: each field is 8 hex digits */
	size_t namesize = strlen(name) + 1;
	unsigned ino = strcmp(name, "TRAILER!!!") ? c->ino++ : 0;

	if (c->err[0])
		return false;
	if (n > MEMBER_MAX || namesize > 4096)
		return failed(c, "%s: %zu bytes is more than an initramfs member may hold here", name, n);
	/* magic ino mode uid gid nlink mtime filesize devmajor devminor
	 * rdevmajor rdevminor namesize check */
	snprintf(h, sizeof h, "%s%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", NEWC_MAGIC, ino, mode,
		 0u, 0u, (mode & S_IFMT) == S_IFDIR ? 2u : 1u, 0u, (unsigned)n, 0u, 0u, rmajor, rminor, (unsigned)namesize, 0u);
	return put(c, h, NEWC_HEADER) && put(c, name, namesize) && pad4(c) && put(c, data, n) && pad4(c);
}

bool cpio_dir(struct cpio *c, const char *name, unsigned mode)
{
	return member(c, name, S_IFDIR | (mode & 07777), 0, 0, NULL, 0);
}

bool cpio_file(struct cpio *c, const char *name, unsigned mode, const void *data, size_t n)
{
	return member(c, name, S_IFREG | (mode & 07777), 0, 0, data, n);
}

bool cpio_symlink(struct cpio *c, const char *name, const char *target)
{
	/* A symlink's data is its target, without a NUL. */
	return member(c, name, S_IFLNK | 0777, 0, 0, target, strlen(target));
}

bool cpio_chardev(struct cpio *c, const char *name, unsigned mode, unsigned major, unsigned minor)
{
	return member(c, name, S_IFCHR | (mode & 07777), major, minor, NULL, 0);
}

bool cpio_copy(struct cpio *c, const char *name, unsigned mode, const char *host_path)
{
	FILE *in;
	struct stat st;
	char *buf;
	size_t got;
	bool ok;

	if (c->err[0])
		return false;
	in = fopen(host_path, "rb");
	if (!in)
		return failed(c, "cannot read %s: %s", host_path, strerror(errno));
	if (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)MEMBER_MAX) {
		fclose(in);
		return failed(c, "%s is not a regular file of at most 256 MB", host_path);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		fclose(in);
		return failed(c, "out of memory reading %s", host_path);
	}
	got = fread(buf, 1, (size_t)st.st_size, in);
	fclose(in);
	if (got != (size_t)st.st_size) {
		free(buf);
		return failed(c, "%s: read %zu of its %lld bytes", host_path, got, (long long)st.st_size);
	}
	ok = cpio_file(c, name, mode, buf, got);
	free(buf);
	return ok;
}

bool cpio_finish(struct cpio *c)
{
	if (!member(c, "TRAILER!!!", 0, 0, 0, NULL, 0))
		return false;
	if (fflush(c->f) != 0)
		return failed(c, "writing the initramfs: %s", strerror(errno));
	return true;
}
