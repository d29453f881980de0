/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe export LOG… --format raw|csv|json [--counter NAME] [--samples]
 *                        [--metric p50|mean] [--run N]
 *
 *   raw   one number per line, for ministat: the per-round values of the
 *         counter(s) in ns, or with --samples every read's cost in cycles,
 *         expanded from the `hist` (either schema: probe/hist_codec.h);
 *   csv   one row per counter and run, with the machine's identity: its text
 *         cells escaped and kept from running as formulas (ts_csv_cell),
 *         its numbers as the log wrote them;
 *   json  the good records, one per line, exactly as written. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/lib/logdir.h"
#include "tools/lib/logschema.h"
#include "tools/lib/logset.h"
#include "tools/lib/metrics.h"
#include "tools/lib/hist_decode.h"
#include "tools/lib/textsafe.h"

#define MAX_COUNTERS 32

enum { OPT_FORMAT = ARGS_OPT_FIRST, OPT_COUNTER, OPT_SAMPLES, OPT_METRIC, OPT_RUN, OPT_LATEST };

static const struct option export_options[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "counter", required_argument, NULL, OPT_COUNTER },
	{ "samples", no_argument, NULL, OPT_SAMPLES },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "latest", no_argument, NULL, OPT_LATEST },
	ARGS_OPTIONS_END
};

static const struct args_spec export_spec = {
	.name = "export",
	.synopsis = "LOG|DIR... [--format raw|csv|json] [--counter NAME]...\n"
		    "                        [--samples] [--metric p50|mean] [--run N] [--latest]",
	.help = "  raw   per-round values in ns (--metric, default p50), one per line; with\n"
		"        --samples every read's cost in cycles from the histogram\n"
		"  csv   one row per counter and run.  Text cells (log, cpu_brand, hypervisor,\n"
		"        counter, reason) are quoted; their control characters are shown\n"
		"        escaped (\\x1b), and a cell that begins with = + - @, a tab or a\n"
		"        carriage return gets a ' in front, so that a spreadsheet shows it as\n"
		"        text and never runs it as a formula.  Numbers are left as the log\n"
		"        wrote them, unquoted: a negative one (freq_ppm -3.2) stays a number.\n"
		"  json  the run's good records, one per line, unchanged: byte for byte what\n"
		"        the log holds, a log itself (its CRCs still hold), not text to show\n"
		"  openmetrics, prometheus  each run's figures as metrics (OpenMetrics, or the\n"
		"        text format node_exporter's textfile collector reads), labelled by log:\n"
		"        read costs, the TSC verdict, a watch's rates, clock_gettime per clocksource\n"
		"  --counter may be repeated or take a comma list; default: every counter.\n"
		"  A DIR stands for every *.log below it; --latest takes only the newest log\n"
		"  (of the DIRs given, else of /boot/efi/tickprobe/logs and mounted sticks).\n"
		"  Messages on stderr that quote a log show its control characters escaped.\n",
	.longopts = export_options,
	.operand = "LOG",
	.min_operands = 0, /* LOG... or --latest: checked below */
	.max_operands = ARGS_MANY, /* each LOG is read, written and freed in turn */
};

static const char *const export_formats[] = { "raw", "csv", "json", "openmetrics", "prometheus", NULL };
static const char *const export_metrics[] = { "p50", "mean", NULL };

struct opts {
	const char *format, *metric;
	const char *counters[MAX_COUNTERS];
	int ncounters, samples;
	long run;
	int *used; /* per counter: found somewhere */
};

static int wanted(const struct opts *o, const char *name)
{
	if (!o->ncounters)
		return 1;
	for (int i = 0; i < o->ncounters; i++)
		if (name && !strcmp(o->counters[i], name))
			return o->used[i] = 1;
	return 0;
}

/* A number as the log wrote it, unquoted: the reader held it to JSON's
 * grammar, so it is digits with at most a leading '-' (a negative number,
 * which a spreadsheet reads as one), never a formula. */
static void csv_num(const struct lr_node *n)
{
	char b[64];
	putchar(',');
	if (n && n->kind == LR_NUM)
		fputs(fmt_num(b, sizeof b, n, -1), stdout);
}

/* The counter a timer or samples record is of, NULL when it names none. */
static const char *counter_name(const struct lrec *rec)
{
	struct ld_timer t;
	struct ld_samples s;

	if (!strcmp(rec->type, "samples")) {
		ld_decode_samples(rec->root, &s);
		return ld_str_or(s.name, NULL);
	}
	ld_decode_timer(rec->root, &t);
	return ld_str_or(t.name, NULL);
}

static size_t export_raw(const struct lrun *r, const struct lr_node *node, const struct opts *o)
{
	struct ld_timer t;
	size_t n = 0;

	ld_decode_timer(node, &t);
	if (o->samples) {
		struct hist_dec d;
		uint64_t v, c;
		int got;
		hist_dec_init(&d, t.hist.node);
		while ((got = hist_dec_next(&d, &v, &c)) == 1)
			for (; c; c--, n++)
				printf("%llu\n", (unsigned long long)v);
		if (got < 0) {
			char name[2][160];
			fprintf(stderr, "tickprobe export: %s: bad hist in %s (%s), the rest skipped\n",
				ts_str(name[0], sizeof name[0], r->name),
				t.name.state == LD_SET ? ts_str(name[1], sizeof name[1], t.name.s) : "?", d.err);
		}
		return n;
	}
	const struct lr_node *v;
	struct lr_rounds it;
	lr_rounds_init(&it, t.rounds.node, o->metric);
	while (lr_rounds_next(&it, &v)) {
		char b[64];
		if (v && v->kind == LR_NUM) {
			printf("%s\n", fmt_num(b, sizeof b, v, -1));
			n++;
		}
	}
	return n;
}

