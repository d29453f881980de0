/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe db: many machines' logs in one SQLite store (docs/db.md).
 *
 *   tickprobe db import DB LOG|DIR…     every run, once, whoever imports it
 *   tickprobe db summary DB [--by …]    each counter across machines
 *   tickprobe db compare DB A B         A against B, machine by machine
 *
 * The seed question, "on how many machines is the HPET faster than
 * ACPI-fast, and by how much?", is `tickprobe db compare DB hpet acpi-fast`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/json_out.h"
#include "tools/lib/stats.h"
#include "tools/commands.h"
#include "tools/lib/progress.h"
#include "tools/lib/args.h"
#include "tools/lib/xalloc.h"
#include "tools/lib/db_import.h"
#include "tools/lib/db_query.h"
#include "tools/lib/db_store.h"
#include "tools/lib/logdir.h"
#include "tools/lib/textsafe.h"

static const char import_help[] =
	"  Reads logs (a directory: every *.log below it, in name order) into the SQLite store DB,\n"
	"  creating it.  A run already in the store is skipped, so importing twice adds nothing.\n"
	"  A run's machine is the CPU its machine record names, or --machine NAME, or with\n"
	"  --machine-from-dir the name of the directory the log is in.\n"
	"  --batch N   runs per transaction (default 500)\n"
	"  -q          no per-file problem lines\n";
static const char summary_help[] =
	"  Per counter across machines: machines, median, IQR, min and max of their p50s.\n"
	"  --by cpu|vendor|firmware|boot   one table per CPU brand, vendor, firmware or boot path\n"
	"  --json                          one JSON document (docs/db.md)\n" TS_HELP;
static const char compare_help[] =
	"  On every machine with both counters, Student's t on their per-round values: how many\n"
	"  machines find A faster, B faster, or no difference, and the A/B ratio.  COUNTER is a\n"
	"  hardware counter (hpet) or a clock call (clock_gettime(MONOTONIC)@hpet).\n"
	"  -c LEVEL         confidence: 80, 90, 95 (default), 98, 99, 99.5\n"
	"  --metric p50|mean  which per-round value\n"
	"  --json           one JSON document;  -v  every machine\n" TS_HELP;

/* "tickprobe db: WHY" on stderr: a store's message can quote what it holds. */
static void db_say(const char *why, const char *after)
{
	fputs("tickprobe db: ", stderr);
	ts_puts(stderr, why);
	fputs(after, stderr);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: tickprobe db import DB LOG|DIR... [--machine NAME | --machine-from-dir] [--batch N] [-q]\n"
		   "       tickprobe db summary DB [--by cpu|vendor|firmware|boot] [--json]\n"
		   "       tickprobe db compare DB COUNTER_A COUNTER_B [-c 95] [--metric p50|mean] [--json] [-v]\n"
		   "  (tickprobe db COMMAND --help for more)\n" ARGS_EXIT_TEXT);
}

/* ---- import ----------------------------------------------------------------- */

/* The logs in order: a long one streamed in its turn (importer_file), the
 * others loaded ahead on a second thread (tools/lib/logahead.h).  The worst
 * status; a store failure stops it, said on stderr. */
static int import_all(struct importer *im, const struct loglist *files, bool quiet, struct import_totals *t)
{
	struct ahead_work work = importer_work(im);
	bool *streamed = xrealloc(NULL, (files->n + 1) * sizeof *streamed);
	char **loaded = xrealloc(NULL, (files->n + 1) * sizeof *loaded), why[512] = "";
	size_t nloaded = 0;
	struct ahead *ahead;
	struct logfile *f;
	struct progress prog;
	int status = EXIT_CLEAN;
	double t0;
	void *made;

	for (size_t i = 0; i < files->n; i++) {
		streamed[i] = importer_streams(files->paths[i]);
		if (!streamed[i])
			loaded[nloaded++] = files->paths[i];
	}
	if (!(ahead = ahead_start(loaded, nloaded, &work))) {
		fprintf(stderr, "tickprobe db: out of memory\n");
		exit(EXIT_UNREADABLE);
	}
	progress_init(&prog, "tickprobe db import", stderr, quiet);
	t0 = progress_now();
	for (size_t i = 0; i < files->n; i++) {
		double spent;
		int rc;
		if (streamed[i])
			rc = importer_file(im, files->paths[i], t, why, sizeof why);
		else if ((f = ahead_next(ahead, &made)))
			rc = importer_logfile(im, f, made, t, why, sizeof why);
		else
			break;
		spent = progress_now() - t0;
		progress_show(&prog, "logs", (unsigned)t->files, (unsigned)files->n,
			      t->files ? spent / (double)t->files * (double)(files->n - t->files) : -1, false);
		if (rc == EXIT_UNREADABLE && why[0]) { /* the store failed: stop, nothing half-kept */
			db_say(why, "; the last batch was not kept\n");
			status = EXIT_UNREADABLE;
			break;
		}
		status = exit_worse(status, rc);
		why[0] = 0; /* set by the importer only when the store itself fails */
	}
	if ((status != EXIT_UNREADABLE || !why[0]) && !importer_finish(im, why, sizeof why)) {
		db_say(why, "; the last batch was not kept\n");
		status = EXIT_UNREADABLE;
	}
	progress_clear(&prog);
	ahead_stop(ahead);
	free(streamed);
	free(loaded);
	return status;
}

