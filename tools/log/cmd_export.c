/* tickprobe export LOG… --format raw|csv|json [--counter NAME] [--samples]
 *                        [--metric p50|mean] [--run N]
 *
 *   raw   one number per line, for ministat: the per-round values of the
 *         counter(s) in ns, or with --samples every read's cost in cycles,
 *         expanded from the `hist` (either schema: probe/hist_codec.h);
 *   csv   one row per counter and run, with the machine's identity;
 *   json  the good records, one per line, exactly as written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/commands.h"
#include "tools/log/logset.h"

#define MAX_COUNTERS 32

static void usage(FILE *f)
{
	fprintf(f, "usage: tickprobe export LOG... [--format raw|csv|json] [--counter NAME]...\n"
		   "                        [--samples] [--metric p50|mean] [--run N]\n"
		   "  raw   per-round values in ns (--metric, default p50), one per line; with\n"
		   "        --samples every read's cost in cycles from the histogram\n"
		   "  csv   one row per counter and run\n"
		   "  json  the run's good records, one per line, unchanged\n"
		   "  --counter may be repeated or take a comma list; default: every counter.\n"
		   "Exit status: 0 clean, 1 usage, 2 unreadable, 3 damaged but partly used.\n");
}

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

static void csv_field(const char *s)
{
	putchar('"');
	for (; s && *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void csv_num(const struct lr_node *n)
{
	char b[64];
	putchar(',');
	if (n && n->kind == LR_NUM)
		fputs(fmt_num(b, sizeof b, n, -1), stdout);
}

static size_t export_raw(const struct lrun *r, const struct lr_node *t, const struct opts *o)
{
	size_t n = 0;
	if (o->samples) {
		struct hist_dec d;
		uint64_t v, c;
		int got;
		hist_dec_init(&d, lr_get(t, "hist"));
		while ((got = hist_dec_next(&d, &v, &c)) == 1)
			for (; c; c--, n++)
				printf("%llu\n", (unsigned long long)v);
		if (got < 0)
			fprintf(stderr, "tickprobe export: %s: bad hist in %s (%s), the rest skipped\n", r->name,
				lr_str(lr_get(t, "name")), d.err);
		return n;
	}
	const struct lr_node *v;
	struct lr_rounds it;
	lr_rounds_init(&it, lr_get(t, "rounds"), o->metric);
	while (lr_rounds_next(&it, &v)) {
		char b[64];
		if (v && v->kind == LR_NUM)
			printf("%s\n", fmt_num(b, sizeof b, v, -1)), n++;
	}
	return n;
}

static void export_csv(const struct lrun *r, size_t runno, const struct lr_node *t)
{
	const struct lr_node *m = lrun_first(r, "machine");
	static const char *const cols[] = { "cost_ns.p50", "cost_ns.min", "cost_ns.mean", "cost_ns.sd",
					    "cost_ns.p99", "cost_ns.max", "throughput.reads_per_s",
					    "freq.ppm", "freq.err_ppm", "cost_cycles.p50" };
	csv_field(r->name);
	printf(",%zu,", runno);
	csv_field(lr_str(lr_get(m, "cpu_brand")));
	putchar(',');
	csv_field(lr_str(lr_get(m, "hypervisor")));
	putchar(',');
	csv_field(lr_str(lr_get(t, "name")));
	printf(",%s", lr_true(lr_get(t, "healthy")) ? "true" : "false");
	csv_num(lr_get(t, "samples"));
	for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
		csv_num(lr_path(t, cols[k]));
	putchar(',');
	csv_field(lr_str(lr_get(t, "reason")));
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
	const char *files[256];
	int nfiles = 0, status = EXIT_CLEAN, used[MAX_COUNTERS] = { 0 };
	size_t values = 0, counters_out = 0;
	char *end;

	o.used = used;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return EXIT_CLEAN;
		} else if (!strcmp(a, "--samples")) {
			o.samples = 1;
		} else if (!strcmp(a, "--format") && has) {
			o.format = argv[++i];
		} else if (!strcmp(a, "--metric") && has) {
			o.metric = argv[++i];
		} else if (!strcmp(a, "--counter") && has) {
			if (add_counters(&o, argv[++i])) {
				fprintf(stderr, "tickprobe export: more than %d counters\n", MAX_COUNTERS);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--run") && has) {
			if ((o.run = strtol(argv[++i], &end, 10)) < 1 || *end) {
				fprintf(stderr, "tickprobe export: --run needs a run number (1, 2, ...)\n");
				return EXIT_USAGE;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "tickprobe export: unknown option or missing value: '%s'\n", a);
			usage(stderr);
			return EXIT_USAGE;
		} else if (nfiles < 256) {
			files[nfiles++] = a;
		}
	}
	if (strcmp(o.format, "raw") && strcmp(o.format, "csv") && strcmp(o.format, "json")) {
		fprintf(stderr, "tickprobe export: --format must be raw, csv or json, not '%s'\n", o.format);
		return EXIT_USAGE;
	}
	if (strcmp(o.metric, "p50") && strcmp(o.metric, "mean")) {
		fprintf(stderr, "tickprobe export: --metric must be p50 or mean, not '%s'\n", o.metric);
		return EXIT_USAGE;
	}
	if (!nfiles) {
		fprintf(stderr, "tickprobe export: no LOG given\n");
		usage(stderr);
		return EXIT_USAGE;
	}
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
				const char *name = lr_str(lr_get(rec->root, "name"));
				int counter_rec = rec->type && (!strcmp(rec->type, "timer") || !strcmp(rec->type, "samples"));
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
	return status;
}