static void export_csv(const struct lrun *r, size_t runno, const struct lr_node *node)
{
	struct ld_machine m;
	struct ld_timer t;

	ld_decode_machine(lrun_first(r, "machine"), &m);
	ld_decode_timer(node, &t);
	const struct lr_node *cols[] = {
		t.cost_ns.p50.node,  t.cost_ns.min.node,    t.cost_ns.mean.node,           t.cost_ns.sd.node,
		t.cost_ns.p99.node,  t.cost_ns.max.node,    t.throughput.reads_per_s.node, t.freq.ppm.node,
		t.freq.err_ppm.node, t.cost_cycles.p50.node
	};
	ts_csv_cell(stdout, r->name);
	printf(",%zu,", runno);
	ts_csv_cell(stdout, ld_str_or(m.cpu_brand, NULL));
	putchar(',');
	ts_csv_cell(stdout, ld_str_or(m.hypervisor, NULL));
	putchar(',');
	ts_csv_cell(stdout, ld_str_or(t.name, NULL));
	printf(",%s", ld_true(t.healthy) ? "true" : "false");
	csv_num(t.samples.node);
	for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
		csv_num(cols[k]);
	putchar(',');
	ts_csv_cell(stdout, ld_str_or(t.reason, NULL));
	putchar('\n');
}

static int add_counters(struct opts *o, char *list)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (o->ncounters == MAX_COUNTERS)
			return -1;
		o->counters[o->ncounters++] = tok;
	}
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct opts o = { "raw", "p50", { 0 }, 0, 0, 0, NULL };
	int status = EXIT_CLEAN, used[MAX_COUNTERS] = { 0 }, opt;
	size_t values = 0, counters_out = 0;
	bool latest = false;
	struct loglist logs = { 0 };
	struct args a;

	o.used = used;
	args_start(&a, &export_spec, argc, argv);
	while ((opt = args_next(&a)) > 0) {
		if (opt == OPT_SAMPLES) {
			o.samples = 1;
		} else if (opt == OPT_FORMAT) {
			if (args_choice(&a, export_formats, NULL))
				return EXIT_USAGE;
			o.format = a.value;
		} else if (opt == OPT_METRIC) {
			if (args_choice(&a, export_metrics, NULL))
				return EXIT_USAGE;
			o.metric = a.value;
		} else if (opt == OPT_COUNTER) {
			if (add_counters(&o, a.value))
				return args_fail(&a, "more than %d counters", MAX_COUNTERS);
		} else if (opt == OPT_LATEST) {
			latest = true;
		} else if (opt == OPT_RUN && args_long(&a, 1, LONG_MAX, &o.run)) {
			return EXIT_USAGE;
		}
	}
	if (opt == ARGS_STOP)
		return a.status;
	if (!a.noperands && !latest)
		return args_fail(&a, "no LOG given (nor --latest)");
	status = loglist_from_operands(&logs, a.operands, (size_t)a.noperands, latest, "tickprobe export");
	if (!strcmp(o.format, "openmetrics") || !strcmp(o.format, "prometheus")) {
		status = exit_worse(status, metrics_export(logs.paths, logs.n, !strcmp(o.format, "openmetrics"), o.run));
		loglist_free(&logs);
		return status;
	}
	char **files = logs.paths;
	int nfiles = (int)logs.n;
	if (!strcmp(o.format, "csv"))
		printf("log,run,cpu_brand,hypervisor,counter,healthy,samples,p50_ns,min_ns,mean_ns,sd_ns,"
		       "p99_ns,max_ns,reads_per_s,freq_ppm,freq_err_ppm,p50_cycles,reason\n");

	for (int i = 0; i < nfiles; i++) {
		struct logfile f;
		logfile_load(&f, files[i]);
		logfile_report(&f, stderr, "tickprobe export");
		status = exit_worse(status, f.status);
		for (size_t k = 0; k < f.nruns; k++) {
			const struct lrun *r = &f.runs[k];
			if ((o.run && (size_t)o.run != k + 1) || r->info.newer_schema)
				continue;
			for (size_t j = 0; j < r->nrecs; j++) {
				const struct lrec *rec = &r->recs[j];
				int counter_rec = rec->type && (!strcmp(rec->type, "timer") || !strcmp(rec->type, "samples"));
				const char *name = counter_rec ? counter_name(rec) : NULL;
				if (counter_rec && !wanted(&o, name))
					continue;
				if (!strcmp(o.format, "json")) {
					fwrite(rec->text, 1, rec->len, stdout);
					putchar('\n');
					continue;
				}
				if (!rec->type || strcmp(rec->type, "timer"))
					continue;
				counters_out++;
				if (!strcmp(o.format, "csv"))
					export_csv(r, k + 1, rec->root);
				else
					values += export_raw(r, rec->root, &o);
			}
		}
		logfile_free(&f);
	}
	for (int c = 0; c < o.ncounters; c++)
		if (!used[c]) {
			fprintf(stderr, "tickprobe export: no counter '%s' in the log(s)\n", o.counters[c]);
			status = exit_worse(status, EXIT_USAGE);
		}
	if (!strcmp(o.format, "raw")) {
		if (counters_out > 1)
			fprintf(stderr, "tickprobe export: note: values of %zu counters, one after another "
					"(pick one with --counter)\n", counters_out);
		if (!values && status == EXIT_CLEAN) {
			fprintf(stderr, "tickprobe export: no %s values in the log(s)\n",
				o.samples ? "histogram" : "per-round");
			status = EXIT_UNREADABLE;
		}
	}
	loglist_free(&logs);
	return status;
}