static int db_import(int argc, char **argv)
{
	enum { OPT_MACHINE = ARGS_OPT_FIRST, OPT_FROM_DIR, OPT_BATCH, OPT_QUIET };
	static const struct option longopts[] = { { "machine", required_argument, NULL, OPT_MACHINE },
						  { "machine-from-dir", no_argument, NULL, OPT_FROM_DIR },
						  { "batch", required_argument, NULL, OPT_BATCH },
						  { "quiet", no_argument, NULL, OPT_QUIET },
						  ARGS_OPTIONS_END };
	static const struct args_spec spec = {
		.name = "db import", .synopsis = "DB LOG|DIR... [--machine NAME | --machine-from-dir] [--batch N] [-q]",
		.help = import_help, .shortopts = "q", .longopts = longopts, .operand = "DB LOG|DIR",
		.min_operands = 2, .max_operands = ARGS_MANY,
	};
	struct import_options o = { .batch = 500 };
	struct import_totals t = { 0 };
	struct loglist files = { 0 };
	struct store s;
	struct importer *im;
	struct args a;
	char why[512];
	long batch;
	int c, status = EXIT_CLEAN;

	args_start(&a, &spec, argc, argv);
	while ((c = args_next(&a)) > 0) {
		if (c == OPT_MACHINE)
			o.machine = a.value;
		else if (c == OPT_FROM_DIR)
			o.machine_from_dir = true;
		else if (c == OPT_BATCH) {
			if (args_long(&a, 1, 1000000, &batch))
				return EXIT_USAGE;
			o.batch = (unsigned)batch;
		} else if (c == 'q' || c == OPT_QUIET)
			o.quiet = true;
	}
	if (c == ARGS_STOP)
		return a.status;
	if (o.machine && o.machine_from_dir)
		return args_fail(&a, "--machine and --machine-from-dir exclude each other");
	status = loglist_expand(&files, a.operands + 1, (size_t)a.noperands - 1, "tickprobe db");
	if (store_open(&s, a.operands[0], true, why, sizeof why) != EXIT_CLEAN) {
		db_say(why, "\n");
		return EXIT_UNREADABLE;
	}
	im = importer_new(&s, &o);
	if (!im) {
		fprintf(stderr, "tickprobe db: out of memory\n");
		exit(EXIT_UNREADABLE);
	}
	status = exit_worse(status, import_all(im, &files, o.quiet, &t));
	importer_free(im);
	store_close(&s);
	printf("tickprobe db: %llu files, %llu runs: %llu imported, %llu already in the store, "
	       "%llu without a machine record; %llu new machines; %llu damaged records left out\n",
	       (unsigned long long)t.files, (unsigned long long)t.runs_seen, (unsigned long long)t.runs_new,
	       (unsigned long long)t.duplicates, (unsigned long long)t.skipped,
	       (unsigned long long)t.machines_new, (unsigned long long)t.damaged_records);
	loglist_free(&files);
	return status;
}

/* ---- summary ---------------------------------------------------------------- */

static void json_counters(const struct fleet_group *g)
{
	printf("\"counters\":{");
	for (size_t k = 0; k < g->ncounters; k++) {
		const struct fleet_counter *c = &g->counters[k];
		printf("%s", k ? "," : "");
		json_out_str(stdout, c->name);
		/* 10 digits: a p50 of 1.5 ms keeps its 0.1 ns (%.6g gave 1.23457e+06) */
		printf(":{\"machines\":%zu,\"median_p50_ns\":%.10g,\"iqr_p50_ns\":%.10g,\"q1_p50_ns\":%.10g,"
		       "\"q3_p50_ns\":%.10g,\"min_p50_ns\":%.10g,\"max_p50_ns\":%.10g}",
		       c->machines, c->median, c->q3 - c->q1, c->q1, c->q3, c->min, c->max);
	}
	printf("}");
}

