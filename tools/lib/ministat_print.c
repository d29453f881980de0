/* SPDX-License-Identifier: BSD-2-Clause */
#include "tools/lib/ministat_print.h"
#include <stdlib.h>
#include <string.h>
#include "tools/lib/textsafe.h"

/* ministat's seven, then more so a long table still tells its rows apart. */
static const char symbols[] = "x+*%#@O&=$~^";

char ms_symbol(size_t i)
{
	return symbols[i % (sizeof symbols - 1)];
}

void ms_legend(FILE *out, const struct ms_sorted *sets, size_t nsets)
{
	/* A name is a file's or a log's run: text from outside. */
	for (size_t i = 0; i < nsets; i++) {
		fprintf(out, "%c ", ms_symbol(i));
		ts_puts(out, sets[i].name);
		fputc('\n', out);
	}
}

/* ---- the table and the test ---------------------------------------------- */

void ms_table_header(FILE *out)
{
	fprintf(out, "    N           Min           Max        Median           Avg        Stddev\n");
}

void ms_table_row(FILE *out, size_t i, const struct stats *st)
{
	fprintf(out, "%c %3zu %13.8g %13.8g %13.8g %13.8g %13.8g\n", ms_symbol(i), st->n, st->min,
		st->max, st->median, st->mean, st->sd);
}

void ms_difference(FILE *out, const struct stats_diff *d, double conf)
{
	if (!d->significant) {
		fprintf(out, "No difference proven at %.1f%% confidence\n", conf);
		return;
	}
	fprintf(out, "Difference at %.1f%% confidence\n", conf);
	fprintf(out, "\t%g +/- %g\n", d->diff, d->err);
	fprintf(out, "\t%g%% +/- %g%%\n", d->pct, d->pct_err);
	fprintf(out, "\t(Student's t, pooled s = %g)\n", d->pooled_sd);
}

/* ---- the whole block from unsorted values ---------------------------------- */

int ms_print(FILE *out, const struct ms_set *sets, size_t nsets, const struct ms_opts *opt,
	     struct ms_result *res)
{
	double conf = opt && opt->conf > 0 ? opt->conf : 95;
	int ci = stats_conf_index(conf), rc = -1;
	struct ms_sorted *ss = calloc(nsets ? nsets : 1, sizeof *ss);
	struct stats *st = calloc(nsets ? nsets : 1, sizeof *st);
	double **v = calloc(nsets ? nsets : 1, sizeof *v);
	size_t i;

	if (ci < 0 || !ss || !st || !v)
		goto out;
	for (i = 0; i < nsets; i++) {
		if (!(v[i] = malloc((sets[i].n ? sets[i].n : 1) * sizeof **v)))
			goto out;
		memcpy(v[i], sets[i].values, sets[i].n * sizeof **v);
		stats_compute(v[i], sets[i].n, &st[i]);
		ss[i].name = sets[i].name;
		ss[i].v = v[i];
		ss[i].nv = sets[i].n;
		ss[i].st = &st[i];
	}
	if (!opt || !opt->quiet) {
		ms_legend(out, ss, nsets);
		if (!opt || !opt->no_plot)
			ms_plot(out, ss, nsets, opt && opt->width > 0 ? opt->width : MS_WIDTH, 0);
	}
	ms_table_header(out);
	for (i = 0; i < nsets; i++) {
		struct stats_diff d;
		int tested = 0;

		ms_table_row(out, i, &st[i]);
		memset(&d, 0, sizeof d);
		if (i > 0 && st[i].n >= 2 && st[0].n >= 2) {
			stats_compare(&st[0], &st[i], ci, &d);
			ms_difference(out, &d, conf);
			tested = 1;
		} else if (i > 0) {
			fputs("No test: ", out);
			ts_puts(out, st[0].n < 2 ? sets[0].name : sets[i].name);
			fputs(" has fewer than 2 values\n", out);
		}
		if (res) {
			res[i].st = st[i];
			res[i].tested = tested;
			res[i].diff = d;
		}
	}
	rc = 0;
out:
	for (i = 0; v && i < nsets; i++)
		free(v[i]);
	free(v);
	free(st);
	free(ss);
	return rc;
}
