/* `tickprobe stat`: a drop-in for FreeBSD's ministat(1), current version.
 *
 * Same options, input rules and output layout, so scripts and eyes used to
 * ministat keep working; the numbers come from probe/stats.c, which follows
 * ministat's arithmetic (even-N median, two-pass variance, the current
 * relative-uncertainty formula) and the block is printed by
 * tools/ministat_print.c, shared with `tickprobe compare`.  Faster on big inputs: each file is read in
 * one buffer and numbers are parsed by hand (strtod only for unusual forms),
 * instead of fgets + strtok + strtod per line. */
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
#include "tools/ministat_print.h"

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

/* The whole input in one buffer, with a spare byte for a terminating NUL. */
static char *slurp(int fd, size_t *len)
{
	struct stat sb;
	size_t cap = 1 << 20, n = 0;
	char *buf;

	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
		cap = (size_t)sb.st_size + 1;
	buf = malloc(cap + 1);
	if (!buf)
		return NULL;
	for (;;) {
		ssize_t r;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	return buf;
}

static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Parse [s, e) as a number, all of it, or fail (return 0).  Plain decimals
 * with at most 19 significant digits whose mantissa fits 2^53 and whose
 * scale is within 10^±22 are exact with one IEEE multiply or divide (both
 * operands exact), so they equal strtod's correctly rounded result; anything
 * else (hex, inf, nan, long mantissas, leading blanks) goes to strtod.
 * *e is writable: the buffer always has a byte past every token. */
static int parse_number(char *s, char *e, double *out)
{
	const char *p = s;
	unsigned long long m = 0;
	int neg = 0, digits = 0, scale = 0, any = 0;
	char save, *end;

	if (p < e && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < e && (unsigned)(*p - '0') < 10; p++, any = 1) {
		if (m || *p != '0')
			digits++;
		m = m * 10 + (unsigned)(*p - '0');
		if (digits > 19)
			goto slow;
	}
	if (p < e && *p == '.') {
		for (p++; p < e && (unsigned)(*p - '0') < 10; p++, any = 1) {
			if (m || *p != '0')
				digits++;
			m = m * 10 + (unsigned)(*p - '0');
			scale--;
			if (digits > 19)
				goto slow;
		}
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		int es = 0, eneg = 0, ed = 0;
		p++;
		if (p < e && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		for (; p < e && (unsigned)(*p - '0') < 10 && es < 10000; p++, ed++)
			es = es * 10 + (*p - '0');
		if (!ed)
			goto slow;
		scale += eneg ? -es : es;
	}
	if (p != e || !any || m > (1ull << 53) || scale < -22 || scale > 22)
		goto slow;
	*out = scale >= 0 ? (double)m * pow10_exact[scale] : (double)m / pow10_exact[-scale];
	if (neg)
		*out = -*out;
	return 1;
slow:
	save = *e;
	*e = '\0';
	*out = strtod(s, &end);
	*e = save;
	return end == e && e != s;
}

static int push(struct dataset *ds, double v)
{
	if (ds->n == ds->cap) {
		size_t cap = ds->cap ? ds->cap * 2 : 4096;
		double *nv = realloc(ds->v, cap * sizeof *nv);
		if (!nv)
			return 0;
		ds->v = nv;
		ds->cap = cap;
	}
	ds->v[ds->n++] = v;
	return 1;
}

static int is_space(unsigned char c) /* isspace() in the C locale */
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* ministat's line rules: trailing white space is dropped; the line is split
 * on any of the delimiter characters (runs count as one, as with strtok); a
 * token starting with '#' at or before the wanted column makes the line a
 * comment; a line without that column is skipped; the column must be a
 * number, all of it, or the input is rejected naming file and line. */
static int read_set(struct dataset *ds, const char *path, const struct opts *o)
{
	int fd = 0;
	size_t len, line = 0;
	char *buf, *p, *end;
	int has_nul;

	if (path && strcmp(path, "-")) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "tickprobe stat: Cannot open %s: %s\n", path, strerror(errno));
			return EXIT_UNREADABLE;
		}
	}
	ds->name = path ? path : "<stdin>";
	buf = slurp(fd, &len);
	if (fd != 0)
		close(fd);
	if (!buf) {
		fprintf(stderr, "tickprobe stat: Cannot read %s: %s\n", ds->name, strerror(errno));
		return EXIT_UNREADABLE;
	}
	end = buf + len;
	*end = '\0';
	has_nul = memchr(buf, '\0', len) != NULL;
	for (p = buf; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end, *z, *t = NULL;
		int col = 0;
		double v;

		line++;
		if (has_nul && (z = memchr(p, '\0', (size_t)(e - p)))) /* as strlen sees the line */
			e = z;
		while (e > p && is_space((unsigned char)e[-1]))
			e--;
		while (p < e) {
			while (p < e && o->delim[(unsigned char)*p])
				p++;
			if (p == e || *p == '#')
				break;
			t = p;
			while (p < e && !o->delim[(unsigned char)*p])
				p++;
			if (++col == o->column)
				break;
		}
		if (col == o->column && t && *t != '#') {
			if (!parse_number(t, p, &v)) {
				fprintf(stderr, "tickprobe stat: Invalid data on line %zu in %s\n", line,
					ds->name);
				free(buf);
				return EXIT_UNREADABLE;
			}
			if (!push(ds, v)) {
				fprintf(stderr, "tickprobe stat: out of memory reading %s\n", ds->name);
				free(buf);
				return EXIT_UNREADABLE;
			}
		}
		p = nl ? nl + 1 : end;
	}
	free(buf);
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
		if (cols && *cols)
			o->width = atoi(cols);
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

			if (strchr("Ccdw", *a)) {
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
	for (; *delim; delim++)
		o->delim[(unsigned char)*delim] = 1;
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
		scratch = malloc(most * sizeof *scratch); /* NULL: the in-place sort instead */
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
