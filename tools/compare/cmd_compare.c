/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe compare LOG LOG… [--counter NAME] [--metric p50|mean] [-c 95]
 *
 * For every counter, the per-round values (timer `rounds`, ns) of each log
 * against the first log that has the counter, as ministat does it (Student's
 * t on the rounds: a round is one independent repetition, the reads inside it
 * are not).  Then a summary table counter x log, and, when an OS-side log
 * (boot "linux") is among them, what the kernel's clock call adds on top of
 * the bare hardware read of the same counter, split three ways per
 * clocksource (hardware, user space, kernel: tools/compare/split.h), the
 * contention curves, and the seeds' figures (tools/lib/seeds.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/compare/contention.h"
#include "tools/compare/watch.h"
#include "tools/lib/gate.h"
#include "tools/lib/lineup.h"
#include "tools/lib/seeds.h"
#include "tools/compare/split.h"
#include "tools/lib/logdir.h"
#include "tools/lib/logschema.h"
#include "tools/lib/logset.h"
#include "tools/lib/textsafe.h"
#include "tools/lib/ministat_print.h"

#define MAX_KEYS 64
#define SHOWN_LEN 256   /* a key or a run's name as shown: escaped (tools/lib/textsafe.h) */
#define CELL_W 18       /* one summary cell: "123.4 *+12.3%" */
#define DEFAULT_WIDTH 120

enum { OPT_COUNTER = ARGS_OPT_FIRST, OPT_METRIC, OPT_LATEST, OPT_GATE, OPT_THRESHOLD, OPT_THRESHOLDS, OPT_FORMAT };

static const struct option compare_options[] = {
	{ "counter", required_argument, NULL, OPT_COUNTER },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "latest", no_argument, NULL, OPT_LATEST },
	{ "gate", no_argument, NULL, OPT_GATE },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "thresholds", required_argument, NULL, OPT_THRESHOLDS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	ARGS_OPTIONS_END
};

static const struct args_spec compare_spec = {
	.name = "compare",
	.synopsis = "LOG|DIR... [--counter NAME]... [--metric p50|mean] [-c LEVEL] [--latest]\n"
		    "       tickprobe compare --gate BASELINE NEW... [--threshold [COUNTER=]PCT%%|NSns]...\n"
		    "                         [--thresholds FILE] [--format text|tap|junit] [-o FILE] [-c LEVEL]",
	.help = "  Compare the per-round values of each counter with the first log, ministat-style.\n"
		"  A file with several runs counts as several logs (FILE#N).  When the summary\n"
		"  is wider than the terminal ($COLUMNS, else 120), it lists the logs as rows.\n"
		"  A DIR stands for every *.log below it.  --latest puts the newest log (of the\n"
		"  DIRs given, else of /boot/efi/tickprobe/logs and mounted sticks) first:\n"
		"  `tickprobe compare --latest os.log` is the last bare-metal run against Linux.\n"
		"  --counter NAME  only this counter (repeat for more); default: every one\n"
		"  --metric        which per-round value: p50 (default) or mean\n"
		"  -c LEVEL        confidence level 80, 90, 95 (default), 98, 99 or 99.5\n"
		"\n"
		"  --gate          a pass/fail verdict for CI: each counter of the first log (the\n"
		"                  baseline) against each other log; it fails when a counter is slower\n"
		"                  by more than its threshold AND the difference is significant at the\n"
		"                  confidence level (Student's t on the per-round values), or when a\n"
		"                  counter healthy in the baseline is absent or unhealthy; a new\n"
		"                  counter is reported, not gated.  Exit status 4 when it fails\n"
		"  --threshold T   the default threshold (10%%): PCT%% or NSns; COUNTER=T for one\n"
		"                  counter (its compare name: hpet, os:clock_gettime(MONOTONIC)@tsc)\n"
		"  --thresholds FILE  \"COUNTER THRESHOLD\" a line, \"*\" for the default, # comments\n"
		"  --format F      text (default), tap (TAP version 13) or junit (JUnit XML)\n"
		"  -o FILE         the gate's output to FILE instead of stdout\n" TS_HELP,
	.shortopts = "c:o:",
	.exits = "Exit status: 0 done (with --gate: passed), 1 usage error, 2 a log unreadable, 3 a log\n"
		 "damaged but partly used, 4 with --gate: a counter regressed, or became unhealthy or absent.\n",
	.longopts = compare_options,
	.operand = "LOG",
	.min_operands = 0, /* one file may hold the two runs; --latest may be the only one */
	.max_operands = ARGS_MANY,
};

