/* `tickprobe stat`: a drop-in for FreeBSD's ministat(1), current version.
 *
 * Same options, input rules and output layout, so scripts and eyes used to
 * ministat keep working; the numbers come from probe/stats.c, which follows
 * ministat's arithmetic (even-N median, two-pass variance, the current
 * relative-uncertainty formula) and the block is printed by
 * tools/stat/ministat_print.c, shared with `tickprobe compare`.  Faster on big
 * inputs: tools/stat/input.c reads each file in one buffer and parses numbers
 * by hand (strtod only for unusual forms). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "probe/stats.h"
#include "tools/commands.h"
#include "tools/stat/ministat_print.h"
#include "tools/stat/input.h"

#define MAX_SETS MS_PLOT_SETS /* ministat's limit: its plot draws seven */

struct dataset {
	const char *name;
	double *v;
	size_t n, cap;
	struct stats st;
	double var_sample; /* what the t test uses, also under -P */
};

struct opts {
	int column, conf, width;
	int flag_a, flag_n, flag_q, flag_s, flag_p;
	unsigned char delim[256];
};

static void usage(const char *whine)
{
	int i;

	if (whine)
		fprintf(stderr, "tickprobe stat: %s\n", whine);
	fprintf(stderr, "usage: tickprobe stat [-C column] [-c confidence] [-d delimiter(s)] [-AnPqs] "
			"[-w width] [file ...]\n\tconfidence = {");
	for (i = 0; i < STATS_NCONF; i++)
		fprintf(stderr, "%s%g%%", i ? ", " : "", stats_conf_levels[i]);
	fprintf(stderr, "}\n"
			"\t-A : print statistics only, suppress the graph\n"
			"\t-C : column number to extract (starts and defaults to 1)\n"
			"\t-d : delimiter(s) string, default \" \\t\"\n"
			"\t-n : print summary statistics only, no graph/test\n"
			"\t-P : standard deviation of the whole population (n), no test\n"
			"\t-q : suppress the summary-statistics header and data-set names\n"
			"\t-s : print avg/median/stddev bars on separate lines\n"
			"\t-w : width of graph (default 74, or the terminal's width)\n");
}

/* ---- reading --------------------------------------------------------------- */

/* One input file (or standard input) into ds, with ministat's messages. */
static int read_set(struct dataset *ds, const char *path, const struct opts *o)
{
	int fd = 0, rc;
	size_t len, bad_line = 0;
	char *buf;
	struct stat_values vals = { ds->v, ds->n, ds->cap };

	if (path && strcmp(path, "-")) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "tickprobe stat: Cannot open %s: %s\n", path, strerror(errno));
			return EXIT_UNREADABLE;
		}
	}
	ds->name = path ? path : "<stdin>";
	buf = stat_input_slurp(fd, &len);
	if (fd != 0)
		close(fd);
	if (!buf) {
		fprintf(stderr, "tickprobe stat: Cannot read %s: %s\n", ds->name, strerror(errno));
		return EXIT_UNREADABLE;
	}
	rc = stat_input_parse(buf, len, o->delim, o->column, &vals, &bad_line);
	free(buf);
	ds->v = vals.v;
	ds->n = vals.n;
	ds->cap = vals.cap;
	if (rc == STAT_INPUT_INVALID) {
		fprintf(stderr, "tickprobe stat: Invalid data on line %zu in %s\n", bad_line, ds->name);
		return EXIT_UNREADABLE;
	}
	if (rc == STAT_INPUT_NOMEM) {
		fprintf(stderr, "tickprobe stat: out of memory reading %s\n", ds->name);
		return EXIT_UNREADABLE;
	}
	if (ds->n < 3) {
		fprintf(stderr, "tickprobe stat: Dataset %s must contain at least 3 data points\n",
			ds->name);
		return EXIT_UNREADABLE;
	}
	return EXIT_CLEAN;
}

/* ---- options and output ------------------------------------------------------ */

