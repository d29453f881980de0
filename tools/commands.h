/* SPDX-License-Identifier: BSD-2-Clause */
/* The subcommands of the host `tickprobe` command, one file each (tools/PART/cmd_NAME.c).
 * Each takes the arguments after its name (argv[0] is the subcommand name),
 * reads them with tools/lib/args.h, and returns the process exit status:
 *   0 clean, 1 usage error, 2 input could not be read, 3 input damaged but partly used.
 * `tickprobe qemu` returns the probe's status instead (see cmd_qemu.c).
 * A new subcommand is a cmd_NAME.c with its struct args_spec (the example in
 * tools/lib/args.h), a declaration here and a line in tools/tickprobe.c. */
#ifndef TOOLS_COMMANDS_H
#define TOOLS_COMMANDS_H

#include "tools/lib/exit_codes.h"

int cmd_qemu(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_acpi(int argc, char **argv);
int cmd_os(int argc, char **argv);
int cmd_db(int argc, char **argv);
int cmd_logs(int argc, char **argv);
int cmd_schedule(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_collect(int argc, char **argv);
/* `tickprobe collect`: runs the collector program, tickprobe-collect, which
 * calls cmd_collect (tools/collect/exec.c); exit 2 when there is none. */
int cmd_collect_exec(int argc, char **argv);

#endif
