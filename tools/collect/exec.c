/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe collect` runs the collector, a program of its own
 * (tools/tickprobe-collect.c): libmicrohttpd brings GnuTLS, p11-kit and
 * seven more libraries, whose loading and start-up took about 5 of the
 * 9.6 ms every `tickprobe` command spent starting (perf stat, 50 runs:
 * `tickprobe --version` took 9.6 ms with it linked, 4.4 ms without).  The
 * command finds it beside itself (the build tree: build/tickprobe-collect)
 * or where `make install` puts it (PREFIX/lib/tickprobe/).  The static
 * build for the Linux initramfs has none: libmicrohttpd's static library
 * wants GnuTLS's, and Debian ships no static libp11-kit or libunistring. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tools/commands.h"

#define COLLECTOR "tickprobe-collect"

/* PATH: DIR/tickprobe-collect, or DIR/../lib/tickprobe/tickprobe-collect,
 * DIR being this program's own; false when neither is there. */
static bool find_collector(char *path, size_t cap)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	char *slash;

	if (n <= 0)
		return false;
	self[n] = 0;
	if (!(slash = strrchr(self, '/')))
		return false;
	*slash = 0;
	if ((size_t)snprintf(path, cap, "%s/%s", self, COLLECTOR) < cap && access(path, X_OK) == 0)
		return true;
	return (size_t)snprintf(path, cap, "%s/../lib/tickprobe/%s", self, COLLECTOR) < cap && access(path, X_OK) == 0;
}

int cmd_collect_exec(int argc, char **argv)
{
	char path[PATH_MAX + 32];

	(void)argc;
	if (!find_collector(path, sizeof path)) {
		fprintf(stderr, "tickprobe collect: no %s beside this tickprobe or in ../lib/tickprobe/ "
				"(the static build has none; use the installed tickprobe)\n", COLLECTOR);
		return EXIT_UNREADABLE;
	}
	execv(path, argv); /* argv[0] is "collect", as a command's is */
	fprintf(stderr, "tickprobe collect: cannot run %s: %s\n", path, strerror(errno));
	return EXIT_UNREADABLE;
}
