/* SPDX-License-Identifier: BSD-2-Clause */
/* The collector of `tickprobe collect` (tools/collect/), a program of its
 * own so that only it loads libmicrohttpd: tools/collect/exec.c says why
 * and how the command finds it.  Its argv is the command's: argv[0] is
 * "collect". */
#include "tools/commands.h"

int main(int argc, char **argv)
{
	return cmd_collect(argc, argv);
}
