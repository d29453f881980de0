/* SPDX-License-Identifier: BSD-2-Clause */
/* The Linux guest's initramfs writer (tools/qemu/initramfs.h), read back
 * by a parser of its own that follows the kernel's newc rules
 * (Documentation/driver-api/early-userspace/buffer-format.rst), and the
 * kernel image check (tools/qemu/linux.h) on made-up boot headers. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/unit/check.h"
#include "tools/qemu/initramfs.h"
#include "tools/qemu/linux.h"

struct member {
	char name[64];
	unsigned ino, mode, nlink, rmajor, rminor;
	size_t size;
	const unsigned char *data;
};

static unsigned hex8(const char *p, int *bad)
{
	unsigned v = 0;
	for (int i = 0; i < 8; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			*bad = 1;
	}
	return v;
}

/* Members up to the trailer; -1 on any breach of the format. */
static int parse(const unsigned char *buf, size_t n, struct member *m, int max)
{
	size_t off = 0;
	int k = 0;

	while (k < max) {
		const char *h = (const char *)buf + off;
		int bad = 0;
		unsigned f[13];
		if (off % 4 || off + 110 > n || memcmp(h, "070701", 6))
			return -1;
		for (int i = 0; i < 13; i++)
			f[i] = hex8(h + 6 + 8 * i, &bad);
		if (bad || f[11] == 0 || f[11] > sizeof m[k].name || off + 110 + f[11] > n || h[110 + f[11] - 1])
			return -1;
		memcpy(m[k].name, h + 110, f[11]);
		m[k].ino = f[0];
		m[k].mode = f[1];
		m[k].nlink = f[4];
		m[k].size = f[6];
		m[k].rmajor = f[9];
		m[k].rminor = f[10];
		off += 110 + f[11];
		off = (off + 3) & ~(size_t)3;
		if (off + m[k].size > n)
			return -1;
		m[k].data = buf + off;
		off += m[k].size;
		off = (off + 3) & ~(size_t)3;
		if (!strcmp(m[k].name, "TRAILER!!!"))
			return off == n ? k + 1 : -1;
		k++;
	}
	return -1;
}

static void test_archive(void)
{
	char *mem = NULL, host[] = "/tmp/tickprobe-test-initramfs-XXXXXX";
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);
	struct cpio c;
	struct member m[16];
	int fd = mkstemp(host), n;
	static const char script[] = "#!/bin/sh\necho hi\n"; /* 19 bytes: padding needed */
	bool ok;

	if (fd >= 0) {
		ssize_t w = write(fd, "0123456789", 10);
		close(fd);
		check(w == 10, "setup: a host file of 10 bytes");
	}
	cpio_start(&c, f);
	ok = cpio_dir(&c, "bin", 0755) && cpio_chardev(&c, "dev/console", 0600, 5, 1) &&
	     cpio_symlink(&c, "bin/sh", "busybox") && cpio_file(&c, "init", 0755, script, sizeof script - 1) &&
	     cpio_copy(&c, "bin/data", 0644, host) && cpio_finish(&c);
	fclose(f);
	check(COND(ok) && COND(!c.err[0]), "archive: every member written ('%s')", c.err);
	check(COND(len % 4 == 0) && COND(c.bytes == len), "archive: %zu bytes, a multiple of 4, as counted (%llu)", len,
	      (unsigned long long)c.bytes);
	n = parse((const unsigned char *)mem, len, m, 16);
	check(n == 6, "archive: parses as newc up to the trailer, which ends it exactly (%d members)", n);
	if (n == 6) {
		check(COND(!strcmp(m[0].name, "bin")) && COND(m[0].mode == (S_IFDIR | 0755)) && COND(m[0].nlink == 2) &&
			      COND(m[0].size == 0),
		      "archive: a directory, mode 040755, 2 links (0%o)", m[0].mode);
		check(COND(m[1].mode == (S_IFCHR | 0600)) && COND(m[1].rmajor == 5) && COND(m[1].rminor == 1),
		      "archive: /dev/console is char 5,1 (%u,%u)", m[1].rmajor, m[1].rminor);
		check(COND(m[2].mode == (S_IFLNK | 0777)) && COND(m[2].size == 7) &&
			      COND(!memcmp(m[2].data, "busybox", 7)),
		      "archive: a symlink's data is its target, no NUL");
		check(COND(m[3].mode == (S_IFREG | 0755)) && COND(m[3].size == sizeof script - 1) &&
			      COND(!memcmp(m[3].data, script, m[3].size)),
		      "archive: /init's bytes, 19 of them, then padding");
		check(COND(m[4].size == 10) && COND(!memcmp(m[4].data, "0123456789", 10)),
		      "archive: a host file copied whole");
		check(COND(m[0].ino == 1) && COND(m[4].ino == 5) && COND(m[5].ino == 0) && COND(m[5].size == 0),
		      "archive: inodes 1.. in order, the trailer 0");
	}
	/* Same inputs, same bytes: nothing of the building host gets in. */
	{
		char *mem2 = NULL;
		size_t len2 = 0;
		FILE *f2 = open_memstream(&mem2, &len2);
		cpio_start(&c, f2);
		cpio_dir(&c, "bin", 0755);
		cpio_chardev(&c, "dev/console", 0600, 5, 1);
		cpio_symlink(&c, "bin/sh", "busybox");
		cpio_file(&c, "init", 0755, script, sizeof script - 1);
		cpio_copy(&c, "bin/data", 0644, host);
		cpio_finish(&c);
		fclose(f2);
		check(COND(len2 == len) && COND(!memcmp(mem, mem2, len)), "archive: two builds give the same bytes");
		free(mem2);
	}
	free(mem);

	/* A file that cannot be read stops the archive, and says which. */
	f = open_memstream(&mem, &len);
	cpio_start(&c, f);
	ok = cpio_copy(&c, "bin/x", 0755, "/nonexistent-tickprobe-file") || cpio_finish(&c);
	fclose(f);
	check(COND(!ok) && COND(strstr(c.err, "/nonexistent-tickprobe-file")),
	      "archive: a missing host file is named ('%s')", c.err);
	free(mem);
	unlink(host);
}