/* The store's names come from logs: shown escaped (tools/lib/textsafe.h). */
static void text_counters(const struct fleet_group *g)
{
	char name[256];

	printf("  %-40s %8s %12s %10s %10s %10s\n", "counter", "machines", "median p50", "IQR", "min", "max");
	for (size_t k = 0; k < g->ncounters; k++) {
		const struct fleet_counter *c = &g->counters[k];
		printf("  %-40s %8zu %12.1f %10.1f %10.1f %10.1f\n", ts_str(name, sizeof name, c->name), c->machines,
		       c->median, c->q3 - c->q1, c->min, c->max);
	}
}

static int db_summary(int argc, char **argv)
{
	enum { OPT_BY = ARGS_OPT_FIRST, OPT_JSON };
	static const struct option longopts[] = { { "by", required_argument, NULL, OPT_BY },
						  { "json", no_argument, NULL, OPT_JSON },
						  ARGS_OPTIONS_END };
	static const struct args_spec spec = {
		.name = "db summary", .synopsis = "DB [--by cpu|vendor|firmware|boot] [--json]", .help = summary_help,
		.longopts = longopts, .operand = "DB", .min_operands = 1, .max_operands = 1,
	};
	static const char *const groupings[] = { "cpu", "vendor", "firmware", "boot", NULL };
	const char *by = NULL;
	bool json = false;
	struct fleet_group *all, *groups = NULL;
	struct store s;
	struct args a;
	char why[512];
	int c, n, ng = 0, k;

	args_start(&a, &spec, argc, argv);
	while ((c = args_next(&a)) > 0) {
		if (c == OPT_BY) {
			if (args_choice(&a, groupings, &k))
				return EXIT_USAGE;
			by = groupings[k];
		} else if (c == OPT_JSON)
			json = true;
	}
	if (c == ARGS_STOP)
		return a.status;
	if (store_open(&s, a.operands[0], false, why, sizeof why) != EXIT_CLEAN) {
		db_say(why, "\n");
		return EXIT_UNREADABLE;
	}
	n = fleet_summary(&s, NULL, &all, why, sizeof why);
	if (n > 0 && by)
		ng = fleet_summary(&s, by, &groups, why, sizeof why);
	store_close(&s);
	if (n < 0 || ng < 0) {
		db_say(why, "\n");
		return EXIT_UNREADABLE;
	}
	if (json) {
		printf("{\"runs\":%lld,\"machines\":%lld,\"damaged_records\":%lld,", all->runs, all->machines,
		       all->damaged_records);
		json_counters(all);
		if (by) {
			printf(",\"by\":\"%s\",\"groups\":[", by);
			for (int i = 0; i < ng; i++) {
				printf("%s{\"group\":", i ? "," : "");
				if (groups[i].group)
					json_out_str(stdout, groups[i].group);
				else
					printf("null");
				printf(",\"runs\":%lld,\"machines\":%lld,\"damaged_records\":%lld,", groups[i].runs,
				       groups[i].machines, groups[i].damaged_records);
				json_counters(&groups[i]);
				printf("}");
			}
			printf("]");
		}
		printf("}\n");
	} else {
		printf("%lld runs, %lld machines, %lld damaged records left out; p50 per read in ns, one value "
		       "per machine (the median of its runs)\n", all->runs, all->machines, all->damaged_records);
		if (!by)
			text_counters(all);
		for (int i = 0; i < ng; i++) {
			printf("\n%s ", by);
			ts_puts(stdout, groups[i].group ? groups[i].group : "(unknown)");
			printf(": %lld runs, %lld machines\n", groups[i].runs, groups[i].machines);
			text_counters(&groups[i]);
		}
	}
	fleet_groups_free(all, n);
	fleet_groups_free(groups, ng);
	return EXIT_CLEAN;
}

/* ---- compare ---------------------------------------------------------------- */

