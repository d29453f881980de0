/* SPDX-License-Identifier: BSD-2-Clause */
/* An initramfs for `tickprobe qemu --linux`: a cpio archive in the "newc"
 * format (the kernel's Documentation/driver-api/early-userspace/
 * buffer-format.rst), uncompressed, which the kernel unpacks into its
 * rootfs before running /init.
 *
 * Each member is a 110-byte ASCII header ("070701" and 13 eight-digit hex
 * fields), the NUL-terminated name, padding to 4 bytes, the data, padding
 * to 4 bytes; "TRAILER!!!" ends the archive.  Members are written in the
 * order given, so a directory must come before what it holds.  Owner and
 * group are 0 (root) and the time is 0, whoever builds it: the same inputs
 * give the same bytes. */
#ifndef TOOLS_QEMU_INITRAMFS_H
#define TOOLS_QEMU_INITRAMFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cpio {
	FILE *f;
	uint32_t ino;      /* the next inode number */
	uint64_t bytes;    /* written so far */
	char err[512];     /* the first failure, "" while none */
};

/* Starts an archive on f (which stays the caller's to close). */
void cpio_start(struct cpio *c, FILE *f);

/* One member each.  name has no leading "/" ("bin/busybox").  Each returns
 * false after the first failure (c->err says what). */
bool cpio_dir(struct cpio *c, const char *name, unsigned mode);
bool cpio_file(struct cpio *c, const char *name, unsigned mode, const void *data, size_t n);
bool cpio_symlink(struct cpio *c, const char *name, const char *target);
bool cpio_chardev(struct cpio *c, const char *name, unsigned mode, unsigned major, unsigned minor);

/* A host file's bytes as a member (the whole file read first). */
bool cpio_copy(struct cpio *c, const char *name, unsigned mode, const char *host_path);

/* The trailer; true when the whole archive was written. */
bool cpio_finish(struct cpio *c);

#endif
