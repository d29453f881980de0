/* SPDX-License-Identifier: BSD-2-Clause */
/* The guest kernel for `tickprobe qemu --linux` (linux.h): checked when
 * given, else Debian's linux-image-cloud-amd64 from the cache, else fetched.
 *
 * The fetch is what one does by hand: `apt-get download
 * linux-image-cloud-amd64` (a metapackage), its Depends field read with
 * `dpkg-deb -f` (the versioned linux-image-VERSION-cloud-amd64 package),
 * `apt-get download` of that package, `dpkg-deb -x` into a scratch directory
 * beside the cache, and only ./boot/vmlinuz-* and ./boot/config-* kept (the
 * modules are not needed: the cloud kernel has the 8250 UART, HPET, PM timer
 * and devtmpfs built in).  Nothing is installed and /boot is never written. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/qemu/image.h"
#include "tools/qemu/linux.h"
#include "tools/qemu/qemu.h"

#define META_PACKAGE "linux-image-cloud-amd64"
#define APT_TIMEOUT 600.0 /* a kernel package of tens of MB on a slow mirror */

const char *linux_kernel_problem(const char *path, char *why, size_t cap)
{
	uint8_t h[0x268];
	struct stat st;
	FILE *f;
	size_t got;
	uint32_t setup_sects, syssize;
	unsigned long long want;

	if (stat(path, &st) != 0) {
		snprintf(why, cap, "no kernel file %s: %s", path, strerror(errno));
		return why;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, cap, "%s is not a regular file", path);
		return why;
	}
	f = fopen(path, "rb");
	if (!f) {
		snprintf(why, cap, "cannot read the kernel %s: %s", path, strerror(errno));
		return why;
	}
	got = fread(h, 1, sizeof h, f);
	fclose(f);
	/* The x86 boot protocol (Documentation/arch/x86/boot.rst): boot_flag
	 * 0xAA55 at 0x1FE, header "HdrS" at 0x202. */
	if (got < sizeof h || h[0x1fe] != 0x55 || h[0x1ff] != 0xaa || memcmp(h + 0x202, "HdrS", 4)) {
		snprintf(why, cap, "%s is not a Linux kernel image: no x86 boot header (\"HdrS\" at 0x202, 0xAA55 at "
			 "0x1FE)%s", path, got < sizeof h ? "; the file is too short to hold one" : "");
		return why;
	}
	setup_sects = h[0x1f1] ? h[0x1f1] : 4; /* 0 means 4, for old kernels */
	syssize = (uint32_t)h[0x1f4] | (uint32_t)h[0x1f5] << 8 | (uint32_t)h[0x1f6] << 16 | (uint32_t)h[0x1f7] << 24;
	want = (unsigned long long)(setup_sects + 1) * 512 + (unsigned long long)syssize * 16;
	if ((unsigned long long)st.st_size < want) {
		snprintf(why, cap, "the kernel %s is cut short: its boot header says %llu bytes, the file has %lld", path,
			 want, (long long)st.st_size);
		return why;
	}
	return NULL;
}

int linux_run(char **argv, const char *cwd, const char *out_path, double timeout)
{
	int stopped, status = spawn_run(argv, timeout, cwd, out_path, &stopped);

	if (status < 0)
		return status;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Where a fetched kernel lives: $XDG_CACHE_HOME/tickprobe/linux, else
 * ~/.cache/tickprobe/linux. */
static bool user_cache(char *dir, size_t cap)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg == '/')
		snprintf(dir, cap, "%s/tickprobe/linux", xdg);
	else if (home && *home)
		snprintf(dir, cap, "%s/.cache/tickprobe/linux", home);
	else
		return false;
	return true;
}

/* The newest vmlinuz-* in dir (by version order), or false. */
static bool newest_vmlinuz(const char *dir, char *path, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char best[256] = "";

	if (!d)
		return false;
	/* cppcheck-suppress readdirCalled ; one thread reads this directory */
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "vmlinuz-", 8) && strlen(e->d_name) < sizeof best &&
		    (!best[0] || strverscmp(e->d_name, best) > 0))
			snprintf(best, sizeof best, "%s", e->d_name);
	closedir(d);
	if (!best[0])
		return false;
	snprintf(path, cap, "%s/%s", dir, best);
	return true;
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(p);
	return 0;
}

