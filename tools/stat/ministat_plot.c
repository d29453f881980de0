/* SPDX-License-Identifier: BSD-2-Clause */
/* The ministat plot (tools/lib/ministat_print.h), drawn as ministat draws
 * it, quirks included so the pictures match: points stack upward per column
 * in rows 1.., a column shared by several sets shows the OR of their numbers
 * (x|+ = '*'); the plot's height is that of the last set drawn, and rows a
 * later, taller set reaches again are cleared first; bars: '|' at avg±sd,
 * '_' between, then 'M', then 'A'.
 *
 * ministat fills a rows x width grid; a million values in one column make a
 * million rows (75 MB).  Here each set keeps one stack height per column
 * instead, and a row is worked out from the heights: rows between two
 * heights are all alike, so each distinct row is built once and written as
 * often as it repeats.  The clearing quirk becomes a cap: set s keeps row r
 * exactly when r is below the height of every set from s on (a later, lower
 * set clears r only if the heights then rise past r again, and rows at or
 * above the last set's height are not printed).  tests/unit/test_stat_plot.c
 * checks this against the grid, picture for picture. */
#include <stdlib.h>
#include <string.h>
#include "tools/lib/ministat_print.h"

struct plot {
	int width, ndrawn;
	double x0, dx;
	int val[MS_PLOT_SETS];          /* the drawn sets' numbers, 1..7 */
	uint64_t *stack[MS_PLOT_SETS];  /* per drawn set, per column: rows filled */
	uint64_t height[MS_PLOT_SETS];  /* per drawn set: its tallest stack + 1 */
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

/* Set number val (1..7): its stacks, its height and its bars; 0 when out of
 * memory.  A column's stack is its longest run of consecutive values, as the
 * grid's rows 1..run are what each run fills. */
static int draw_set(struct plot *pl, const struct ms_sorted *s, int val, int separate)
{
	int b = separate ? val - 1 : 0, prev = -1, x, hi, i;
	uint64_t *stack, run = 0, m = 1;
	double av = s->st->mean, sd = s->st->sd;
	char *bar;

	if (!pl->bar[b] && !(pl->bar[b] = calloc((size_t)pl->width, 1)))
		return 0;
	if (!(stack = calloc((size_t)pl->width, sizeof *stack)))
		return 0;
	bar = pl->bar[b];
	for (size_t n = 0; n < s->nv; n++) {
		x = col_of(pl, s->v[n]);
		run = (x == prev ? run : 0) + (s->count ? s->count[n] : 1);
		prev = x;
		if (run > stack[x])
			stack[x] = run;
		if (run > m)
			m = run;
	}
	pl->val[pl->ndrawn] = val;
	pl->stack[pl->ndrawn] = stack;
	pl->height[pl->ndrawn++] = m + 1;
	if (sd == sd) { /* not NaN */
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

/* The clearing quirk as a cap on each set's stacks (see the top). */
static void cap_stacks(struct plot *pl)
{
	uint64_t cap = UINT64_MAX;

	for (int s = pl->ndrawn - 1; s >= 0; s--) {
		if (pl->height[s] < cap)
			cap = pl->height[s];
		for (int c = 0; c < pl->width; c++)
			if (pl->stack[s][c] > cap - 1)
				pl->stack[s][c] = cap - 1;
	}
}

static int by_descending(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x > y ? -1 : x < y;
}

/* Every stack height, highest first, each once; NULL when out of memory. */
static uint64_t *row_changes(const struct plot *pl, size_t *n)
{
	size_t k = 0, u = 0;
	uint64_t *ev = malloc((size_t)pl->ndrawn * (size_t)pl->width * sizeof *ev);

	if (!ev)
		return NULL;
	for (int s = 0; s < pl->ndrawn; s++)
		for (int c = 0; c < pl->width; c++)
			if (pl->stack[s][c])
				ev[k++] = pl->stack[s][c];
	qsort(ev, k, sizeof *ev, by_descending);
	for (size_t i = 0; i < k; i++)
		if (!u || ev[u - 1] != ev[i])
			ev[u++] = ev[i];
	*n = u;
	return ev;
}

/* row (len bytes) `times` times, through chunk (room for chunk_rows rows,
 * or NULL: one row at a time). */
static void repeat_row(FILE *out, const char *row, size_t len, uint64_t times, char *chunk,
		       size_t chunk_rows)
{
	size_t filled = 0;

	if (!chunk || times == 1) {
		while (times--)
			fwrite(row, 1, len, out);
		return;
	}
	for (; filled < chunk_rows && filled < times; filled++)
		memcpy(chunk + filled * len, row, len);
	for (; times >= filled; times -= filled)
		fwrite(chunk, len, filled, out);
	fwrite(chunk, len, (size_t)times, out);
}

/* Rows height-1 down to 1 of the last set's height; row is the line buffer
 * with its frame bars in place. */
static void print_rows(FILE *out, const struct plot *pl, char *row)
{
	size_t len = (size_t)pl->width + 3, nev = 0, k = 0, chunk_rows = (1 << 20) / len;
	uint64_t *ev = row_changes(pl, &nev), r = pl->height[pl->ndrawn - 1] - 1, next;
	char *chunk = chunk_rows > 1 ? malloc(chunk_rows * len) : NULL;

	while (r >= 1) {
		for (int c = 0; c < pl->width; c++) {
			int bits = 0;
			for (int s = 0; s < pl->ndrawn; s++)
				if (pl->stack[s][c] >= r)
					bits |= pl->val[s];
			row[c + 1] = ' ';
			if (bits)
				row[c + 1] = ms_symbol((size_t)(bits & 7) - 1);
		}
		while (ev && k < nev && ev[k] >= r)
			k++;
		next = ev && k < nev ? ev[k] : r - 1; /* no list: row by row */
		repeat_row(out, row, len, r - next, chunk, chunk_rows);
		r = next;
	}
	free(chunk);
	free(ev);
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
	double lo = 999e99, hi = -999e99, span;
	char *row;
	int c, ok = 1;
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
	span = hi - lo;
	pl.dx = span / (pl.width - 1.0);
	pl.x0 = lo - .5 * pl.dx;
	if (span == 0 || pl.width < 1) {
		fprintf(out, "[no plot, span is zero width]\n");
		return;
	}
	if (!(row = malloc((size_t)pl.width + 3)))
		return;
	row[pl.width + 2] = '\n';
	for (i = 0; i < nsets && ok; i++)
		if (sets[i].st->n)
			ok = draw_set(&pl, &sets[i], (int)i + 1, separate_bars);
	if (ok) {
		cap_stacks(&pl);
		border(out, row, pl.width);
		row[0] = row[pl.width + 1] = '|';
		if (pl.ndrawn)
			print_rows(out, &pl, row);
		for (i = 0; i < MS_PLOT_SETS; i++) {
			if (!pl.bar[i])
				continue;
			for (c = 0; c < pl.width; c++)
				row[c + 1] = (char)(pl.bar[i][c] ? pl.bar[i][c] : ' ');
			fwrite(row, 1, (size_t)pl.width + 3, out);
		}
		border(out, row, pl.width);
	}
	for (i = 0; i < MS_PLOT_SETS; i++) {
		free(pl.bar[i]);
		free(pl.stack[i]);
	}
	free(row);
}