static const char *const compare_metrics[] = { "p50", "mean", NULL };

struct cell {
	int present, has_p50;
	double p50;     /* the timer's cost_ns.p50 */
	int tested, significant;
	double pct;
};

static void cell_text(const struct cell *c, char *b, size_t cap)
{
	if (!c->present)
		snprintf(b, cap, "-");
	else if (!c->has_p50)
		snprintf(b, cap, "unhealthy");
	else if (c->significant)
		snprintf(b, cap, "%.1f *%+.1f%%", c->p50, c->pct);
	else
		snprintf(b, cap, "%.1f", c->p50);
}

static int out_width(void)
{
	const char *e = getenv("COLUMNS");
	long v = 0;
	if (e && args_to_long(e, &v) == ARGS_NUM_OK && v >= 40 && v <= 100000)
		return (int)v;
	return DEFAULT_WIDTH;
}

/* Logs as rows, the counters in as many blocks of columns as the width
 * needs: 200 logs stay 200 lines a block, never 200 columns. */
static void summary_rows(char keys[][SHOWN_LEN], size_t nkeys, size_t nlogs, const struct cell *cells, int width)
{
	int label = 7;
	for (size_t k = 0; k < nkeys;) {
		size_t first = k, cols = 0;
		int used = label;
		while (k < nkeys && (cols == 0 || used + 1 + (int)(strlen(keys[k]) > CELL_W ? strlen(keys[k]) : CELL_W) <= width)) {
			used += 1 + (int)(strlen(keys[k]) > CELL_W ? strlen(keys[k]) : CELL_W);
			k++;
			cols++;
		}
		printf("\n%-*s", label, "log");
		for (size_t i = first; i < k; i++)
			printf(" %*s", (int)(strlen(keys[i]) > CELL_W ? strlen(keys[i]) : CELL_W), keys[i]);
		printf("\n");
		for (size_t j = 0; j < nlogs; j++) {
			char h[24];
			snprintf(h, sizeof h, "[%zu]", j + 1);
			printf("%-*s", label, h);
			for (size_t i = first; i < k; i++) {
				char b[48];
				cell_text(&cells[i * nlogs + j], b, sizeof b);
				printf(" %*s", (int)(strlen(keys[i]) > CELL_W ? strlen(keys[i]) : CELL_W), b);
			}
			printf("\n");
		}
	}
}

/* keys: as shown, escaped. */
static void summary(char keys[][SHOWN_LEN], size_t nkeys, const struct lrun *const *logs, size_t nlogs,
		    struct cell *cells, const char *conf)
{
	char name[SHOWN_LEN];

	int w = 7, width = out_width();
	for (size_t i = 0; i < nkeys; i++)
		if ((int)strlen(keys[i]) > w)
			w = (int)strlen(keys[i]);
	printf("\nSummary: p50 ns per read; '*' = differs from the first log with that counter at %s%% "
	       "confidence (difference of per-round means)\n", conf);
	for (size_t j = 0; j < nlogs; j++)
		printf("  [%zu] %s\n", j + 1, ts_str(name, sizeof name, logs[j]->name));
	if (w + (int)nlogs * (CELL_W + 1) > width) {
		summary_rows(keys, nkeys, nlogs, cells, width);
		return;
	}
	printf("%-*s", w, "counter");
	for (size_t j = 0; j < nlogs; j++) {
		char h[24];
		snprintf(h, sizeof h, "[%zu]", j + 1);
		printf(" %*s", CELL_W, h);
	}
	printf("\n");
	for (size_t i = 0; i < nkeys; i++) {
		printf("%-*s", w, keys[i]);
		for (size_t j = 0; j < nlogs; j++) {
			char b[48];
			cell_text(&cells[i * nlogs + j], b, sizeof b);
			printf(" %*s", CELL_W, b);
		}
		printf("\n");
	}
}

/* What the kernel's clock call adds on top of the bare hardware read of the
 * same counter (tools/lib/lineup.h): the median of each side's per-round values,
 * and the difference of their means with its confidence half-width. */
