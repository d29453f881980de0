/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe compare`: the watches side by side (tools/compare/watch.h). */
#include "tools/compare/watch.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "probe/watch.h"
#include "tools/lib/logschema.h"
#include "tools/lib/textsafe.h"

#define MAX_CLOCKS 16
#define NAME_W 14
#define CELL_W 24 /* "+8000.004 +/- 0.0196" */

/* Clock `name`'s entry in log r's watch record into out; false: none. */
static bool clock_of(const struct lrun *r, const char *name, struct ld_watch_clock *out)
{
	struct ld_watch w;

	ld_decode_watch(lrun_first(r, "watch"), &w);
	for (size_t i = 0; w.clocks.state == LD_SET && i < w.clocks.n; i++) {
		ld_watch_clocks_at(&w, i, out);
		if (out->name.state == LD_SET && !strcmp(out->name.s, name))
			return true;
	}
	return false;
}

/* Every clock of every watch, in order of first appearance. */
static size_t clock_names(const struct lrun *const *logs, size_t nlogs, const char **names)
{
	size_t n = 0;

	for (size_t j = 0; j < nlogs; j++) {
		struct ld_watch w;
		ld_decode_watch(lrun_first(logs[j], "watch"), &w);
		for (size_t i = 0; w.clocks.state == LD_SET && i < w.clocks.n && n < MAX_CLOCKS; i++) {
			struct ld_watch_clock c;
			size_t k = 0;
			ld_watch_clocks_at(&w, i, &c);
			if (c.name.state != LD_SET)
				continue;
			while (k < n && strcmp(names[k], c.name.s))
				k++;
			if (k == n)
				names[n++] = c.name.s;
		}
	}
	return n;
}

/* A clock's rate (drift 0) or drift (1), and its uncertainty. */
static void figure(const struct ld_watch_clock *c, int drift, struct ld_num *v, struct ld_num *u)
{
	*v = drift ? c->drift_ppm_per_h : c->rate_ppm;
	*u = drift ? c->drift_u_ppm_per_h : c->u_ppm;
}

/* "+8000.004 +/- 0.0196", "-" without a figure (or clock, c NULL); marked
 * when it differs from the first log's (base) beyond the two uncertainties. */
static void cell(const struct ld_watch_clock *c, const struct ld_watch_clock *base, int drift)
{
	struct ld_num v = { 0 }, u = { 0 }, bv = { 0 }, bu = { 0 };
	double e;
	char b[48];
	bool differs;

	if (c)
		figure(c, drift, &v, &u);
	if (base)
		figure(base, drift, &bv, &bu);
	if (v.state != LD_SET) {
		printf("  %*s", CELL_W, "-");
		return;
	}
	e = u.state == LD_SET ? u.v : NAN;
	differs = base && base->ld.node != c->ld.node && bv.state == LD_SET && bu.state == LD_SET &&
		  fabs(v.v - bv.v) > WATCH_AGREE_SIGMAS * sqrt(e * e + bu.v * bu.v);
	snprintf(b, sizeof b, "%+.3f +/- %.4f%s", v.v, e, differs ? " *" : "  ");
	printf("  %*s", CELL_W, b);
}

static void table(const struct lrun *const *logs, size_t nlogs, const char **names, size_t n, int drift,
		  const char *title)
{
	char shown[NAME_W + 8];

	printf("  %s\n  %-*s", title, NAME_W, "clock");
	for (size_t j = 0; j < nlogs; j++)
		printf("  %*s[%zu]", CELL_W - 3 - (j + 1 >= 10), "", j + 1);
	printf("\n");
	for (size_t k = 0; k < n; k++) {
		struct ld_watch_clock base, c;
		bool has_base = clock_of(logs[0], names[k], &base);
		printf("  %-*s", NAME_W, ts_str(shown, sizeof shown, names[k]));
		for (size_t j = 0; j < nlogs; j++)
			cell(clock_of(logs[j], names[k], &c) ? &c : NULL, has_base ? &base : NULL, drift);
		printf("\n");
	}
}

static void verdicts(const struct lrun *const *logs, size_t nlogs)
{
	for (size_t j = 0; j < nlogs; j++) {
		struct ld_watch w;
		struct ld_watch_begin b;
		size_t events = 0, moved = 0;
		ld_decode_watch(lrun_first(logs[j], "watch"), &w);
		ld_decode_watch_begin(lrun_first(logs[j], "watch_begin"), &b);
		printf("  [%zu] ", j + 1);
		if (b.ld.state == LD_ABSENT)
			printf("no watch");
		else if (b.skipped.state == LD_SET)
			ts_puts(stdout, b.skipped.s);
		else if (w.ld.state == LD_ABSENT)
			ts_puts(stdout, "no watch record: the run ended first");
		else
			ts_puts(stdout, w.verdict.state == LD_SET ? w.verdict.s : NULL);
		for (size_t i = 0; i < logs[j]->nrecs; i++)
			if (!strcmp(logs[j]->recs[i].type, "watch_event")) {
				struct ld_watch_event e;
				ld_decode_watch_event(logs[j]->recs[i].root, &e);
				events++;
				moved += e.moved.state == LD_SET && e.moved.v;
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
		table(logs, nlogs, names, n, 0, "rate, ppm");
		table(logs, nlogs, names, n, 1, "drift, ppm per hour");
	}
	verdicts(logs, nlogs);
}
