/* SPDX-License-Identifier: BSD-2-Clause */
#include "tools/stat/ministat_print.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ministat's seven, then more so a long table still tells its rows apart. */
static const char symbols[] = "x+*%#@O&=$~^";

char ms_symbol(size_t i)
{
	return symbols[i % (sizeof symbols - 1)];
}

void ms_legend(FILE *out, const struct ms_sorted *sets, size_t nsets)
{
	for (size_t i = 0; i < nsets; i++)
		fprintf(out, "%c %s\n", ms_symbol(i), sets[i].name);
}

/* ---- the plot ------------------------------------------------------------ */

/* Layout as ministat draws it, quirks included so the pictures match:
 * points stack upward per column in rows 1.., a column shared by several
 * sets shows the OR of their numbers (x|+ = '*'); the plot's height is that
 * of the last set drawn, and rows a later, taller set reaches again are
 * cleared first; bars: '|' at avg±sd, '_' between, then 'M', then 'A'. */
struct plot {
	int width, height, cap_rows;
	double x0, dx, span;
	unsigned char *data;
	char *bar[MS_PLOT_SETS];
};

static int col_of(const struct plot *pl, double v)
{
	double c = (v - pl->x0) / pl->dx;

	if (!(c >= 0)) /* also NaN */
		return 0;
	if (c >= pl->width)
		return pl->width - 1;
	return (int)c;
}

/* Draws set number val (1..7); returns 0 when out of memory. */
static int plot_set(struct plot *pl, const struct ms_sorted *s, int val, int separate)
{
	int b = separate ? val - 1 : 0, m = 1, j = 0, prev = -1, x, hi, i;
	size_t n, nv = s->st->n;
	double av = s->st->mean, sd = s->st->sd;
	char *bar;

	if (!pl->bar[b] && !(pl->bar[b] = calloc((size_t)pl->width, 1)))
		return 0;
	bar = pl->bar[b];
	for (n = 0; n < nv; n++) {
		x = col_of(pl, s->v[n]);
		j = x == prev ? j + 1 : 1;
		prev = x;
		if (j > m)
			m = j;
	}
	m++;
	if (m > pl->cap_rows) {
		/* Never 0 bytes: m >= 2 here and ms_plot draws only when width >= 1. */
		/* NOLINTNEXTLINE(clang-analyzer-optin.portability.UnixAPI) */
		unsigned char *nd = realloc(pl->data, (size_t)m * (size_t)pl->width);
		if (!nd)
			return 0;
		pl->data = nd;
		pl->cap_rows = m;
	}
	if (m > pl->height)
		memset(pl->data + (size_t)pl->height * (size_t)pl->width, 0,
		       (size_t)(m - pl->height) * (size_t)pl->width);
	pl->height = m;
	prev = -1;
	for (n = 0; n < nv; n++) {
		x = col_of(pl, s->v[n]);
		j = x == prev ? j + 1 : 1;
		prev = x;
		pl->data[(size_t)j * (size_t)pl->width + (size_t)x] |= (unsigned char)val;
	}
	if (!isnan(sd)) {
		x = col_of(pl, av - sd);
		hi = col_of(pl, av + sd);
		bar[hi] = '|';
		bar[x] = '|';
		for (i = x + 1; i < hi; i++)
			if (!bar[i])
				bar[i] = '_';
	}
	bar[col_of(pl, s->st->median)] = 'M';
	bar[col_of(pl, av)] = 'A';
	return 1;
}

static void border(FILE *out, char *row, int width)
{
	memset(row + 1, '-', (size_t)width);
	row[0] = row[width + 1] = '+';
	fwrite(row, 1, (size_t)width + 3, out);
}

void ms_plot(FILE *out, const struct ms_sorted *sets, size_t nsets, int width, int separate_bars)
{
	struct plot pl;
	double lo = 999e99, hi = -999e99;
	char cell[8], *row;
	int r, c, ok = 1;
	size_t i;

	if (nsets > MS_PLOT_SETS) {
		fprintf(out, "[no plot, more than %d datasets]\n", MS_PLOT_SETS);
		return;
	}
	memset(&pl, 0, sizeof pl);
	pl.width = width;
	for (i = 0; i < nsets; i++) {
		const struct stats *st = sets[i].st;
		const double e[4] = { st->min, st->max, st->mean - st->sd, st->mean + st->sd };
		for (c = 0; c < 4 && st->n; c++) {
			if (e[c] < lo)
				lo = e[c];
			if (e[c] > hi)
				hi = e[c];
		}
	}
	pl.span = hi - lo;
	pl.dx = pl.span / (pl.width - 1.0);
	pl.x0 = lo - .5 * pl.dx;
	if (pl.span == 0 || pl.width < 1) {
		fprintf(out, "[no plot, span is zero width]\n");
		return;
	}
	row = malloc((size_t)pl.width + 3);
	if (!row)
		return;
	row[pl.width + 2] = '\n';
	cell[0] = ' ';
	for (c = 1; c < 8; c++)
		cell[c] = symbols[c - 1];
	for (i = 0; i < nsets && ok; i++)
		if (sets[i].st->n)
			ok = plot_set(&pl, &sets[i], (int)i + 1, separate_bars);
	if (ok) {
		border(out, row, pl.width);
		row[0] = row[pl.width + 1] = '|';
		/* Big inputs make tall plots (a million values in one column is a
		 * million rows), so rows go out whole, not a character at a time. */
		for (r = pl.height - 1; r >= 1; r--) {
			const unsigned char *d = pl.data + (size_t)r * (size_t)pl.width;
			for (c = 0; c < pl.width; c++)
				row[c + 1] = cell[d[c] & 7];
			fwrite(row, 1, (size_t)pl.width + 3, out);
		}
		for (i = 0; i < MS_PLOT_SETS; i++) {
			if (!pl.bar[i])
				continue;
			for (c = 0; c < pl.width; c++)
				row[c + 1] = (char)(pl.bar[i][c] ? pl.bar[i][c] : ' ');
			fwrite(row, 1, (size_t)pl.width + 3, out);
		}
		border(out, row, pl.width);
	}
	for (i = 0; i < MS_PLOT_SETS; i++)
		free(pl.bar[i]);
	free(row);
	free(pl.data);
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
			fprintf(out, "No test: %s has fewer than 2 values\n",
				st[0].n < 2 ? sets[0].name : sets[i].name);
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
	free(v), free(st), free(ss);
	return rc;
}