static void os_overhead(const struct lrun *const *logs, size_t nlogs, const char *metric, int ci, double conf)
{
	struct lineup lu;

	if (lineup_build(logs, nlogs, metric, ci, &lu)) {
		fprintf(stderr, "tickprobe compare: out of memory lining up OS calls with hardware reads\n");
		return;
	}
	for (size_t i = 0; i < lu.n; i++) {
		const struct lineup_row *r = &lu.rows[i];
		char cs[64], counter[64], call[128], os[SHOWN_LEN], hw[SHOWN_LEN];
		ts_str(cs, sizeof cs, r->clocksource ? r->clocksource : "?");
		ts_str(counter, sizeof counter, r->counter ? r->counter : "?");
		ts_str(call, sizeof call, r->call ? r->call : "?");
		ts_str(os, sizeof os, r->os_run->name);
		ts_str(hw, sizeof hw, r->hw_run->name);
		if (!i) {
			printf("\nKernel path over the bare hardware read (per-round %s, ns; "
			       "%.1f%% confidence):\n", metric, conf);
			printf("%-10s %-10s %10s %10s  %-24s %s\n", "clocksrc", "counter", "os ns", "hw ns",
			       "overhead ns", "call (os log vs hardware log)");
		}
		if (!r->tested) {
			printf("%-10s %-10s  fewer than 2 rounds: no test   %s (%s vs %s)\n", cs, counter, call, os, hw);
		} else {
			char ov[64];
			snprintf(ov, sizeof ov, "%g +/- %g%s", r->diff, r->err, r->significant ? "" : " (n.s.)");
			printf("%-10s %-10s %10.1f %10.1f  %-24s %s (%s vs %s)\n", cs, counter, r->os_p50, r->hw_p50, ov,
			       call, os, hw);
		}
	}
	lineup_free(&lu);
}

/* Per clocksource: hardware, user space and kernel; the contention curves;
 * the seeds' figures.  Before the kernel-path table, which stays the last
 * thing printed (scripts read it to the end). */
static void os_figures(const struct lrun *const *logs, size_t nlogs, const char *metric, int ci, double conf)
{
	struct seeds s;
	struct lineup lu;

	if (lineup_build(logs, nlogs, metric, ci, &lu) == 0) {
		split_print(stdout, &lu, metric, conf);
		lineup_free(&lu);
	}

	if (seeds_build(logs, nlogs, &s)) {
		fprintf(stderr, "tickprobe compare: out of memory gathering the per-clocksource figures\n");
		return;
	}
	contention_print(stdout, logs, nlogs, &s);
	seeds_print(stdout, &s, conf);
	seeds_free(&s);
}

struct compare_opts {
	const char *only[MAX_KEYS], *metric, *confs;
	size_t nonly;
	int ci;
	double conf;
	bool latest, gate;
	struct gate_opts g;
	const char *out;
};

/* --gate and its options; 0, or EXIT_USAGE said. */
static int gate_option(struct args *a, int opt, struct compare_opts *co)
{
	static const char *const formats[] = { "text", "tap", "junit", NULL };
	char why[300];
	int k;

	if (opt == OPT_GATE) {
		co->gate = true;
	} else if (opt == 'o') {
		co->out = a->value;
	} else if (opt == OPT_FORMAT) {
		if (args_choice(a, formats, &k))
			return EXIT_USAGE;
		co->g.format = (enum gate_format)k;
	} else if ((opt == OPT_THRESHOLD && !gate_add_threshold(&co->g, a->value, why, sizeof why)) ||
		   (opt == OPT_THRESHOLDS && !gate_read_thresholds(&co->g, a->value, why, sizeof why))) {
		return args_fail(a, "%s", why);
	}
	return 0;
}

