/* SPDX-License-Identifier: BSD-2-Clause */
/* tools/stat/ministat_plot.c: the plot drawn from per-column stack heights
 * is the plot ministat's grid gives (the grid is drawn here as ministat
 * draws it: a rows x width array, points stacked per column, the plot as
 * high as the last set, rows a taller later set reaches cleared first), for
 * random sets of every size and spread, 1 to 7 sets, widths 1 to 200, with
 * and without -s, values given once each or as counted runs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/stats.h"
#include "tools/lib/ministat_print.h"
#include "tests/unit/check.h"
#include "tests/unit/xorshift.h"

static uint64_t rng = 0x6a09e667f3bcc908ull;

static uint64_t next(void) /* xorshift64*: reproducible runs */
{
	return xorshift64_star(&rng);
}

/* ---- the grid, as ministat draws it ---- */
struct grid {
	int width, height, cap_rows;
	double x0, dx, span;
	unsigned char *data;
	char *bar[MS_PLOT_SETS];
};

static int col_of(const struct grid *pl, double v)
{
	double c = (v - pl->x0) / pl->dx;

	if (!(c >= 0)) /* also NaN */
		return 0;
	if (c >= pl->width)
		return pl->width - 1;
	return (int)c;
}

/* Draws set number val (1..7); returns 0 when out of memory. */
static int grid_set(struct grid *pl, const struct ms_sorted *s, int val, int separate)
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

static void grid_border(FILE *out, char *row, int width)
{
	memset(row + 1, '-', (size_t)width);
	row[0] = row[width + 1] = '+';
	fwrite(row, 1, (size_t)width + 3, out);
}

static void grid_plot(FILE *out, const struct ms_sorted *sets, size_t nsets, int width, int separate_bars)
{
	struct grid pl;
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
		cell[c] = ms_symbol((size_t)c - 1);
	for (i = 0; i < nsets && ok; i++)
		if (sets[i].st->n)
			ok = grid_set(&pl, &sets[i], (int)i + 1, separate_bars);
	if (ok) {
		grid_border(out, row, pl.width);
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
		grid_border(out, row, pl.width);
	}
	for (i = 0; i < MS_PLOT_SETS; i++)
		free(pl.bar[i]);
	free(row);
	free(pl.data);
}

/* ---- the comparison ---- */

struct set {
	double *v;       /* sorted, all n */
	double *runs;    /* the distinct values */
	uint64_t *count; /* and how often each */
	size_t n, nruns;
	struct stats st;
};

static void make_set(struct set *s, size_t n)
{
	double center = (double)(next() % 1000), spread = (double)(1 + next() % 200);
	int integer = next() % 2;

	s->v = malloc((n + 1) * sizeof *s->v);
	s->runs = malloc((n + 1) * sizeof *s->runs);
	s->count = malloc((n + 1) * sizeof *s->count);
	for (size_t i = 0; i < n; i++) {
		double d = center + spread * ((double)(next() % 10000) / 10000 - .5);
		if (next() % 50 == 0)
			d += spread * 20; /* a tail */
		s->v[i] = integer ? floor(d) : d;
	}
	stats_compute(s->v, n, &s->st); /* sorts v */
	s->n = n;
	s->nruns = 0;
	for (size_t i = 0; i < n; i++) {
		if (s->nruns && s->runs[s->nruns - 1] == s->v[i]) {
			s->count[s->nruns - 1]++;
		} else {
			s->runs[s->nruns] = s->v[i];
			s->count[s->nruns++] = 1;
		}
	}
}

static char *render(int how, const struct set *sets, size_t nsets, int width, int separate)
{
	struct ms_sorted ms[MS_PLOT_SETS + 1];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (size_t i = 0; i < nsets; i++) {
		ms[i] = (struct ms_sorted){ "set", sets[i].v, NULL, sets[i].n, &sets[i].st };
		if (how == 2) {
			ms[i].v = sets[i].runs;
			ms[i].count = sets[i].count;
			ms[i].nv = sets[i].nruns;
		}
	}
	if (how == 0)
		grid_plot(f, ms, nsets, width, separate);
	else
		ms_plot(f, ms, nsets, width, separate);
	fclose(f);
	return text;
}

int main(void)
{
	static const int widths[] = { 1, 2, 10, 74, 200 };
	int bad = 0, cases = 0, tall = 0;

	for (int i = 0; i < 600; i++, cases++) {
		size_t nsets = 1 + (size_t)(next() % (MS_PLOT_SETS + (i % 50 == 0)));
		struct set sets[MS_PLOT_SETS + 1];
		int width = widths[next() % 5], separate = (int)(next() % 2);
		char *grid, *one, *runs;

		for (size_t s = 0; s < nsets; s++)
			make_set(&sets[s], next() % 8 == 0 ? 0 : 1 + (size_t)(next() % (next() % 2 ? 30 : 3000)));
		grid = render(0, sets, nsets, width, separate);
		one = render(1, sets, nsets, width, separate);
		runs = render(2, sets, nsets, width, separate);
		if (strcmp(grid, one) || strcmp(grid, runs)) {
			if (!bad)
				printf("  %zu sets, width %d, -s %d:\n%s---\n%s", nsets, width, separate,
				       grid, strcmp(grid, one) ? one : runs);
			bad++;
		}
		tall += strlen(grid) > 100 * ((size_t)width + 3);
		free(grid);
		free(one);
		free(runs);
		for (size_t s = 0; s < nsets; s++) {
			free(sets[s].v);
			free(sets[s].runs);
			free(sets[s].count);
		}
	}
	check(bad == 0, "plot: %d random plots as ministat's grid draws them (%d differ)", cases, bad);
	check(tall > 50, "plot: %d of them over 100 rows high", tall);
	return check_done();
}
