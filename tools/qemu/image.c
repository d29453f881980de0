/* Finding the boot files and rewriting the image's environment blocks for
 * `tickprobe qemu` (tools/qemu/cmd_qemu.c).  The image boots through its menus, as
 * on a machine; to choose a preset without a keyboard the run boots a copy
 * whose tickprobe.env blocks are rewritten in place. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
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

/* First readable of: beside the program, ../share/tickprobe, build/ (cwd). */
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
	snprintf(buf, cap, "%s", source_rel ? source_rel : name);
	if (!source_rel)
		snprintf(buf, cap, "build/%s", name);
	return readable_path(buf) ? buf : NULL;
}

/* presets.cfg: "NAME: OPTIONS" lines.  Writes the options of name into out;
 * returns false when the preset is not there (names listed on stderr). */
bool qemu_preset_options(const char *cfg, const char *name, char *out, size_t cap)
{
	FILE *f = fopen(cfg, "r");
	char line[512], names[512] = "";
	size_t used;
	bool found = false;

	if (!f)
		return false;
	while (fgets(line, sizeof line, f)) {
		char *s = line, *colon, *e;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#' || !(colon = strchr(s, ':')))
			continue;
		*colon = 0;
		for (e = colon; e > s && (e[-1] == ' ' || e[-1] == '\t'); e--)
			e[-1] = 0;
		if (!strcmp(s, "timeout"))
			continue;
		used = strlen(names);
		if (used + strlen(s) + 2 < sizeof names)
			snprintf(names + used, sizeof names - used, " %s", s);
		if (!found && !strcmp(s, name)) {
			char *v = colon + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			v[strcspn(v, "\r\n")] = 0;
			snprintf(out, cap, "%s", v);
			found = true;
		}
	}
	fclose(f);
	if (!found)
		fprintf(stderr, "tickprobe qemu: no preset '%s' in %s; there are:%s\n", name, cfg, names);
	return found;
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
