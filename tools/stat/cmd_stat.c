/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe stat`: a drop-in for FreeBSD's ministat(1), current version.
 *
 * Same options, input rules and output layout, so scripts and eyes used to
 * ministat keep working; the numbers come from tools/lib/stats.c, which follows
 * ministat's arithmetic (even-N median, two-pass variance, the current
 * relative-uncertainty formula) and the block is printed by
 * tools/lib/ministat_print.c, shared with `tickprobe compare`.  Fast on big
 * inputs (tests/bench/ministat.sh): tools/stat/input.c streams each file and
 * parses numbers by hand (strtod only for unusual forms), tools/stat/tally.c
 * counts repeated values instead of storing them (tally_stats is
 * stats_compute's arithmetic on the counts), and tools/stat/ministat_plot.c
 * writes a tall plot's repeated rows without building its grid. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/lib/stats.h"
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/lib/ministat_print.h"
#include "tools/stat/input.h"
#include "tools/stat/tally.h"

#define MAX_SETS MS_PLOT_SETS /* ministat's limit: its plot draws seven */

struct dataset {
	const char *name;
	struct tally values;
	struct stats st;
	double var_sample; /* what the t test uses, also under -P */
};

struct opts {
	int column, conf, width;
	int flag_a, flag_n, flag_q, flag_s, flag_p;
	unsigned char delim[256];
};

/* ministat's usage text.  The confidence levels listed are tools/lib/stats.c's
 * (tests/tools/test_args.sh tries each one). */
static const struct args_spec stat_spec = {
	.name = "stat",
	.synopsis = "[-C column] [-c confidence] [-d delimiter(s)] [-AnPqs] [-w width] [file ...]",
	.help = "\tconfidence = {80%, 90%, 95%, 98%, 99%, 99.5%}\n"
		"\t-A : print statistics only, suppress the graph\n"
		"\t-C : column number to extract (starts and defaults to 1)\n"
		"\t-d : delimiter(s) string, default \" \\t\"\n"
		"\t-n : print summary statistics only, no graph/test\n"
		"\t-P : standard deviation of the whole population (n), no test\n"
		"\t-q : suppress the summary-statistics header and data-set names\n"
		"\t-s : print avg/median/stddev bars on separate lines\n"
		"\t-w : width of graph (default 74, or the terminal's width)\n",
	.exits = "Exit status: 0 clean, 1 usage error, 2 a file unreadable, invalid or too short.\n",
	.shortopts = "AC:c:d:nPqsw:",
	.operand = "file",
	.max_operands = ARGS_MANY, /* MAX_SETS, with ministat's message: parse_opts */
	.stop_at_operand = 1, /* as ministat: the first file ends the options */
	.help_on_error = 1,
};

/* ---- reading --------------------------------------------------------------- */

/* One input file (or standard input) into ds, with ministat's messages. */
static int read_set(struct dataset *ds, const char *path, const struct opts *o)
{
	struct stat_input in;
	int fd = 0, rc;

	if (path && strcmp(path, "-")) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "tickprobe stat: Cannot open %s: %s\n", path, strerror(errno));
			return EXIT_UNREADABLE;
		}
	}
	ds->name = path ? path : "<stdin>";
	tally_init(&ds->values);
	stat_input_init(&in, o->delim, o->column, tally_add, &ds->values);
	stat_input_use_cache(&in);
	rc = stat_input_fd(&in, fd);
	ds->values.sum = in.sum;
	if (rc == STAT_INPUT_READ)
		fprintf(stderr, "tickprobe stat: Cannot read %s: %s\n", ds->name, strerror(errno));
	if (fd != 0)
		close(fd);
	if (rc == STAT_INPUT_OK && !tally_sort(&ds->values))
		rc = STAT_INPUT_NOMEM;
	if (rc == STAT_INPUT_INVALID)
		fprintf(stderr, "tickprobe stat: Invalid data on line %zu in %s\n", in.line, ds->name);
	if (rc == STAT_INPUT_NOMEM)
		fprintf(stderr, "tickprobe stat: out of memory reading %s\n", ds->name);
	if (rc != STAT_INPUT_OK)
		return EXIT_UNREADABLE;
	if (ds->values.n < 3) {
		fprintf(stderr, "tickprobe stat: Dataset %s must contain at least 3 data points\n",
			ds->name);
		return EXIT_UNREADABLE;
	}
	return EXIT_CLEAN;
}

/* ---- options and output ------------------------------------------------------ */

/* -1 to go on, or the exit status to stop with (after --help, or a usage
 * error said as ministat says it).  The files are a->operands. */
static int parse_opts(struct args *a, int argc, char **argv, struct opts *o)
{
	const char *delim = " \t";
	double d;
	long l;
	int c, r;

	memset(o, 0, sizeof *o);
	o->column = 1;
	o->conf = stats_conf_index(95);
	o->width = 74;
	if (isatty(STDOUT_FILENO)) {
		struct winsize ws;
		const char *cols = getenv("COLUMNS");
		if (cols && *cols && args_to_long(cols, &l) == ARGS_NUM_OK && l > 0 && l < 100000)
			o->width = (int)l;
		else if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != -1 && ws.ws_col > 0)
			o->width = ws.ws_col - 2;
	}
	args_start(a, &stat_spec, argc, argv);
	while ((c = args_next(a)) > 0) {
		switch (c) {
		case 'A': o->flag_a = 1; break;
		case 'n': o->flag_n = 1; break;
		case 'P': o->flag_p = 1; break;
		case 'q': o->flag_q = 1; break;
		case 's': o->flag_s = 1; break;
		case 'C':
			r = args_to_long(a->value, &l);
			if (r == ARGS_NUM_BAD)
				return args_fail(a, "Invalid column number.");
			if (r != ARGS_NUM_OK || l <= 0 || l > 1000000)
				return args_fail(a, "Column number should be positive.");
			o->column = (int)l;
			break;
		case 'c':
			if (args_to_double(a->value, &d) == ARGS_NUM_BAD)
				return args_fail(a, "Not a floating point number");
			if ((o->conf = stats_conf_index(d)) < 0)
				return args_fail(a, "No support for confidence level");
			break;
		case 'd':
			if (!*a->value)
				return args_fail(a, "Can't use empty delimiter string");
			delim = a->value;
			break;
		case 'w':
			r = args_to_long(a->value, &l);
			if (r == ARGS_NUM_BAD)
				return args_fail(a, "Invalid width, not a number.");
			if (r != ARGS_NUM_OK || l < 0 || l > 100000)
				return args_fail(a, "Unable to move beyond left margin.");
			o->width = (int)l;
			break;
		default:
			break;
		}
	}
	if (c == ARGS_STOP)
		return a->status;
	if (a->noperands > MAX_SETS)
		return args_fail(a, "Too many datasets.");
	stat_input_delims(o->delim, delim);
	return -1;
}

/* ministat's test always takes the sample variance, also under -P. */
static void relative(const struct dataset *base, const struct dataset *other, int conf)
{
	struct stats a = base->st, b = other->st;
	struct stats_diff d;

	a.var = base->var_sample;
	b.var = other->var_sample;
	stats_compare(&a, &b, conf, &d);
	ms_difference(stdout, &d, stats_conf_levels[conf]);
}

static void print_sets(struct dataset *ds, int nds, const struct opts *o)
{
	/* Nothing has been written yet: a big buffer keeps the output to a
	 * few large writes. */
	static char outbuf[1 << 20];
	struct ms_sorted sorted[MAX_SETS];
	int i;

	setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
	for (i = 0; i < nds; i++) {
		const struct tally *t = &ds[i].values;

		tally_stats(t, &ds[i].st);
		ds[i].var_sample = ds[i].st.var;
		if (o->flag_p) /* -P: population sd, sqrt(var * (n-1)/n), as printed and drawn */
			ds[i].st.sd = sqrt(ds[i].st.var) * sqrt((t->n - 1.0) / t->n);
		sorted[i] = (struct ms_sorted){ ds[i].name, t->v, t->count, t->nv, &ds[i].st };
	}
	if (!o->flag_q)
		ms_legend(stdout, sorted, (size_t)nds);
	if (!o->flag_n && !o->flag_a)
		ms_plot(stdout, sorted, (size_t)nds, o->width, o->flag_s);
	if (!o->flag_q)
		ms_table_header(stdout);
	for (i = 0; i < nds; i++) {
		ms_table_row(stdout, (size_t)i, &ds[i].st);
		if (i && !o->flag_n && !o->flag_p)
			relative(&ds[0], &ds[i], o->conf);
	}
	fflush(stdout);
}

int cmd_stat(int argc, char **argv)
{
	struct opts o;
	struct dataset ds[MAX_SETS];
	struct args a;
	int nds, i, rc;

	if ((rc = parse_opts(&a, argc, argv, &o)) >= 0)
		return rc;
	rc = EXIT_CLEAN;
	nds = a.noperands;
	memset(ds, 0, sizeof ds);
	if (nds == 0) {
		nds = 1;
		rc = read_set(&ds[0], NULL, &o);
	} else {
		for (i = 0; i < nds && !rc; i++)
			rc = read_set(&ds[i], a.operands[i], &o);
	}
	if (!rc)
		print_sets(ds, nds, &o);
	for (i = 0; i < MAX_SETS; i++)
		tally_free(&ds[i].values);
	return rc;
}
