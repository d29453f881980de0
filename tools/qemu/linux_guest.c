/* SPDX-License-Identifier: BSD-2-Clause */
/* The Linux guest's initramfs (linux.h): two static programs and an /init.
 *
 * /init mounts proc, sysfs and devtmpfs, runs `tickprobe os` with its log
 * in the rootfs (so the serial port is idle while it measures), then sends
 * the log over ttyS1 followed by the run's exit status, the clocksource the
 * kernel is left with, `tickprobe doctor --json` on that log (each line
 * after GUEST_DOCTOR, so no reader takes it for a record), and an end line,
 * and powers off.  Its own messages,
 * tickprobe os's summary and the kernel's go to the console, ttyS0: the log
 * channel carries nothing else.
 *
 * The kernel ignores init= when an initramfs holds /init, so /init honours
 * it: with init=PROG on the command line it runs PROG (with the arguments
 * after "--") instead of tickprobe os.  A PROG that cannot run makes /init
 * exit, which the kernel answers with a panic, as it would for its own
 * init=; with panic=-1 the guest then resets and QEMU (-no-reboot) exits. */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "tools/commands.h"
#include "tools/qemu/image.h"
#include "tools/qemu/initramfs.h"
#include "tools/qemu/linux.h"
#include "tools/qemu/qemu.h"

#define CS_DIR "/sys/devices/system/clocksource/clocksource0"

/* An x86-64 ELF executable with no program interpreter: it runs in an
 * initramfs that holds no C library.  NULL, or why not. */
static const char *static_problem(const char *path, char *why, size_t cap)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	bool interp = false;

	if (!f) {
		snprintf(why, cap, "cannot read %s: %s", path, strerror(errno));
		return why;
	}
	if (fread(&eh, sizeof eh, 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_machine != EM_X86_64) {
		fclose(f);
		snprintf(why, cap, "%s is not an x86-64 ELF program", path);
		return why;
	}
	for (unsigned i = 0; i < eh.e_phnum && i < 256; i++) {
		Elf64_Phdr ph;
		if (fseek(f, (long)(eh.e_phoff + (Elf64_Off)i * eh.e_phentsize), SEEK_SET) != 0 ||
		    fread(&ph, sizeof ph, 1, f) != 1)
			break;
		interp |= ph.p_type == PT_INTERP;
	}
	fclose(f);
	if (interp) {
		snprintf(why, cap, "%s is dynamically linked: the guest has no C library", path);
		return why;
	}
	return NULL;
}

int guest_files_find(struct guest_files *g)
{
	static const char *const busyboxes[] = { "/bin/busybox", "/usr/bin/busybox" };
	char why[PATH_MAX + 100];
	const char *found = NULL;

	for (size_t i = 0; i < sizeof busyboxes / sizeof busyboxes[0] && !found; i++)
		if (qemu_readable(busyboxes[i]))
			found = busyboxes[i];
	if (!found) {
		fprintf(stderr, "tickprobe qemu: --linux needs a static busybox for the guest: install busybox-static\n");
		return QEMU_RC_MISSING;
	}
	snprintf(g->busybox, sizeof g->busybox, "%s", found);
	if (static_problem(g->busybox, why, sizeof why)) {
		fprintf(stderr, "tickprobe qemu: %s; install busybox-static (it replaces busybox)\n", why);
		return QEMU_RC_MISSING;
	}
	if (!qemu_locate("tickprobe-static", NULL, g->tickprobe, sizeof g->tickprobe)) {
		fprintf(stderr, "tickprobe qemu: --linux needs tickprobe-static beside this program (make "
				"build/tickprobe-static)\n");
		return QEMU_RC_MISSING;
	}
	if (static_problem(g->tickprobe, why, sizeof why)) {
		fprintf(stderr, "tickprobe qemu: %s (make build/tickprobe-static)\n", why);
		return QEMU_RC_MISSING;
	}
	return 0;
}

/* The options as one single-quoted shell word (' becomes '\''). */
static bool quoted(const char *s, char *out, size_t cap)
{
	size_t n = 0;

	if (cap < 3)
		return false;
	out[n++] = '\'';
	for (; *s; s++) {
		const char *piece = *s == '\'' ? "'\\''" : NULL;
		size_t len = piece ? 4 : 1;
		if (n + len + 2 > cap)
			return false;
		if (piece)
			memcpy(out + n, piece, len);
		else
			out[n] = *s;
		n += len;
	}
	out[n++] = '\'';
	out[n] = 0;
	return true;
}

