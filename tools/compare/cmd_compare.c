/* tickprobe compare LOG LOG… [--counter NAME] [--metric p50|mean] [-c 95]
 *
 * For every counter, the per-round values (timer `rounds`, ns) of each log
 * against the first log that has the counter, as ministat does it (Student's
 * t on the rounds: a round is one independent repetition, the reads inside it
 * are not).  Then a summary table counter x log, and, when an OS-side log
 * (boot "linux") is among them, what the kernel's clock call adds on top of
 * the bare hardware read of the same counter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/commands.h"
#include "tools/common/args.h"
#include "tools/compare/lineup.h"
#include "tools/log/logset.h"
#include "tools/stat/ministat_print.h"

#define MAX_LOGS 64
#define MAX_KEYS 64

enum { OPT_COUNTER = ARGS_OPT_FIRST, OPT_METRIC };

static const struct option compare_options[] = {
	{ "counter", required_argument, NULL, OPT_COUNTER },
	{ "metric", required_argument, NULL, OPT_METRIC },
	ARGS_OPTIONS_END
};

static const struct args_spec compare_spec = {
	.name = "compare",
	.synopsis = "LOG LOG... [--counter NAME]... [--metric p50|mean] [-c LEVEL]",
	.help = "  Compare the per-round values of each counter with the first log, ministat-style.\n"
		"  A file with several runs counts as several logs (FILE#N); at most 64 in all.\n"
		"  --counter NAME  only this counter (repeat for more); default: every one\n"
		"  --metric        which per-round value: p50 (default) or mean\n"
		"  -c LEVEL        confidence level 80, 90, 95 (default), 98, 99 or 99.5\n",
	.shortopts = "c:",
	.longopts = compare_options,
	.operand = "LOG",
	.min_operands = 1, /* one file may hold the two runs */
	.max_operands = MAX_LOGS,
};

static const char *const compare_metrics[] = { "p50", "mean", NULL };

/* A timer's key in the per-counter comparison: OS-side clock calls (which
 * name a clocksource) never mix with a hardware counter of the same name; an
 * OS log's bare reads (`tsc`, clocksource null) do line up with the probe's. */
static void timer_key(const struct lr_node *t, char *buf, size_t cap)
{
	const char *name = lr_str(lr_get(t, "name"));
	snprintf(buf, cap, "%s%s", lr_str(lr_get(t, "clocksource")) ? "os:" : "", name ? name : "?");
}

static const struct lr_node *find_key(const struct lrun *r, const char *key)
{
	const struct lr_node *t;
	char k[128];
	for (size_t i = 0; (t = lrun_timer_at(r, i)); i++) {
		timer_key(t, k, sizeof k);
		if (!strcmp(k, key))
			return t;
	}
	return NULL;
}

struct cell {
	int present, has_p50;
	double p50;     /* the timer's cost_ns.p50 */
	int tested, significant;
	double pct;
};

static void summary(char keys[][128], size_t nkeys, const struct lrun *const *logs, size_t nlogs,
		    struct cell *cells, const char *conf)
{
	int w = 7;
	for (size_t i = 0; i < nkeys; i++)
		if ((int)strlen(keys[i]) > w)
			w = (int)strlen(keys[i]);
	printf("\nSummary: p50 ns per read; '*' = differs from the first log with that counter at %s%% "
	       "confidence (difference of per-round means)\n", conf);
	for (size_t j = 0; j < nlogs; j++)
		printf("  [%zu] %s\n", j + 1, logs[j]->name);
	printf("%-*s", w, "counter");
	for (size_t j = 0; j < nlogs; j++) {
		char h[16];
		snprintf(h, sizeof h, "[%zu]", j + 1);
		printf(" %18s", h);
	}
	printf("\n");
	for (size_t i = 0; i < nkeys; i++) {
		printf("%-*s", w, keys[i]);
		for (size_t j = 0; j < nlogs; j++) {
			const struct cell *c = &cells[i * nlogs + j];
			char b[48];
			if (!c->present)
				snprintf(b, sizeof b, "-");
			else if (!c->has_p50)
				snprintf(b, sizeof b, "unhealthy");
			else if (c->significant)
				snprintf(b, sizeof b, "%.1f *%+.1f%%", c->p50, c->pct);
			else
				snprintf(b, sizeof b, "%.1f", c->p50);
			printf(" %18s", b);
		}
		printf("\n");
	}
}

