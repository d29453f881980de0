/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe collect` in the static build (build/tickprobe-static, for an
 * initramfs): libmicrohttpd's static library wants GnuTLS's, and Debian
 * ships no static libp11-kit or libunistring for those, so the collector is
 * left out of that link (the Makefile) and this stands in for it. */
#include <stdio.h>
#include "tools/commands.h"

int cmd_collect_absent(int argc, char **argv)
{
	(void)argc, (void)argv;
	fprintf(stderr, "tickprobe collect is not in this static build; use the installed tickprobe\n");
	return EXIT_UNREADABLE;
}
