/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe compare`: the watches side by side (tools/compare/watch.h). */
#include "tools/compare/watch.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "probe/watch.h"
#include "tools/lib/textsafe.h"

#define MAX_CLOCKS 16
#define NAME_W 14
#define CELL_W 24 /* "+8000.004 +/- 0.0196" */

/* Clock `name`'s entry in log j's watch record, or NULL. */
static const struct lr_node *clock_of(const struct lrun *r, const char *name)
{
	const struct lr_node *c = lr_get(lrun_first(r, "watch"), "clocks");

	for (c = c && c->kind == LR_ARR ? c->child : NULL; c; c = c->next)
		if (lr_str(lr_get(c, "name")) && !strcmp(lr_str(lr_get(c, "name")), name))
			return c;
	return NULL;
}

/* Every clock of every watch, in order of first appearance. */
static size_t clock_names(const struct lrun *const *logs, size_t nlogs, const char **names)
{
	size_t n = 0;

	for (size_t j = 0; j < nlogs; j++) {
		const struct lr_node *c = lr_get(lrun_first(logs[j], "watch"), "clocks");
		for (c = c && c->kind == LR_ARR ? c->child : NULL; c && n < MAX_CLOCKS; c = c->next) {
			const char *s = lr_str(lr_get(c, "name"));
			size_t k = 0;
			while (s && k < n && strcmp(names[k], s))
				k++;
			if (s && k == n)
				names[n++] = s;
		}
	}
	return n;
}

/* "+8000.004 +/- 0.0196", "-" without a figure; marked when it differs from
 * the first log's (base) beyond the two uncertainties. */
static void cell(const struct lr_node *c, const struct lr_node *base, const char *value, const char *u)
{
	double v, e, bv, be;
	char b[48];
	bool differs;

	if (!lr_num(lr_get(c, value), &v)) {
		printf("  %*s", CELL_W, "-");
		return;
	}
	if (!lr_num(lr_get(c, u), &e))
		e = NAN;
	differs = base && base != c && lr_num(lr_get(base, value), &bv) && lr_num(lr_get(base, u), &be) &&
		  fabs(v - bv) > WATCH_AGREE_SIGMAS * sqrt(e * e + be * be);
	snprintf(b, sizeof b, "%+.3f +/- %.4f%s", v, e, differs ? " *" : "  ");
	printf("  %*s", CELL_W, b);
}

static void table(const struct lrun *const *logs, size_t nlogs, const char **names, size_t n, const char *value,
		  const char *u, const char *title)
{
	char shown[NAME_W + 8];

	printf("  %s\n  %-*s", title, NAME_W, "clock");
	for (size_t j = 0; j < nlogs; j++)
		printf("  %*s[%zu]", CELL_W - 3 - (j + 1 >= 10), "", j + 1);
	printf("\n");
	for (size_t k = 0; k < n; k++) {
		const struct lr_node *base = clock_of(logs[0], names[k]);
		printf("  %-*s", NAME_W, ts_str(shown, sizeof shown, names[k]));
		for (size_t j = 0; j < nlogs; j++)
			cell(clock_of(logs[j], names[k]), base, value, u);
		printf("\n");
	}
}

static void verdicts(const struct lrun *const *logs, size_t nlogs)
{
	for (size_t j = 0; j < nlogs; j++) {
		const struct lr_node *w = lrun_first(logs[j], "watch"), *b = lrun_first(logs[j], "watch_begin");
		size_t events = 0, moved = 0;
		uint64_t m;
		printf("  [%zu] ", j + 1);
		if (!b)
			printf("no watch");
		else if (lr_str(lr_get(b, "skipped")))
			ts_puts(stdout, lr_str(lr_get(b, "skipped")));
		else
			ts_puts(stdout, w ? lr_str(lr_get(w, "verdict")) : "no watch record: the run ended first");
		for (size_t i = 0; i < logs[j]->nrecs; i++)
			if (!strcmp(logs[j]->recs[i].type, "watch_event")) {
				events++;
				moved += lr_uint(lr_get(logs[j]->recs[i].root, "moved"), &m) && m;
			}
		if (events)
			printf("; %zu VM event(s), %zu with a clock or CPU that moved", events, moved);
		printf("\n");
	}
}

void compare_watches(const struct lrun *const *logs, size_t nlogs)
{
	const char *names[MAX_CLOCKS];
	size_t n, with = 0;

	for (size_t j = 0; j < nlogs; j++)
		with += lrun_first(logs[j], "watch_begin") != NULL;
	if (!with)
		return;
	printf("\nWatch (each clock against the consensus of the counters, the TSC against its boot calibration;\n"
	       "* differs from [1] by more than %.0f times the two uncertainties):\n", WATCH_AGREE_SIGMAS);
	n = clock_names(logs, nlogs, names);
	if (n) {
		table(logs, nlogs, names, n, "rate_ppm", "u_ppm", "rate, ppm");
		table(logs, nlogs, names, n, "drift_ppm_per_h", "drift_u_ppm_per_h", "drift, ppm per hour");
	}
	verdicts(logs, nlogs);
}