/* What the kernel's clock call adds on top of the bare hardware read of the
 * same counter (tools/compare/lineup.h): the median of each side's per-round values,
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
		const char *call = r->call ? r->call : "?";
		if (!i) {
			printf("\nKernel path over the bare hardware read (per-round %s, ns; "
			       "%.1f%% confidence):\n", metric, conf);
			printf("%-10s %-10s %10s %10s  %-24s %s\n", "clocksrc", "counter", "os ns", "hw ns",
			       "overhead ns", "call (os log vs hardware log)");
		}
		if (!r->tested) {
			printf("%-10s %-10s  fewer than 2 rounds: no test   %s (%s vs %s)\n", r->clocksource,
			       r->counter, call, r->os_run->name, r->hw_run->name);
		} else {
			char ov[64];
			snprintf(ov, sizeof ov, "%g +/- %g%s", r->diff, r->err, r->significant ? "" : " (n.s.)");
			printf("%-10s %-10s %10.1f %10.1f  %-24s %s (%s vs %s)\n", r->clocksource, r->counter,
			       r->os_p50, r->hw_p50, ov, call, r->os_run->name, r->hw_run->name);
		}
	}
	lineup_free(&lu);
}

int cmd_compare(int argc, char **argv)
{
	static struct logfile files[MAX_LOGS];
	static char keys[MAX_KEYS][128];
	const struct lrun *logs[MAX_LOGS + 1]; /* one more: to see that there are too many */
	const char *only[MAX_KEYS], *metric = "p50", *confs = "95";
	size_t nfiles = 0, nlogs = 0, nkeys = 0, nonly = 0;
	int status = EXIT_CLEAN, ci = stats_conf_index(95), opt;
	double conf = 95;
	struct args a;

	args_start(&a, &compare_spec, argc, argv);
	while ((opt = args_next(&a)) > 0) {
		if (opt == OPT_COUNTER) {
			if (nonly == MAX_KEYS)
				return args_fail(&a, "more than %d --counter options", MAX_KEYS);
			only[nonly++] = a.value;
		} else if (opt == OPT_METRIC) {
			if (args_choice(&a, compare_metrics, NULL))
				return EXIT_USAGE;
			metric = a.value;
		} else if (opt == 'c') {
			if (args_conf(&a, &conf, &ci))
				return EXIT_USAGE;
			confs = a.value;
		}
	}
	if (opt == ARGS_STOP)
		return a.status;
	for (int i = 0; i < a.noperands; i++)
		files[nfiles++].path = a.operands[i]; /* loaded below */
	for (size_t i = 0; i < nfiles; i++) {
		const char *path = files[i].path;
		logfile_load(&files[i], path);
		logfile_report(&files[i], stderr, "tickprobe compare");
		status = exit_worse(status, files[i].status);
	}
	nlogs = lineup_runs(files, nfiles, logs, MAX_LOGS + 1);
	if (nlogs > MAX_LOGS) {
		for (size_t i = 0; i < nfiles; i++)
			logfile_free(&files[i]);
		return args_fail(&a, "the LOGs hold more than %d runs: compare fewer at a time", MAX_LOGS);
	}
	if (status == EXIT_UNREADABLE || nlogs < 2) {
		if (status != EXIT_UNREADABLE)
			fprintf(stderr, "tickprobe compare: need at least two logs (or runs), found %zu\n", nlogs);
		for (size_t i = 0; i < nfiles; i++)
			logfile_free(&files[i]);
		return status == EXIT_UNREADABLE ? status : EXIT_USAGE;
	}
	/* Counters in order of first appearance. */
	for (size_t j = 0; j < nlogs; j++) {
		const struct lr_node *t;
		for (size_t i = 0; (t = lrun_timer_at(logs[j], i)) && nkeys < MAX_KEYS; i++) {
			char k[128];
			size_t q;
			int keep = !nonly;
			timer_key(t, k, sizeof k);
			for (q = 0; q < nonly; q++)
				keep |= !strcmp(only[q], k) || !strcmp(only[q], k + (strncmp(k, "os:", 3) ? 0 : 3));
			for (q = 0; q < nkeys && strcmp(keys[q], k); q++)
				;
			if (keep && q == nkeys)
				snprintf(keys[nkeys++], sizeof keys[0], "%s", k);
		}
	}
	if (!nkeys) {
		fprintf(stderr, "tickprobe compare: no %scounters in the logs\n", nonly ? "such " : "");
		status = exit_worse(status, EXIT_UNREADABLE);
	}

	struct cell *cells = calloc(nkeys * nlogs + 1, sizeof *cells);
	for (size_t i = 0; i < nkeys && cells; i++) {
		struct ms_set sets[MAX_LOGS];
		struct ms_result res[MAX_LOGS];
		size_t idx[MAX_LOGS], nsets = 0;
		double *vals[MAX_LOGS];
		struct ms_opts mo = { 0, conf, 0, 0 };

		printf("%s== %s: per-round %s, ns ==\n", i ? "\n" : "", keys[i], metric);
		for (size_t j = 0; j < nlogs; j++) {
			const struct lr_node *t = find_key(logs[j], keys[i]);
			struct cell *c = &cells[i * nlogs + j];
			size_t n;
			if (!t)
				continue;
			c->present = 1;
			c->has_p50 = lr_num(lr_path(t, "cost_ns.p50"), &c->p50);
			n = timer_rounds(t, metric, &vals[nsets]);
			if (n < 2) {
				printf("%s: %zu round value(s): fewer than 2, no test\n", logs[j]->name, n);
				if (!lr_true(lr_get(t, "healthy")) && lr_str(lr_get(t, "reason")))
					printf("  (not healthy: %s)\n", lr_str(lr_get(t, "reason")));
				free(vals[nsets]);
				continue;
			}
			sets[nsets].name = logs[j]->name;
			sets[nsets].values = vals[nsets];
			sets[nsets].n = n;
			idx[nsets++] = j;
		}
		if (nsets < 2) {
			printf("fewer than two logs with rounds for %s: nothing to compare\n", keys[i]);
		} else {
			ms_print(stdout, sets, nsets, &mo, res);
			for (size_t s = 1; s < nsets; s++) {
				struct cell *c = &cells[i * nlogs + idx[s]];
				c->tested = res[s].tested;
				c->significant = res[s].tested && res[s].diff.significant;
				c->pct = res[s].diff.pct;
			}
		}
		for (size_t s = 0; s < nsets; s++)
			free(vals[s]);
	}
	if (cells && nkeys)
		summary(keys, nkeys, logs, nlogs, cells, confs);
	os_overhead(logs, nlogs, metric, ci, conf);
	free(cells);
	for (size_t i = 0; i < nfiles; i++)
		logfile_free(&files[i]);
	return status;
}
