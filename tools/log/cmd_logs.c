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
#include "tools/lib/json_out.h"
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/lib/logdir.h"
#include "tools/lib/logschema.h"
#include "tools/lib/logset.h"
#include "tools/lib/textsafe.h"

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
		"  /boot), tickprobe/logs on every mounted USB stick or card, and the OS logs of\n"
		"  `tickprobe schedule` in /var/lib/tickprobe/logs.  One line a log:\n"
		"  its number, the file's date, the machine, the run's status, and whether the\n"
		"  log is complete and undamaged.  Read one with `tickprobe show FILE`, the\n"
		"  newest with `tickprobe show --latest`.\n" TS_HELP,
	.exits = "Exit status: 0 listed (a damaged or cut-short log is a row that says so), 1 usage,\n"
		 "2 a DIR or file that is not there or cannot be read (named on stderr), an empty\n"
		 "DIR, or no log directory anywhere.\n",
	.longopts = logs_options,
	.operand = "DIR",
	.min_operands = 0,
	.max_operands = ARGS_MANY,
};

/* begin.series as {"id":…,"index":…,"of":…}. */
static void jrecord_member(const struct ld_series *ser)
{
	double i = 0, of = 0;
	lr_num(ser->index.node, &i);
	lr_num(ser->of.node, &of);
	printf("{\"id\":");
	json_out_str(stdout, ld_str_or(ser->id, NULL));
	printf(",\"index\":%u,\"of\":%u}", (unsigned)i, (unsigned)of);
}

/* The logs of each series of boots (begin.series), for the lines under the
 * list: which files make one series, for `tickprobe compare`. */
#define MAX_SERIES 64
struct series_seen {
	char id[40];
	unsigned of, count;
	char files[200];
	char last_state[16];
};
struct series_list {
	struct series_seen s[MAX_SERIES];
	unsigned n;
};

static void note_series(struct series_list *sl, const struct lrun *r, const char *path)
{
	struct ld_begin b;
	struct ld_end e;
	const char *base = strrchr(path, '/');
	double of = 0;
	unsigned i;
	size_t k;

	ld_decode_begin(lrun_first(r, "begin"), &b);
	ld_decode_end(lrun_first(r, "end"), &e);
	const char *id = ld_str_or(b.series.id, NULL);
	const char *state = ld_str_or(e.series, NULL);
	if (!id || !lr_num(b.series.of.node, &of)) /* of: any number, as written */
		return;
	for (i = 0; i < sl->n && strcmp(sl->s[i].id, id); i++)
		;
	if (i == sl->n) {
		if (sl->n == MAX_SERIES)
			return;
		snprintf(sl->s[sl->n].id, sizeof sl->s[0].id, "%s", id);
		sl->s[sl->n].of = (unsigned)of;
		sl->n++;
	}
	sl->s[i].count++;
	k = strlen(sl->s[i].files);
	snprintf(sl->s[i].files + k, sizeof sl->s[i].files - k, "%s%s", k ? " " : "", base ? base + 1 : path);
	snprintf(sl->s[i].last_state, sizeof sl->s[i].last_state, "%s", state ? state : "no end");
}

/* " series ID i/N" for the line, or "". */
static void series_tag(const struct lrun *r, char *out, size_t cap)
{
	struct ld_begin b;
	double i = 0, of = 0;
	char id[64];

	ld_decode_begin(lrun_first(r, "begin"), &b);
	out[0] = 0;
	if (b.series.id.state == LD_SET && lr_num(b.series.index.node, &i) && lr_num(b.series.of.node, &of))
		snprintf(out, cap, "  series %s %u/%u", ts_str(id, sizeof id, b.series.id.s), (unsigned)i,
			 (unsigned)of);
}