/* -1 to go on, or the exit status. */
static int parse_options(struct args *a, struct compare_opts *co)
{
	int opt;

	while ((opt = args_next(a)) > 0) {
		if (opt == OPT_COUNTER) {
			if (co->nonly == MAX_KEYS)
				return args_fail(a, "more than %d --counter options", MAX_KEYS);
			co->only[co->nonly++] = a->value;
		} else if (opt == OPT_METRIC) {
			if (args_choice(a, compare_metrics, NULL))
				return EXIT_USAGE;
			co->metric = a->value;
		} else if (opt == OPT_LATEST) {
			co->latest = true;
		} else if (opt == 'c') {
			if (args_conf(a, &co->conf, &co->ci))
				return EXIT_USAGE;
			co->confs = a->value;
		} else if (gate_option(a, opt, co) != 0) {
			return EXIT_USAGE;
		}
	}
	if (opt == ARGS_STOP)
		return a->status;
	if (!a->noperands && !co->latest)
		return args_fail(a, "no LOG given (nor --latest)");
	if (!co->gate && (co->out || co->g.format != GATE_TEXT || co->g.nper || co->g.dflt.pct != 10))
		return args_fail(a, "--threshold, --thresholds, --format and -o go with --gate");
	co->g.metric = co->metric;
	co->g.ci = co->ci;
	co->g.conf = co->conf;
	return -1;
}

/* The counters to compare, in order of first appearance. */
static size_t collect_keys(const struct lrun **logs, size_t nlogs, const struct compare_opts *co,
			   char (*keys)[128])
{
	size_t nkeys = 0;

	for (size_t j = 0; j < nlogs; j++) {
		const struct lr_node *t;
		for (size_t i = 0; (t = lrun_timer_at(logs[j], i)) && nkeys < MAX_KEYS; i++) {
			char k[128];
			size_t q;
			int keep = !co->nonly;
			lrun_timer_key(t, k, sizeof k);
			for (q = 0; q < co->nonly; q++)
				keep |= !strcmp(co->only[q], k) || !strcmp(co->only[q], k + (strncmp(k, "os:", 3) ? 0 : 3));
			for (q = 0; q < nkeys && strcmp(keys[q], k); q++)
				;
			if (keep && q == nkeys)
				snprintf(keys[nkeys++], sizeof keys[0], "%s", k);
		}
	}
	return nkeys;
}

/* One counter: each log's per-round values, ministat's comparison with the
 * first, and the cells of the summary table (one per log, from cells). */
static void compare_key(size_t i, const char *key, const struct lrun **logs, size_t nlogs,
			const struct compare_opts *co, struct cell *cells)
{
	struct ms_set *sets = calloc(nlogs, sizeof *sets);
	struct ms_result *res = calloc(nlogs, sizeof *res);
	size_t *idx = calloc(nlogs, sizeof *idx), nsets = 0;
	double **vals = calloc(nlogs, sizeof *vals);
	struct ms_opts mo = { 0, co->conf, 0, 0 };
	char shown[2][SHOWN_LEN];

	if (!sets || !res || !idx || !vals) {
		fprintf(stderr, "tickprobe compare: out of memory\n");
		exit(EXIT_UNREADABLE);
	}
	printf("%s== %s: per-round %s, ns ==\n", i ? "\n" : "", ts_str(shown[0], SHOWN_LEN, key), co->metric);
	for (size_t j = 0; j < nlogs; j++) {
		const struct lr_node *t = lrun_timer_by_key(logs[j], key);
		struct cell *c = &cells[j];
		struct ld_timer timer;
		size_t n;
		if (!t)
			continue;
		ld_decode_timer(t, &timer);
		c->present = 1;
		c->has_p50 = timer.cost_ns.p50.state == LD_SET;
		if (c->has_p50)
			c->p50 = timer.cost_ns.p50.v;
		n = timer_rounds(t, co->metric, &vals[nsets]);
		if (n < 2) {
			printf("%s: %zu round value(s): fewer than 2, no test\n", ts_str(shown[1], SHOWN_LEN, logs[j]->name),
			       n);
			if (!(timer.healthy.state == LD_SET && timer.healthy.v) && timer.reason.state == LD_SET) {
				fputs("  (not healthy: ", stdout);
				ts_puts(stdout, timer.reason.s);
				fputs(")\n", stdout);
			}
			free(vals[nsets]);
			continue;
		}
		sets[nsets].name = logs[j]->name;
		sets[nsets].values = vals[nsets];
		sets[nsets].n = n;
		idx[nsets++] = j;
	}
	if (nsets < 2) {
		printf("fewer than two logs with rounds for %s: nothing to compare\n", shown[0]);
	} else {
		ms_print(stdout, sets, nsets, &mo, res);
		for (size_t s = 1; s < nsets; s++) {
			struct cell *c = &cells[idx[s]];
			c->tested = res[s].tested;
			c->significant = res[s].tested && res[s].diff.significant;
			c->pct = res[s].diff.pct;
		}
	}
	for (size_t s = 0; s < nsets; s++)
		free(vals[s]);
	free(sets);
	free(res);
	free(idx);
	free(vals);
}