/* The script.  `set -f`: the options are split into words, never globbed. */
static int init_script(char *buf, size_t cap, const char *os_options)
{
	char opts[1200];

	if (!quoted(os_options, opts, sizeof opts))
		return -1;
	return snprintf(buf, cap,
		"#!/bin/sh\n"
		"# The Linux guest of `tickprobe qemu --linux`: measure, send the log on ttyS1, power off.\n"
		"export PATH=/bin\n"
		"B=/bin/busybox\n"
		"CS=" CS_DIR "\n"
		"set -f\n"
		"say() { echo \"" GUEST_TAG "$*\"; }\n"
		"$B mount -t proc proc /proc\n"
		"$B mount -t sysfs sysfs /sys\n"
		"$B mount -t devtmpfs devtmpfs /dev\n"
		"INIT=\n"
		"for w in $($B cat /proc/cmdline); do case $w in init=*) INIT=${w#init=} ;; esac; done\n"
		"if [ -n \"$INIT\" ]; then say \"init=$INIT on the command line: running it instead\"; exec \"$INIT\" \"$@\"; fi\n"
		"$B stty -F /dev/ttyS1 raw -echo 115200 || say 'no ttyS1: the log cannot be sent'\n"
		"say \"up $($B cut -d' ' -f1 /proc/uptime) s; $($B nproc) CPUs; clocksources: $($B cat $CS/available_clocksource)"
		"; current: $($B cat $CS/current_clocksource)\"\n"
		"OPTS=%s\n"
		"say \"tickprobe os $OPTS\"\n"
		"/bin/tickprobe os $OPTS -o /tmp/os.log\n"
		"RC=$?\n"
		"AFTER=$($B cat $CS/current_clocksource)\n"
		"say \"tickprobe os exit $RC at $($B cut -d' ' -f1 /proc/uptime) s; current_clocksource: $AFTER\"\n"
		"/bin/tickprobe doctor --os-log /tmp/os.log\n"
		"/bin/tickprobe doctor --json --os-log /tmp/os.log >/tmp/doctor.json\n"
		"DRC=$?\n"
		"{\n"
		"  [ -f /tmp/os.log ] && $B cat /tmp/os.log\n"
		"  echo \"" GUEST_RC "$RC\"\n"
		"  echo \"" GUEST_CS_AFTER "$AFTER\"\n"
		"  $B sed 's/^/" GUEST_DOCTOR "/' /tmp/doctor.json\n"
		"  echo \"" GUEST_TAG "doctor exit $DRC\"\n"
		"  echo \"" GUEST_TAG "available_clocksource after the run: $($B cat $CS/available_clocksource)\"\n"
		"  echo \"" GUEST_END "\"\n"
		"} >/dev/ttyS1\n"
		"say \"log sent ($($B wc -c </tmp/os.log) bytes); powering off\"\n"
		"$B poweroff -f\n",
		opts);
}

int guest_initramfs(const char *path, const struct guest_files *g, const char *os_options)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys", "tmp" };
	/* Applets reachable by name, for init=PROG and a person's debugging. */
	static const char *const applets[] = { "sh", "sleep", "cat", "ls", "echo", "mount", "poweroff" };
	char script[4096];
	struct cpio c;
	FILE *f;
	int n = init_script(script, sizeof script, os_options);
	bool ok;

	if (n < 0 || (size_t)n >= sizeof script) {
		fprintf(stderr, "tickprobe qemu: --os-options is too long for the guest's /init\n");
		return EXIT_USAGE;
	}
	f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "tickprobe qemu: cannot write the initramfs %s: %s\n", path, strerror(errno));
		return QEMU_RC_MISSING;
	}
	cpio_start(&c, f);
	ok = true;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		ok = ok && cpio_dir(&c, dirs[i], strcmp(dirs[i], "tmp") ? 0755 : 01777);
	/* The kernel opens /dev/console for /init before devtmpfs is mounted. */
	ok = ok && cpio_chardev(&c, "dev/console", 0600, 5, 1);
	ok = ok && cpio_copy(&c, "bin/busybox", 0755, g->busybox);
	for (size_t i = 0; i < sizeof applets / sizeof applets[0]; i++) {
		char name[32];
		snprintf(name, sizeof name, "bin/%s", applets[i]);
		ok = ok && cpio_symlink(&c, name, "busybox");
	}
	ok = ok && cpio_copy(&c, "bin/tickprobe", 0755, g->tickprobe);
	ok = ok && cpio_file(&c, "init", 0755, script, (size_t)n);
	ok = ok && cpio_finish(&c);
	if (fclose(f) != 0 && ok) {
		snprintf(c.err, sizeof c.err, "writing %s: %s", path, strerror(errno));
		ok = false;
	}
	if (!ok) {
		fprintf(stderr, "tickprobe qemu: the initramfs: %s\n", c.err);
		return QEMU_RC_MISSING;
	}
	return 0;
}