static void one(const char *path, bool json, bool first, struct series_list *sl)
{
	struct logfile f;
	char tag[112] = "";
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
		struct ld_machine m;
		ld_decode_machine(lrun_first(r, "machine"), &m);
		machine = ld_str_or(m.cpu_brand, NULL);
		boot = lrun_boot(r);
		status = r->info.has_end ? r->info.status : NULL;
		lrun_state(r, state, sizeof state);
		series_tag(r, tag, sizeof tag);
		note_series(sl, r, path);
	} else if (f.status != EXIT_UNREADABLE) {
		snprintf(state, sizeof state, "no records");
	} else if (*f.why) {
		snprintf(state, sizeof state, "unreadable: %s", f.why); /* e.g. the CPU could not run the probe */
	}
	if (json) {
		printf("%s{\"path\":", first ? "" : ",\n");
		json_out_str(stdout, path);
		printf(",\"number\":");
		number >= 0 ? printf("%d", number) : printf("null");
		printf(",\"date\":");
		json_out_str(stdout, date);
		printf(",\"machine\":");
		json_out_str(stdout, machine);
		printf(",\"boot\":");
		json_out_str(stdout, boot);
		printf(",\"status\":");
		json_out_str(stdout, status);
		printf(",\"runs\":%zu,\"integrity\":", f.nruns);
		json_out_str(stdout, state);
		printf(",\"clean\":%s,\"series\":", f.status == EXIT_CLEAN && f.nruns ? "true" : "false");
		struct ld_begin last;
		ld_decode_begin(f.nruns ? lrun_first(&f.runs[f.nruns - 1], "begin") : NULL, &last);
		if (last.series.id.state == LD_SET)
			jrecord_member(&last.series);
		else
			printf("null");
		printf("}");
	} else {
		char num[16], shown[3][64];
		snprintf(num, sizeof num, number >= 0 ? "%04d" : "-", number);
		/* The machine column is cut to its 32 bytes by ts_str, never inside
		 * a character or an escape. */
		printf("%-6s %-16s %-32s %-5s %-10s ", num, date, machine ? ts_str(shown[0], 33, machine) : "?",
		       boot ? ts_str(shown[1], sizeof shown[1], boot) : "?",
		       status ? ts_str(shown[2], sizeof shown[2], status) : "-");
		ts_puts(stdout, state);
		printf("%s%s\n", f.nruns > 1 ? " (several boots)" : "", tag);
	}
	logfile_free(&f);
}

/* A DIR or file operand that is not there, or cannot be read, gets a line on
 * stderr, as in every reader (tools/lib/logset.c's "cannot open"), and no row:
 * a row would say nothing but question marks. */
static bool can_open(const char *path)
{
	FILE *f = fopen(path, "rb");

	if (!f) {
		fputs("tickprobe logs: ", stderr);
		ts_puts(stderr, path);
		fprintf(stderr, ": cannot open: %s\n", strerror(errno));
		return false;
	}
	fclose(f);
	return true;
}

int cmd_logs(int argc, char **argv)
{
	struct loglist dirs = { 0 }, files = { 0 };
	static struct series_list sl;
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
	else if (logdirs_default(&dirs) + logdirs_os(&dirs) == 0) {
		fprintf(stderr, "tickprobe logs: no log directory here: /boot/efi/tickprobe/logs does not exist, "
				"no mounted stick has tickprobe/logs, nor is there " LOGDIR_OS "; name a DIR\n");
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
			      strncmp(files.paths[i], files.paths[i - 1], n))) {
			ts_write(stdout, slash ? files.paths[i] : ".", slash ? n : 1);
			fputs(":\n", stdout);
		}
		one(files.paths[i], json, listed++ == 0, &sl);
	}
	for (unsigned i = 0; !json && i < sl.n; i++) {
		fputs("series ", stdout);
		ts_puts(stdout, sl.s[i].id);
		printf(": %u of %u boots here (", sl.s[i].count, sl.s[i].of);
		ts_puts(stdout, sl.s[i].files);
		fputs("), the last ", stdout);
		ts_puts(stdout, sl.s[i].last_state);
		fputs("; compare them with `tickprobe compare`\n", stdout);
	}
	if (json) {
		printf("\n]}\n");
	} else if (!files.n && status == EXIT_CLEAN) {
		fputs("no logs in ", stdout);
		ts_puts(stdout, dirs.n ? dirs.paths[0] : "?");
		printf("%s\n", dirs.n > 1 ? " and the others" : "");
	}
	loglist_free(&dirs);
	loglist_free(&files);
	return status;
}