/* A made-up bzImage: boot flag, "HdrS", setup_sects and syssize. */
static void kernel_file(const char *path, size_t size, bool header, unsigned setup_sects, uint32_t syssize)
{
	unsigned char *b = calloc(1, size ? size : 1);
	FILE *f = fopen(path, "wb");

	if (!b || !f) {
		free(b);
		if (f)
			fclose(f);
		return;
	}
	if (header && size >= 0x268) {
		b[0x1f1] = (unsigned char)setup_sects;
		memcpy(b + 0x1f4, &syssize, 4);
		b[0x1fe] = 0x55;
		b[0x1ff] = 0xaa;
		memcpy(b + 0x202, "HdrS", 4);
	}
	fwrite(b, 1, size, f);
	fclose(f);
	free(b);
}

static void test_kernel_check(void)
{
	char path[] = "/tmp/tickprobe-test-kernel-XXXXXX", why[600];
	int fd = mkstemp(path);
	const char *p;

	if (fd < 0) {
		check(0, "mkstemp");
		return;
	}
	close(fd);
	/* 27 setup sectors + 1 boot sector, then 0x1000 paragraphs: 14336 + 65536 bytes */
	kernel_file(path, 14336 + 65536, true, 27, 0x1000);
	p = linux_kernel_problem(path, why, sizeof why);
	check(!p, "kernel: a whole image with its boot header passes ('%s')", p ? p : "");
	kernel_file(path, 14336 + 65535, true, 27, 0x1000);
	p = linux_kernel_problem(path, why, sizeof why);
	check(COND(p) && COND(strstr(p, "cut short")) && COND(strstr(p, "79872")) && COND(strstr(p, "79871")),
	      "kernel: one byte short is cut short, with both sizes ('%s')", p ? p : "");
	kernel_file(path, 1 << 20, false, 0, 0);
	p = linux_kernel_problem(path, why, sizeof why);
	check(COND(p) && COND(strstr(p, "not a Linux kernel image")), "kernel: no boot header ('%s')", p ? p : "");
	kernel_file(path, 100, false, 0, 0);
	p = linux_kernel_problem(path, why, sizeof why);
	check(COND(p) && COND(strstr(p, "too short")), "kernel: 100 bytes are too short to hold a header ('%s')",
	      p ? p : "");
	unlink(path);
	p = linux_kernel_problem(path, why, sizeof why);
	check(COND(p) && COND(strstr(p, "no kernel file")), "kernel: a missing file is said so ('%s')", p ? p : "");
	p = linux_kernel_problem("/tmp", why, sizeof why);
	check(COND(p) && COND(strstr(p, "not a regular file")), "kernel: a directory is refused ('%s')", p ? p : "");
}

int main(void)
{
	test_archive();
	test_kernel_check();
	return check_done();
}