/* Every file loaded and reported on; its runs lined up into *logs.  The
 * worst status of the files. */
static int load_files(const struct loglist *paths, struct logfile *files, const struct lrun ***logs, size_t *nlogs)
{
	int status = EXIT_CLEAN;
	size_t runs = 0;

	for (size_t i = 0; i < paths->n; i++) {
		logfile_load(&files[i], paths->paths[i]);
		logfile_report(&files[i], stderr, "tickprobe compare");
		status = exit_worse(status, files[i].status);
		runs += files[i].nruns;
	}
	*logs = calloc(runs + 1, sizeof(const struct lrun *));
	*nlogs = *logs ? lineup_runs(files, paths->n, *logs, runs + 1) : 0;
	return status;
}

/* --gate: the verdict, to stdout or -o; its status over the logs'. */
static int gate(const struct compare_opts *co, const struct lrun **logs, size_t nlogs, int status)
{
	FILE *out = co->out ? fopen(co->out, "w") : stdout;
	int rc;

	if (!out) {
		fprintf(stderr, "tickprobe compare: -o %s: %s\n", co->out, strerror(errno));
		return EXIT_UNREADABLE;
	}
	rc = gate_run(out, logs[0], logs + 1, nlogs - 1, &co->g);
	if (co->out && fclose(out)) {
		fprintf(stderr, "tickprobe compare: -o %s: %s\n", co->out, strerror(errno));
		return EXIT_UNREADABLE;
	}
	return rc == EXIT_REGRESSED ? rc : status;
}

int cmd_compare(int argc, char **argv)
{
	static char keys[MAX_KEYS][128], shown[MAX_KEYS][SHOWN_LEN];
	struct compare_opts co = { .metric = "p50", .confs = "95", .ci = stats_conf_index(95), .conf = 95,
				   .g = { .dflt = { "*", 10, -1 } } };
	struct logfile *files;
	const struct lrun **logs = NULL;
	size_t nlogs = 0, nkeys;
	int status;
	struct loglist paths = { 0 };
	struct cell *cells;
	struct args a;

	args_start(&a, &compare_spec, argc, argv);
	if ((status = parse_options(&a, &co)) >= 0)
		return status;
	status = loglist_from_operands(&paths, a.operands, (size_t)a.noperands, co.latest, "tickprobe compare");
	files = calloc(paths.n + 1, sizeof *files);
	if (!files) {
		fprintf(stderr, "tickprobe compare: out of memory\n");
		return EXIT_UNREADABLE;
	}
	status = exit_worse(status, load_files(&paths, files, &logs, &nlogs));
	if (status == EXIT_UNREADABLE || nlogs < 2) {
		if (status != EXIT_UNREADABLE)
			fprintf(stderr, "tickprobe compare: need at least two logs (or runs), found %zu\n", nlogs);
	} else if (co.gate) {
		status = gate(&co, logs, nlogs, status);
	} else {
		if (!(nkeys = collect_keys(logs, nlogs, &co, keys))) {
			fprintf(stderr, "tickprobe compare: no %scounters in the logs\n", co.nonly ? "such " : "");
			status = exit_worse(status, EXIT_UNREADABLE);
		}
		for (size_t i = 0; i < nkeys; i++)
			ts_str(shown[i], SHOWN_LEN, keys[i]);
		cells = calloc(nkeys * nlogs + 1, sizeof *cells);
		for (size_t i = 0; i < nkeys && cells; i++)
			compare_key(i, keys[i], logs, nlogs, &co, &cells[i * nlogs]);
		if (cells && nkeys)
			summary(shown, nkeys, logs, nlogs, cells, co.confs);
		os_figures(logs, nlogs, co.metric, co.ci, co.conf);
		os_overhead(logs, nlogs, co.metric, co.ci, co.conf);
		compare_cpus(logs, nlogs, out_width());
		compare_watches(logs, nlogs);
		free(cells);
	}
	for (size_t i = 0; i < paths.n; i++)
		logfile_free(&files[i]);
	free(files);
	free(logs);
	loglist_free(&paths);
	if (status != EXIT_UNREADABLE && nlogs < 2)
		return EXIT_USAGE;
	return status;
}