static void rm_tree(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The first file in dir whose name starts with prefix and ends with suffix. */
static bool find_file(const char *dir, const char *prefix, const char *suffix, char *path, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t pl = strlen(prefix), sl = strlen(suffix);
	bool found = false;

	if (!d)
		return false;
	/* cppcheck-suppress readdirCalled ; one thread reads this directory */
	while (!found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n >= pl + sl && !strncmp(e->d_name, prefix, pl) && !strcmp(e->d_name + n - sl, suffix)) {
			snprintf(path, cap, "%s/%s", dir, e->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* The last lines of a command's output, indented, for a failure message. */
static void show_tail(const char *path)
{
	char lines[6][256], buf[256];
	int n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\r\n")] = 0;
		if (!buf[0] || !strncmp(buf, "W: Download is performed unsandboxed", 36))
			continue;
		snprintf(lines[n % 6], sizeof lines[0], "%s", buf);
		n++;
	}
	fclose(f);
	for (int i = n > 6 ? n - 6 : 0; i < n; i++)
		fprintf(stderr, "    %s\n", lines[i % 6]);
}

/* "linux-image-6.1.0-57-cloud-amd64 (= 6.1.192-3), foo" -> the first
 * package and its exact version ("" when none is pinned). */
static bool parse_depends(const char *text, char *pkg, size_t pcap, char *ver, size_t vcap)
{
	const char *p = text, *q;

	while (*p == ' ' || *p == '\t')
		p++;
	q = p + strcspn(p, " \t(,|\n");
	if (q == p || (size_t)(q - p) >= pcap)
		return false;
	snprintf(pkg, pcap, "%.*s", (int)(q - p), p);
	ver[0] = 0;
	p = q + strspn(q, " \t");
	if (!strncmp(p, "(=", 2)) {
		p += 2 + strspn(p + 2, " \t");
		q = p + strcspn(p, " \t)");
		if ((size_t)(q - p) < vcap)
			snprintf(ver, vcap, "%.*s", (int)(q - p), p);
	}
	return true;
}

static void say_by_hand(const char *cache)
{
	fprintf(stderr,
		"tickprobe qemu: to get the kernel by hand: `apt-get update` (as root) and run this again; or, where\n"
		"  apt can download, `apt-get download " META_PACKAGE "`, read the package it depends on with\n"
		"  `dpkg-deb -f " META_PACKAGE "_*.deb Depends`, `apt-get download` that one, unpack it with\n"
		"  `dpkg-deb -x linux-image-*.deb DIR` and either copy DIR/boot/vmlinuz-* into %s or run\n"
		"  `tickprobe qemu --linux DIR/boot/vmlinuz-*`.  Any x86-64 bzImage with the 8250 UART, devtmpfs\n"
		"  and an initramfs built in will do.\n", cache);
}

/* apt-get download, dpkg-deb -f and -x, in a scratch directory beside the
 * cache; the kernel and its config are then renamed into the cache, so a
 * run that stops half-way leaves no half kernel behind.  0 or 2. */
static int fetch(const char *cache, char *path, size_t cap)
{
	char scratch[PATH_MAX], out[PATH_MAX + 16], deb[PATH_MAX], dep[512], pkg[256], ver[128], want[400];
	char unpacked[PATH_MAX + 16], boot[PATH_MAX + 32], file[PATH_MAX], dest[PATH_MAX + 300];
	char *dl_meta[] = { "apt-get", "download", "-q", META_PACKAGE, NULL };
	char *dl_pkg[] = { "apt-get", "download", "-q", want, NULL };
	char *fields[] = { "dpkg-deb", "-f", deb, "Depends", NULL };
	char *unpack[] = { "dpkg-deb", "-x", deb, unpacked, NULL };
	char mk[PATH_MAX + 16];
	char *mkdir_p[] = { "mkdir", "-p", mk, NULL };
	FILE *f;
	int rc;

	snprintf(mk, sizeof mk, "%s", cache);
	if (linux_run(mkdir_p, NULL, NULL, 30) != 0) {
		fprintf(stderr, "tickprobe qemu: cannot make the kernel cache %s\n", cache);
		return QEMU_RC_MISSING;
	}
	snprintf(scratch, sizeof scratch, "%s/.fetch-XXXXXX", cache);
	if (!mkdtemp(scratch)) {
		fprintf(stderr, "tickprobe qemu: cannot make a scratch directory in %s: %s\n", cache, strerror(errno));
		return QEMU_RC_MISSING;
	}
	snprintf(out, sizeof out, "%s/apt.out", scratch);
	fprintf(stderr, "tickprobe qemu: fetching Debian's " META_PACKAGE " with `apt-get download` into %s "
			"(unpacked there with dpkg-deb -x; nothing is installed, /boot is not touched)\n", cache);
	rc = linux_run(dl_meta, scratch, out, APT_TIMEOUT);
	if (rc != 0 || !find_file(scratch, META_PACKAGE "_", ".deb", deb, sizeof deb)) {
		fprintf(stderr, "tickprobe qemu: `apt-get download " META_PACKAGE "` failed (%s):\n",
			rc == -2 ? "apt-get is not installed" : rc < 0 ? "killed or timed out" : "see its output below");
		show_tail(out);
		goto fail;
	}
	snprintf(out, sizeof out, "%s/depends.out", scratch);
	dep[0] = 0;
	if (linux_run(fields, NULL, out, 60) == 0 && (f = fopen(out, "r"))) {
		if (!fgets(dep, sizeof dep, f))
			dep[0] = 0;
		fclose(f);
	}
	if (!parse_depends(dep, pkg, sizeof pkg, ver, sizeof ver) || strncmp(pkg, "linux-image-", 12)) {
		fprintf(stderr, "tickprobe qemu: %s depends on '%s', not on a linux-image package\n", deb,
			strtok(dep, "\n") ? dep : "");
		goto fail;
	}
	snprintf(want, sizeof want, "%s%s%s", pkg, ver[0] ? "=" : "", ver);
	fprintf(stderr, "tickprobe qemu: " META_PACKAGE " depends on %s; downloading it (about 27 MB)\n", want);
	snprintf(out, sizeof out, "%s/apt.out", scratch);
	rc = linux_run(dl_pkg, scratch, out, APT_TIMEOUT);
	snprintf(file, sizeof file, "%s_", pkg);
	if (rc != 0 || !find_file(scratch, file, ".deb", deb, sizeof deb)) {
		fprintf(stderr, "tickprobe qemu: `apt-get download %s` failed (%s):\n", want,
			rc < 0 ? "killed or timed out" : "see its output below");
		show_tail(out);
		goto fail;
	}
	snprintf(unpacked, sizeof unpacked, "%s/root", scratch);
	snprintf(out, sizeof out, "%s/dpkg.out", scratch);
	if (linux_run(unpack, NULL, out, APT_TIMEOUT) != 0) {
		fprintf(stderr, "tickprobe qemu: `dpkg-deb -x %s` failed:\n", deb);
		show_tail(out);
		goto fail;
	}
	snprintf(boot, sizeof boot, "%s/boot", unpacked);
	if (find_file(boot, "config-", "", file, sizeof file)) {
		snprintf(dest, sizeof dest, "%s/%s", cache, strrchr(file, '/') + 1);
		rename(file, dest);
	}
	if (!find_file(boot, "vmlinuz-", "", file, sizeof file)) {
		fprintf(stderr, "tickprobe qemu: %s holds no boot/vmlinuz-*\n", deb);
		goto fail;
	}
	snprintf(dest, sizeof dest, "%s/%s", cache, strrchr(file, '/') + 1);
	if (rename(file, dest) != 0) {
		fprintf(stderr, "tickprobe qemu: cannot move the kernel into %s: %s\n", cache, strerror(errno));
		goto fail;
	}
	rm_tree(scratch);
	snprintf(path, cap, "%s", dest);
	fprintf(stderr, "tickprobe qemu: kernel %s (from %s %s)\n", path, pkg, ver);
	return 0;
fail:
	rm_tree(scratch);
	say_by_hand(cache);
	return QEMU_RC_MISSING;
}

int linux_kernel_find(const char *given, char *path, size_t cap)
{
	char cache[PATH_MAX - 64], beside[PATH_MAX], why[PATH_MAX + 200];
	bool have_cache = user_cache(cache, sizeof cache);

	if (given) {
		if (linux_kernel_problem(given, why, sizeof why)) {
			fprintf(stderr, "tickprobe qemu: --linux: %s\n", why);
			return QEMU_RC_MISSING;
		}
		snprintf(path, cap, "%s", given);
		return 0;
	}
	/* A kernel unpacked by hand into build/linux (beside this program) is
	 * looked at too; a fetch goes into the user's cache. */
	if ((have_cache && newest_vmlinuz(cache, path, cap)) ||
	    (qemu_locate("linux", NULL, beside, sizeof beside) && newest_vmlinuz(beside, path, cap))) {
		if (linux_kernel_problem(path, why, sizeof why)) {
			fprintf(stderr, "tickprobe qemu: the cached kernel is unusable: %s; remove it to fetch it again\n",
				why);
			return QEMU_RC_MISSING;
		}
		return 0;
	}
	if (!have_cache) {
		fprintf(stderr, "tickprobe qemu: no kernel given, and neither $XDG_CACHE_HOME nor $HOME is set for a "
				"kernel cache: give one with --linux=PATH\n");
		return QEMU_RC_MISSING;
	}
	fprintf(stderr, "tickprobe qemu: no kernel given and none in %s\n", cache);
	if (fetch(cache, path, cap) != 0)
		return QEMU_RC_MISSING;
	if (linux_kernel_problem(path, why, sizeof why)) {
		fprintf(stderr, "tickprobe qemu: the kernel fetched is unusable: %s\n", why);
		return QEMU_RC_MISSING;
	}
	return 0;
}
