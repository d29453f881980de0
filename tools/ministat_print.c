#include "tools/ministat_print.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char symbols[] = "x+*%#@O&=$~^";

char ms_symbol(size_t i)
{
	return symbols[i % (sizeof symbols - 1)];
}

void ms_legend(FILE *out, const struct ms_set *sets, size_t nsets)
{
	for (size_t i = 0; i < nsets; i++)
		fprintf(out, "%c %s\n", ms_symbol(i), sets[i].name);
}

static double *sorted_copy(const struct ms_set *s, struct stats *st)
{
	double *v = malloc((s->n ? s->n : 1) * sizeof *v);
	if (!v)
		return NULL;
	memcpy(v, s->values, s->n * sizeof *v);
	stats_compute(v, s->n, st);
	return v;
}

struct scale {
	double lo, hi;
	int w;
};

static int col(const struct scale *sc, double v)
{
	double x;
	int c;
	if (sc->hi <= sc->lo)
		return sc->w / 2;
	x = (v - sc->lo) / (sc->hi - sc->lo) * (sc->w - 1) + 0.5;
	c = x < 0 ? 0 : x > sc->w - 1 ? sc->w - 1 : (int)x;
	return c;
}

static void frame(FILE *out, int w)
{
	fputc('+', out);
	for (int i = 0; i < w; i++)
		fputc('-', out);
	fputs("+\n", out);
}

void ms_plot(FILE *out, const struct ms_set *sets, size_t nsets, int width)
{
	struct scale sc = { 0, 0, width > 0 ? width : MS_WIDTH };
	struct stats *st;
	double **sorted;
	uint32_t *cells = NULL; /* rows x w bitmasks: which datasets have a point there */
	size_t rows = 0, i, k;
	int any = 0;
	char *line;

	if (nsets > MS_MAX_SETS) {
		fprintf(out, "(no plot: more than %d datasets)\n", MS_MAX_SETS);
		return;
	}
	st = calloc(nsets ? nsets : 1, sizeof *st);
	sorted = calloc(nsets ? nsets : 1, sizeof *sorted);
	line = malloc((size_t)sc.w + 1);
	if (!st || !sorted || !line)
		goto out;
	/* The axis spans every value and every mean +/- sd bar. */
	for (i = 0; i < nsets; i++) {
		double a, b;
		if (!(sorted[i] = sorted_copy(&sets[i], &st[i])) || !sets[i].n)
			continue;
		a = st[i].min < st[i].mean - st[i].sd ? st[i].min : st[i].mean - st[i].sd;
		b = st[i].max > st[i].mean + st[i].sd ? st[i].max : st[i].mean + st[i].sd;
		if (!any || a < sc.lo)
			sc.lo = a;
		if (!any || b > sc.hi)
			sc.hi = b;
		any = 1;
	}
	frame(out, sc.w);
	/* Points: a dataset's repeated column stacks upwards; different datasets
	 * share a cell, shown as '*'. */
	for (i = 0; i < nsets; i++) {
		for (k = 0; sorted[i] && k < sets[i].n; k++) {
			int c = col(&sc, sorted[i][k]);
			size_t y = 0;
			while (y < rows && cells[y * (size_t)sc.w + (size_t)c] & (1u << i))
				y++;
			if (y == rows) {
				uint32_t *nc = realloc(cells, (rows + 1) * (size_t)sc.w * sizeof *cells);
				if (!nc)
					goto out;
				cells = nc;
				memset(cells + rows * (size_t)sc.w, 0, (size_t)sc.w * sizeof *cells);
				rows++;
			}
			cells[y * (size_t)sc.w + (size_t)c] |= 1u << i;
		}
	}
	for (size_t y = rows; y-- > 0;) {
		for (int c = 0; c < sc.w; c++) {
			uint32_t m = cells[y * (size_t)sc.w + (size_t)c];
			size_t b = 0;
			if (!m) {
				line[c] = ' ';
				continue;
			}
			if (m & (m - 1)) {
				line[c] = '*';
				continue;
			}
			while (!(m & 1))
				m >>= 1, b++;
			line[c] = ms_symbol(b);
		}
		line[sc.w] = 0;
		fprintf(out, "|%s|\n", line);
	}
	/* One bar per dataset: |___ from mean-sd to mean+sd ___|, M median, A mean. */
	for (i = 0; i < nsets; i++) {
		if (!sets[i].n)
			continue;
		memset(line, ' ', (size_t)sc.w);
		line[sc.w] = 0;
		if (sets[i].n > 1 && st[i].sd > 0) {
			int a = col(&sc, st[i].mean - st[i].sd), b = col(&sc, st[i].mean + st[i].sd);
			for (int c = a; c <= b; c++)
				line[c] = '_';
			line[a] = '|';
			line[b] = '|';
		}
		line[col(&sc, st[i].median)] = 'M';
		line[col(&sc, st[i].mean)] = 'A';
		fprintf(out, "|%s|\n", line);
	}
	frame(out, sc.w);
out:
	for (i = 0; sorted && i < nsets; i++)
		free(sorted[i]);
	free(sorted), free(st), free(cells), free(line);
}

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

int ms_print(FILE *out, const struct ms_set *sets, size_t nsets, const struct ms_opts *opt,
	     struct ms_result *res)
{
	double conf = opt && opt->conf > 0 ? opt->conf : 95;
	int ci = stats_conf_index(conf);
	struct stats base;

	if (ci < 0)
		return -1;
	if (!opt || !opt->quiet) {
		ms_legend(out, sets, nsets);
		if (!opt || !opt->no_plot)
			ms_plot(out, sets, nsets, opt ? opt->width : 0);
	}
	ms_table_header(out);
	memset(&base, 0, sizeof base);
	for (size_t i = 0; i < nsets; i++) {
		struct stats st;
		struct stats_diff d;
		double *v = sorted_copy(&sets[i], &st);
		int tested = 0;
		free(v);
		ms_table_row(out, i, &st);
		memset(&d, 0, sizeof d);
		if (i == 0) {
			base = st;
		} else if (st.n >= 2 && base.n >= 2) {
			stats_compare(&base, &st, ci, &d);
			ms_difference(out, &d, conf);
			tested = 1;
		} else {
			fprintf(out, "No test: %s has fewer than 2 values\n",
				base.n < 2 ? sets[0].name : sets[i].name);
		}
		if (res) {
			res[i].st = st;
			res[i].tested = tested;
			res[i].diff = d;
		}
	}
	return 0;
}
