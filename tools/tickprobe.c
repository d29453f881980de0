/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe: the host side.  Boots the probe image in QEMU, captures serial
 * logs from real machines, shows and compares them, and measures what the
 * running OS pays for the same clocks. */
#include <stdio.h>
#include <string.h>
#include "tools/commands.h"
#include "tools/lib/args.h"


static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "qemu", cmd_qemu, "boot the probe image in QEMU and capture its log" },
	{ "logs", cmd_logs, "list the logs a run without a cable left on a stick or the ESP" },
	{ "capture", cmd_capture, "record a serial log from a real machine" },
	{ "show", cmd_show, "one machine's results as a table" },
	{ "compare", cmd_compare, "compare logs ministat-style, per counter" },
	{ "stat", cmd_stat, "a drop-in ministat" },
	{ "export", cmd_export, "raw values, CSV or JSON from a log" },
	{ "report", cmd_report, "a self-contained HTML report of one or more logs" },
	{ "acpi", cmd_acpi, "decode this host's (or dumped) ACPI timer tables" },
	{ "os", cmd_os, "what this Linux system's clock_gettime() costs" },
	{ "schedule", cmd_schedule, "boot into tickprobe at the next restart only, then back (UEFI or GRUB)" },
	{ "doctor", cmd_doctor, "is this machine's TSC really unreliable, and what should Linux use?" },
	{ "db", cmd_db, "many machines' logs in one SQLite store: import, summary, compare" },
	{ "collect", cmd_collect_exec, "receive probes' logs over the network (HTTP, syslog) into files and a store" },
};

static void usage(FILE *f)
{
	size_t i;
	fprintf(f, "usage: tickprobe COMMAND [options]   (tickprobe COMMAND --help for more)\n\n");
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-8s  %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n%s", ARGS_EXIT_TEXT);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_CLEAN;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("tickprobe %s\n", TICKPROBE_VERSION);
		return EXIT_CLEAN;
	}
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "tickprobe: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
