/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe logs [DIR...] [--json]: the logs a cable-less run left on a
 * stick or the ESP, one line each: number, date, machine, status and
 * whether the log is whole.  With no DIR, the places the image writes to
 * (logdir.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "tools/commands.h"
#include "tools/common/args.h"
#include "tools/log/logdir.h"
#include "tools/log/logset.h"

enum { OPT_JSON = ARGS_OPT_FIRST };

static const struct option logs_options[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	ARGS_OPTIONS_END
};

static const struct args_spec logs_spec = {
	.name = "logs",
	.synopsis = "[DIR...] [--json]",
	.help = "  List the logs in each DIR (every *.log below it), default the places a run\n"
		"  without a serial cable leaves them: /boot/efi/tickprobe/logs (also /efi and\n"
		"  /boot) and tickprobe/logs on every mounted USB stick or card.  One line a log:\n"
		"  its number, the file's date, the machine, the run's status, and whether the\n"
		"  log is complete and undamaged.  Read one with `tickprobe show FILE`, the\n"
		"  newest with `tickprobe show --latest`.\n",
	.exits = "Exit status: 0 listed (a damaged or cut-short log is a row that says so), 1 usage,\n"
		 "2 a DIR or file that is not there or cannot be read (named on stderr), an empty\n"
		 "DIR, or no log directory anywhere.\n",
	.longopts = logs_options,
	.operand = "DIR",
	.min_operands = 0,
	.max_operands = ARGS_MANY,
};

static void print_jstr(const char *s)
{
	putchar('"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void one(const char *path, bool json, bool first)
{
	struct logfile f;
	struct stat st;
	char date[32] = "?", state[300] = "unreadable";
	const char *b = strrchr(path, '/'), *machine = NULL, *status = NULL, *boot = NULL;
	int number = -1;

	b = b ? b + 1 : path;
	if (*b >= '0' && *b <= '9')
		number = (int)strtol(b, NULL, 10);
	if (stat(path, &st) == 0) {
		struct tm tm;
		localtime_r(&st.st_mtime, &tm);
		strftime(date, sizeof date, "%Y-%m-%d %H:%M", &tm);
	}
	logfile_load(&f, path);
	if (f.nruns) {
		const struct lrun *r = &f.runs[f.nruns - 1]; /* the last boot in the file */
		machine = lr_str(lr_get(lrun_first(r, "machine"), "cpu_brand"));
		boot = lrun_boot(r);
		status = r->info.has_end ? r->info.status : NULL;
		lrun_state(r, state, sizeof state);
	} else if (f.status != EXIT_UNREADABLE) {
		snprintf(state, sizeof state, "no records");
	} else if (*f.why) {
		snprintf(state, sizeof state, "unreadable: %s", f.why); /* e.g. the CPU could not run the probe */
	}
	if (json) {
		printf("%s{\"path\":", first ? "" : ",\n");
		print_jstr(path);
		printf(",\"number\":");
		number >= 0 ? printf("%d", number) : printf("null");
		printf(",\"date\":");
		print_jstr(date);
		printf(",\"machine\":");
		machine ? print_jstr(machine) : (void)printf("null");
		printf(",\"boot\":");
		boot ? print_jstr(boot) : (void)printf("null");
		printf(",\"status\":");
		status ? print_jstr(status) : (void)printf("null");
		printf(",\"runs\":%zu,\"integrity\":", f.nruns);
		print_jstr(state);
		printf(",\"clean\":%s}", f.status == EXIT_CLEAN && f.nruns ? "true" : "false");
	} else {
		char num[16];
		snprintf(num, sizeof num, number >= 0 ? "%04d" : "-", number);
		printf("%-6s %-16s %-32.32s %-5s %-10s %s%s\n", num, date, machine ? machine : "?",
		       boot ? boot : "?", status ? status : "-", state, f.nruns > 1 ? " (several boots)" : "");
	}
	logfile_free(&f);
}

/* A DIR or file operand that is not there, or cannot be read, gets a line on
 * stderr, as in every reader (tools/log/logset.c's "cannot open"), and no row:
 * a row would say nothing but question marks. */
static bool can_open(const char *path)
{
	FILE *f = fopen(path, "rb");

	if (!f) {
		fprintf(stderr, "tickprobe logs: %s: cannot open: %s\n", path, strerror(errno));
		return false;
	}
	fclose(f);
	return true;
}

int cmd_logs(int argc, char **argv)
{
	struct loglist dirs = { 0 }, files = { 0 };
	bool json = false;
	struct args a;
	int c, status;
	size_t listed = 0;

	args_start(&a, &logs_spec, argc, argv);
	while ((c = args_next(&a)) > 0)
		if (c == OPT_JSON)
			json = true;
	if (c == ARGS_STOP)
		return a.status;
	if (a.noperands)
		for (int i = 0; i < a.noperands; i++)
			loglist_push(&dirs, a.operands[i]);
	else if (!logdirs_default(&dirs)) {
		fprintf(stderr, "tickprobe logs: no log directory here: /boot/efi/tickprobe/logs does not exist "
				"and no mounted stick has tickprobe/logs; name a DIR\n");
		return EXIT_UNREADABLE;
	}
	status = loglist_expand(&files, dirs.paths, dirs.n, "tickprobe logs");
	if (json)
		printf("{\"logs\":[\n");
	for (size_t i = 0; i < files.n; i++) {
		/* Each directory named above its logs: the defaults can be the
		 * ESP and a stick at once, and a log's number is only its
		 * directory's. */
		const char *slash = strrchr(files.paths[i], '/'), *prev = i ? strrchr(files.paths[i - 1], '/') : NULL;
		size_t n = slash ? (size_t)(slash - files.paths[i]) : 0;
		if (!can_open(files.paths[i])) {
			status = EXIT_UNREADABLE;
			continue;
		}
		if (!json && !listed)
			printf("%-6s %-16s %-32s %-5s %-10s %s\n", "number", "date", "machine", "boot", "status", "integrity");
		if (!json && (!listed || !prev || (size_t)(prev - files.paths[i - 1]) != n ||
			      strncmp(files.paths[i], files.paths[i - 1], n)))
			printf("%.*s:\n", (int)n, slash ? files.paths[i] : ".");
		one(files.paths[i], json, listed++ == 0);
	}
	if (json)
		printf("\n]}\n");
	else if (!files.n && status == EXIT_CLEAN)
		printf("no logs in %s%s\n", dirs.n ? dirs.paths[0] : "?", dirs.n > 1 ? " and the others" : "");
	loglist_free(&dirs);
	loglist_free(&files);
	return status;
}