static int parse_opts(int argc, char **argv, struct opts *o, int *first)
{
	int i;
	const char *delim = " \t";

	memset(o, 0, sizeof *o);
	o->column = 1;
	o->conf = stats_conf_index(95);
	o->width = 74;
	if (isatty(STDOUT_FILENO)) {
		struct winsize ws;
		const char *cols = getenv("COLUMNS");
		char *endp;
		long w = cols ? strtol(cols, &endp, 10) : 0;
		if (cols && *cols && !*endp && w > 0 && w < 100000)
			o->width = (int)w;
		else if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != -1 && ws.ws_col > 0)
			o->width = ws.ws_col - 2;
	}
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i] + 1;
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(NULL);
			return -1;
		}
		for (; *a; a++) {
			const char *arg = NULL;
			char *endp;
			double d;
			long l;

			if (*a == 'C' || *a == 'c' || *a == 'd' || *a == 'w') {
				arg = a[1] ? a + 1 : i + 1 < argc ? argv[++i] : NULL;
				if (!arg) {
					usage("option requires an argument");
					return EXIT_USAGE;
				}
			}
			switch (*a) {
			case 'A': o->flag_a = 1; break;
			case 'n': o->flag_n = 1; break;
			case 'P': o->flag_p = 1; break;
			case 'q': o->flag_q = 1; break;
			case 's': o->flag_s = 1; break;
			case 'C':
				l = strtol(arg, &endp, 10);
				if (*endp || endp == arg) {
					usage("Invalid column number.");
					return EXIT_USAGE;
				}
				if (l <= 0 || l > 1000000) {
					usage("Column number should be positive.");
					return EXIT_USAGE;
				}
				o->column = (int)l;
				break;
			case 'c':
				d = strtod(arg, &endp);
				if (*endp || endp == arg) {
					usage("Not a floating point number");
					return EXIT_USAGE;
				}
				if ((o->conf = stats_conf_index(d)) < 0) {
					usage("No support for confidence level");
					return EXIT_USAGE;
				}
				break;
			case 'd':
				if (!*arg) {
					usage("Can't use empty delimiter string");
					return EXIT_USAGE;
				}
				delim = arg;
				break;
			case 'w':
				l = strtol(arg, &endp, 10);
				if (*endp || endp == arg) {
					usage("Invalid width, not a number.");
					return EXIT_USAGE;
				}
				if (l < 0 || l > 100000) {
					usage("Unable to move beyond left margin.");
					return EXIT_USAGE;
				}
				o->width = (int)l;
				break;
			default:
				usage("Unknown option");
				return EXIT_USAGE;
			}
			if (arg)
				break;
		}
	}
	stat_input_delims(o->delim, delim);
	*first = i;
	return EXIT_CLEAN;
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

int cmd_stat(int argc, char **argv)
{
	struct opts o;
	struct dataset ds[MAX_SETS];
	int first, nds, i, rc;

	rc = parse_opts(argc, argv, &o, &first);
	if (rc)
		return rc < 0 ? EXIT_CLEAN : rc;
	nds = argc - first;
	if (nds > MAX_SETS) {
		usage("Too many datasets.");
		return EXIT_USAGE;
	}
	memset(ds, 0, sizeof ds);
	if (nds == 0) {
		nds = 1;
		rc = read_set(&ds[0], NULL, &o);
	} else {
		for (i = 0; i < nds && !rc; i++)
			rc = read_set(&ds[i], argv[first + i], &o);
	}
	if (!rc) {
		/* Nothing has been written yet: a big buffer keeps a tall plot
		 * (one row per stacked value) to a few large writes. */
		static char outbuf[1 << 20];
		struct ms_sorted sorted[MAX_SETS];
		double *scratch = NULL;
		size_t most = 0;

		setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
		for (i = 0; i < nds; i++)
			if (ds[i].n > most)
				most = ds[i].n;
		scratch = most ? malloc(most * sizeof *scratch) : NULL; /* NULL: the in-place sort instead */
		for (i = 0; i < nds; i++) {
			if (scratch)
				stats_compute_scratch(ds[i].v, ds[i].n, scratch, &ds[i].st);
			else
				stats_compute(ds[i].v, ds[i].n, &ds[i].st);
			ds[i].var_sample = ds[i].st.var;
			if (o.flag_p) /* -P: population sd, sqrt(var * (n-1)/n), as printed and drawn */
				ds[i].st.sd = sqrt(ds[i].st.var) * sqrt((ds[i].n - 1.0) / ds[i].n);
		}
		free(scratch);
		for (i = 0; i < nds; i++)
			sorted[i] = (struct ms_sorted){ ds[i].name, ds[i].v, &ds[i].st };
		if (!o.flag_q)
			ms_legend(stdout, sorted, (size_t)nds);
		if (!o.flag_n && !o.flag_a)
			ms_plot(stdout, sorted, (size_t)nds, o.width, o.flag_s);
		if (!o.flag_q)
			ms_table_header(stdout);
		for (i = 0; i < nds; i++) {
			ms_table_row(stdout, (size_t)i, &ds[i].st);
			if (i && !o.flag_n && !o.flag_p)
				relative(&ds[0], &ds[i], o.conf);
		}
		fflush(stdout);
	}
	for (i = 0; i < MAX_SETS; i++)
		free(ds[i].v);
	return rc;
}