static int db_compare(int argc, char **argv)
{
	enum { OPT_METRIC = ARGS_OPT_FIRST, OPT_JSON, OPT_VERBOSE };
	static const struct option longopts[] = { { "metric", required_argument, NULL, OPT_METRIC },
						  { "json", no_argument, NULL, OPT_JSON },
						  { "verbose", no_argument, NULL, OPT_VERBOSE },
						  ARGS_OPTIONS_END };
	static const struct args_spec spec = {
		.name = "db compare", .synopsis = "DB COUNTER_A COUNTER_B [-c 95] [--metric p50|mean] [--json] [-v]",
		.help = compare_help, .shortopts = "c:v", .longopts = longopts, .operand = "DB COUNTER_A COUNTER_B",
		.min_operands = 3, .max_operands = 3,
	};
	static const char *const metrics[] = { "p50", "mean", NULL };
	const char *metric = "p50", *a_name, *b_name;
	double conf = 95;
	bool json = false, verbose = false;
	struct pair_result r;
	struct store s;
	struct args a;
	char why[512];
	int c, ci = stats_conf_index(95), k;

	args_start(&a, &spec, argc, argv);
	while ((c = args_next(&a)) > 0) {
		if (c == 'c') {
			if (args_conf(&a, &conf, &ci))
				return EXIT_USAGE;
		} else if (c == OPT_METRIC) {
			if (args_choice(&a, metrics, &k))
				return EXIT_USAGE;
			metric = metrics[k];
		} else if (c == OPT_JSON)
			json = true;
		else if (c == 'v' || c == OPT_VERBOSE)
			verbose = true;
	}
	if (c == ARGS_STOP)
		return a.status;
	a_name = a.operands[1];
	b_name = a.operands[2];
	if (store_open(&s, a.operands[0], false, why, sizeof why) != EXIT_CLEAN) {
		db_say(why, "\n");
		return EXIT_UNREADABLE;
	}
	if (fleet_pair(&s, a_name, b_name, metric, ci, &r, why, sizeof why) < 0) {
		store_close(&s);
		db_say(why, "\n");
		return EXIT_UNREADABLE;
	}
	store_close(&s);
	if (json) {
		printf("{\"a\":");
		json_out_str(stdout, a_name);
		printf(",\"b\":");
		json_out_str(stdout, b_name);
		printf(",\"metric\":\"%s\",\"confidence\":%g,\"machines\":%zu,\"too_few_rounds\":%zu,"
		       "\"a_faster\":%zu,\"b_faster\":%zu,\"no_difference\":%zu,\"ratio\":",
		       metric, conf, r.n, r.too_few, r.a_faster, r.b_faster, r.no_difference);
		/* No machine with both: no ratio, rather than a ratio of 0. */
		if (r.n)
			printf("{\"median\":%.6g,\"q1\":%.6g,\"q3\":%.6g,\"min\":%.6g,\"max\":%.6g}}\n",
			       r.ratio_median, r.ratio_q1, r.ratio_q3, r.ratio_min, r.ratio_max);
		else
			printf("{\"median\":null,\"q1\":null,\"q3\":null,\"min\":null,\"max\":null}}\n");
	} else if (!r.n) {
		printf("no machine has both %s and %s with at least 2 rounds each (%zu have both with fewer)\n", a_name, b_name,
		       r.too_few);
	} else {
		printf("%s against %s: per-round %s, Student's t at %g%% confidence, on %zu machines with both\n", a_name, b_name,
		       metric, conf, r.n);
		printf("  %s faster on %zu, %s faster on %zu, no difference proven on %zu\n", a_name, r.a_faster, b_name,
		       r.b_faster, r.no_difference);
		printf("  ratio %s/%s: median %.3f, quartiles %.3f-%.3f, min %.3f, max %.3f\n", a_name, b_name, r.ratio_median,
		       r.ratio_q1, r.ratio_q3, r.ratio_min, r.ratio_max);
		if (r.too_few)
			printf("  %zu more machines have both with fewer than 2 rounds on a side: not compared\n",
			       r.too_few);
		for (size_t i = 0; verbose && i < r.n; i++) {
			char label[256];
			printf("  %-40s %10.2f %10.2f %7.3f  %s\n", ts_str(label, sizeof label, r.m[i].label),
			       r.m[i].mean_a, r.m[i].mean_b, r.m[i].ratio,
			       r.m[i].verdict < 0 ? "A faster" : r.m[i].verdict > 0 ? "B faster" : "-");
		}
	}
	pair_result_free(&r);
	return EXIT_CLEAN;
}

int cmd_db(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_CLEAN;
	}
	if (!strcmp(argv[1], "import"))
		return db_import(argc - 1, argv + 1);
	if (!strcmp(argv[1], "summary"))
		return db_summary(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return db_compare(argc - 1, argv + 1);
	fprintf(stderr, "tickprobe db: unknown command '%s' (import, summary or compare)\n", argv[1]);
	return EXIT_USAGE;
}
