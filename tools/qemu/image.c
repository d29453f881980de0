/* SPDX-License-Identifier: BSD-2-Clause */
/* Finding the boot files and rewriting the image's environment blocks for
 * `tickprobe qemu` (tools/qemu/cmd_qemu.c).  The image boots through its menus, as
 * on a machine; to choose a preset without a keyboard the run boots a copy
 * whose tickprobe.env blocks are rewritten in place. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "probe/options.h"
#include "probe/presets.h"
#include "tools/qemu/image.h"

#define ENV_SIG "# GRUB Environment Block\n"

bool qemu_readable(const char *p) { return p && access(p, R_OK) == 0; }

/* qemu_readable() for a path known to be there: its NULL test, seen through,
 * would make GCC think buf may be NULL in the snprintf calls below. */
static bool readable_path(const char *p) { return access(p, R_OK) == 0; }

/* Directory of this program, for finding the image next to it. */
static void exe_dir(char *buf, size_t cap)
{
	ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
	char *slash;
	if (n <= 0) {
		snprintf(buf, cap, ".");
		return;
	}
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (slash)
		*slash = 0;
}

/* First readable of: beside the program, ../share/tickprobe, ../lib/tickprobe
 * (the static build an installed system keeps for --linux), build/ (cwd). */
const char *qemu_locate(const char *name, const char *source_rel, char *buf, size_t cap)
{
	char dir[PATH_MAX - 64];
	exe_dir(dir, sizeof dir);
	snprintf(buf, cap, "%s/%s", dir, name);
	if (readable_path(buf))
		return buf;
	if (source_rel) {
		snprintf(buf, cap, "%s/../%s", dir, source_rel);
		if (readable_path(buf))
			return buf;
	}
	snprintf(buf, cap, "%s/../share/tickprobe/%s", dir, name);
	if (readable_path(buf))
		return buf;
	snprintf(buf, cap, "%s/../lib/tickprobe/%s", dir, name);
	if (readable_path(buf))
		return buf;
	snprintf(buf, cap, "%s", source_rel ? source_rel : name);
	if (!source_rel)
		snprintf(buf, cap, "build/%s", name);
	return readable_path(buf) ? buf : NULL;
}

/* presets.cfg through the probe's parser: every problem is shown, and the
 * good lines are used. */
bool qemu_preset_options(const char *cfg, const char *name, char *out, size_t cap)
{
	static struct presets p;
	static char text[PRESETS_FILE_MAX + 1];
	FILE *f = fopen(cfg, "rb");
	size_t n;
	int i;

	if (!f) {
		fprintf(stderr, "tickprobe qemu: %s: %s\n", cfg, strerror(errno));
		return false;
	}
	n = fread(text, 1, sizeof text, f);
	fclose(f);
	if (n > PRESETS_FILE_MAX) {
		fprintf(stderr, "tickprobe qemu: %s: larger than the %d bytes the UEFI menu reads\n", cfg,
			PRESETS_FILE_MAX);
		return false;
	}
	presets_init(&p);
	presets_parse(&p, text, n);
	for (i = 0; i < p.n_problems; i++) {
		if (p.problems[i].line)
			fprintf(stderr, "tickprobe qemu: %s:%d: %s\n", cfg, p.problems[i].line, p.problems[i].text);
		else
			fprintf(stderr, "tickprobe qemu: %s: %s\n", cfg, p.problems[i].text);
	}
	if (p.problems_beyond)
		fprintf(stderr, "tickprobe qemu: %s: %d more problems\n", cfg, p.problems_beyond);
	if ((i = presets_find(&p, name)) < 0) {
		fprintf(stderr, "tickprobe qemu: no preset '%s' in %s; there are:", name, cfg);
		for (i = 0; i < p.count; i++)
			fprintf(stderr, " %s", p.preset[i].name);
		fprintf(stderr, "\n");
		return false;
	}
	if (!options_menu_cmdline(&p.preset[i], NULL, out, cap)) {
		fprintf(stderr, "tickprobe qemu: %s: preset '%s' does not fit a command line\n", cfg, name);
		return false;
	}
	return true;
}

/* One GRUB environment block: signature, name=value lines ('\' escapes
 * '\' and newlines), '#' up to 512 bytes.  False if it would not fit. */
bool qemu_env_block(char *blk, const char *preset, int timeout, const char *options)
{
	char body[QEMU_ENV_SIZE * 2];
	size_t n = 0;
	const char *p;

	n += (size_t)snprintf(body, sizeof body, "%stp_preset=%s\ntp_timeout=%d\ntp_options=", ENV_SIG, preset, timeout);
	for (p = options; *p && n + 4 < sizeof body; p++) {
		if (*p == '\\' || *p == '\n')
			body[n++] = '\\';
		body[n++] = *p;
	}
	body[n++] = '\n';
	if (n > QEMU_ENV_SIZE)
		return false;
	memset(blk, '#', QEMU_ENV_SIZE);
	memcpy(blk, body, n);
	return true;
}

/* Copies the image to tmp, rewriting every tickprobe.env block on the way.
 * Returns how many it rewrote, or -1 on an I/O error. */
int qemu_patch_copy(const char *image, int out_fd, const char *blk)
{
	int in = open(image, O_RDONLY), patched = 0;
	static char buf[1 << 20];
	ssize_t n;

	if (in < 0)
		return -1;
	/* Both copies start a 512-byte sector (ISO blocks are 2048, FAT
	 * clusters at least 512), and the buffer size is a multiple of 512. */
	while ((n = read(in, buf, sizeof buf)) > 0) {
		ssize_t off;
		for (off = 0; off + QEMU_ENV_SIZE <= n; off += QEMU_ENV_SIZE) {
			char *b = buf + off;
			if (!memcmp(b, ENV_SIG "tp_preset=", sizeof ENV_SIG - 1 + 10) && b[QEMU_ENV_SIZE - 1] == '#') {
				memcpy(b, blk, QEMU_ENV_SIZE);
				patched++;
			}
		}
		if (write(out_fd, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	}
	close(in);
	return n < 0 ? -1 : patched;
}
