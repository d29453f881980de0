/* SPDX-License-Identifier: BSD-2-Clause */
/* The parts of `tickprobe qemu --linux` (linux.c runs them in order):
 *
 *   linux_kernel.c  the kernel: a given file, checked; or Debian's
 *                   linux-image-cloud-amd64 from the cache; or fetched with
 *                   `apt-get download` and unpacked there with `dpkg-deb -x`
 *                   (never installed: the host's /boot is not touched)
 *   linux_guest.c   the initramfs: busybox-static, tickprobe-static, and the
 *                   /init that runs `tickprobe os` and sends its log back
 *                   over the second serial port (ttyS1)
 *   linux.c         the guest's QEMU run and what its console says, the
 *                   probe's run on the same machine, and the comparison */
#ifndef TOOLS_QEMU_LINUX_H
#define TOOLS_QEMU_LINUX_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The lines /init sends on ttyS1 around the log, so the host knows how the
 * guest's run ended without reading its console. */
#define GUEST_TAG "tickprobe-guest: "
#define GUEST_END GUEST_TAG "end"
#define GUEST_RC GUEST_TAG "tickprobe os exit "
#define GUEST_CS_AFTER GUEST_TAG "current_clocksource after the run: "
#define GUEST_DOCTOR GUEST_TAG "doctor: " /* `tickprobe doctor --json`'s lines */

/* --- linux_kernel.c ------------------------------------------------------- */

/* Whether path is a Linux x86 boot image (bzImage): the setup header's
 * boot flag 0xAA55 at 0x1FE and "HdrS" at 0x202, and at least as many
 * bytes as the header's setup sectors and syssize say.  NULL when it is,
 * else why not (in why). */
const char *linux_kernel_problem(const char *path, char *why, size_t cap);

/* The kernel to boot: given (checked), or the newest vmlinuz-* in a cache
 * directory, or fetched into the cache.  Fills path; returns 0, or 2 after
 * saying what went wrong and what to run instead. */
int linux_kernel_find(const char *given, char *path, size_t cap);

/* Runs argv in cwd (NULL: ours), its stdout and stderr to out_path (NULL:
 * ours), for at most timeout seconds.  Returns its exit status, -1 when it
 * was killed or died of a signal, -2 when it could not start. */
int linux_run(char **argv, const char *cwd, const char *out_path, double timeout);

/* --- linux_guest.c -------------------------------------------------------- */

struct guest_files {
	char busybox[PATH_MAX];  /* a static busybox (Debian's busybox-static) */
	char tickprobe[PATH_MAX];/* tickprobe-static, beside this program */
};

/* Finds both and checks that they are static executables; 0, or 2 after
 * saying which is missing and which package or make target gives it. */
int guest_files_find(struct guest_files *g);

/* Writes the initramfs to path.  os_options: the guest's `tickprobe os`
 * options.  0, or 2 after saying why. */
int guest_initramfs(const char *path, const struct guest_files *g, const char *os_options);

#endif
