/* SPDX-License-Identifier: BSD-2-Clause */
/* The seeds' figures per clocksource (seeds.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/stats.h"
#include "tools/lib/textsafe.h"
#include "tools/lib/lineup.h"
#include "tools/lib/seeds.h"
#include "tools/lib/ministat_print.h"
#include "tools/lib/logschema.h"

static struct seed_row *row_for(struct seeds *s, size_t *cap, size_t log, const struct lrun *run, const char *cs)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->rows[i].os_log == log && !strcmp(s->rows[i].clocksource, cs))
			return &s->rows[i];
	if (s->n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 8;
		struct seed_row *p = realloc(s->rows, ncap * sizeof *p);
		if (!p)
			return NULL;
		s->rows = p;
		*cap = ncap;
	}
	memset(&s->rows[s->n], 0, sizeof s->rows[0]);
	s->rows[s->n].clocksource = cs;
	s->rows[s->n].os_log = log;
	s->rows[s->n].run = run;
	return &s->rows[s->n++];
}

/* The clocksource an OS record ran on: type t of seeds_build's types. */
static const char *clocksource_of(const struct lr_node *rec, size_t t)
{
	struct ld_rate rate;
	struct ld_gaps gaps;
	struct ld_ctxsw ctxsw;
	struct ld_os_contention con;

	switch (t) {
	case 0: ld_decode_rate(rec, &rate); return ld_str_or(rate.clocksource, NULL);
	case 1: ld_decode_gaps(rec, &gaps); return ld_str_or(gaps.clocksource, NULL);
	case 2: ld_decode_ctxsw(rec, &ctxsw); return ld_str_or(ctxsw.clocksource, NULL);
	default: ld_decode_os_contention(rec, &con); return ld_str_or(con.clocksource, NULL);
	}
}

int seeds_build(const struct lrun *const *runs, size_t nruns, struct seeds *out)
{
	static const char *const types[] = { "rate", "gaps", "ctxsw", "os_contention" };
	size_t cap = 0;

	out->rows = NULL;
	out->n = 0;
	for (size_t j = 0; j < nruns; j++) {
		if (!lineup_is_os(runs[j]))
			continue;
		for (size_t i = 0; i < runs[j]->nrecs; i++) {
			const struct lrec *rec = &runs[j]->recs[i];
			const char *cs;
			size_t t = 0;
			struct seed_row *row;
			while (t < 4 && (!rec->type || strcmp(rec->type, types[t])))
				t++;
			if (t == 4 || !(cs = clocksource_of(rec->root, t)))
				continue;
			if (!(row = row_for(out, &cap, j, runs[j], cs))) {
				seeds_free(out);
				return -1;
			}
			if (t == 0 && !row->rate)
				row->rate = rec->root;
			else if (t == 1 && !row->gaps)
				row->gaps = rec->root;
			else if (t == 2 && !row->ctxsw)
				row->ctxsw = rec->root;
			else if (t == 3 && !row->contention)
				row->contention = rec->root;
		}
	}
	return 0;
}

void seeds_free(struct seeds *s)
{
	free(s->rows);
	s->rows = NULL;
	s->n = 0;
}

size_t seeds_numbers(const struct lr_node *arr, double **out)
{
	size_t n = 0;

	*out = NULL;
	if (!arr || arr->kind != LR_ARR || !arr->len)
		return 0;
	*out = malloc(arr->len * sizeof **out);
	if (!*out)
		return 0;
	for (const struct lr_node *m = arr->child; m; m = m->next)
		if (lr_num(m, &(*out)[n]))
			n++;
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return n;
}

void seeds_label(const struct seeds *s, size_t i, char *buf, size_t cap)
{
	bool several = false;

	for (size_t k = 1; k < s->n; k++)
		several |= s->rows[k].os_log != s->rows[0].os_log;
	if (several)
		snprintf(buf, cap, "%s@%s", s->rows[i].clocksource, s->rows[i].run->name);
	else
		snprintf(buf, cap, "%s", s->rows[i].clocksource);
}

/* The label as printed: escaped, for the text from the log it holds. */
static void shown_label(const struct seeds *s, size_t i, char *buf, size_t cap)
{
	char raw[160];

	seeds_label(s, i, raw, sizeof raw);
	ts_str(buf, cap, raw);
}

/* The loop's calls/s: one ministat block, every clocksource against the
 * first that has runs. */
static void print_rates(FILE *o, const struct seeds *s, double conf)
{
	struct ms_set *sets = calloc(s->n + 1, sizeof *sets);
	double **vals = calloc(s->n + 1, sizeof *vals);
	char (*names)[160] = calloc(s->n + 1, sizeof *names);
	struct ms_opts mo = { 0, conf, 0, 0 };
	size_t nsets = 0;
	double calls = 0;

	for (size_t i = 0; sets && vals && names && i < s->n; i++) {
		struct ld_rate rate;
		ld_decode_rate(s->rows[i].rate, &rate);
		size_t n = seeds_numbers(rate.runs.node, &vals[nsets]);
		if (n < 1)
			continue;
		if (!calls)
			lr_num(rate.calls.node, &calls);
		seeds_label(s, i, names[nsets], sizeof names[0]);
		sets[nsets].name = names[nsets];
		sets[nsets].values = vals[nsets];
		sets[nsets].n = n;
		nsets++;
	}
	if (nsets) {
		fprintf(o, "\nclock_gettime(MONOTONIC) calls per second, a loop of %.0f calls per run, each "
			   "clocksource against ", calls);
		ts_puts(o, sets[0].name);
		fputs(":\n", o);
		if (ms_print(o, sets, nsets, &mo, NULL) != 0)
			fprintf(o, "(out of memory: no comparison)\n");
	}
	for (size_t i = 0; vals && i < nsets; i++)
		free(vals[i]);
	free(sets);
	free(vals);
	free(names);
}

static void print_gaps(FILE *o, const struct seeds *s)
{
	bool head = false;

	for (size_t i = 0; i < s->n; i++) {
		struct ld_gaps g;
		double samples = 0, back = 0;
		char label[256];
		ld_decode_gaps(s->rows[i].gaps, &g);
		if (g.modes.state != LD_SET)
			continue;
		if (!head) {
			fprintf(o, "\nGaps between successive clock_gettime(MONOTONIC) results, the five most common "
				   "(ns x times seen):\n");
			head = true;
		}
		shown_label(s, i, label, sizeof label);
		lr_num(g.samples.node, &samples);
		lr_num(g.backwards.node, &back);
		fprintf(o, "  %-14s", label);
		for (const struct lr_node *m = g.modes.node->child; m; m = m->next) {
			double v, c;
			if (lr_num(lr_at(m, 0), &v) && lr_num(lr_at(m, 1), &c))
				fprintf(o, " %8.0f x %-8.0f", v, c);
		}
		fprintf(o, "  of %.0f%s\n", samples, back > 0 ? "; BACKWARDS STEPS SEEN" : "");
	}
}

static void print_ctxsw(FILE *o, const struct seeds *s)
{
	bool head = false;

	for (size_t i = 0; i < s->n; i++) {
		struct ld_ctxsw c;
		double med, mean, sd, rounds = 0;
		char label[256];
		if (!s->rows[i].ctxsw)
			continue;
		ld_decode_ctxsw(s->rows[i].ctxsw, &c);
		if (!head) {
			fprintf(o, "\nContext switches, a one-byte pipe ping-pong between two processes on one CPU "
				   "(switches per second over the rounds):\n");
			fprintf(o, "  %-14s %12s %12s %10s %10s %7s\n", "clocksource", "median/s", "mean/s", "sd", "ns each",
				"rounds");
			head = true;
		}
		shown_label(s, i, label, sizeof label);
		if (!ld_true(c.healthy) || c.switches_per_s.median.state != LD_SET ||
		    c.switches_per_s.mean.state != LD_SET) {
			const char *why = ld_str_or(c.reason, NULL);
			fprintf(o, "  %-14s not measured: ", label);
			ts_puts(o, why ? why : "no figures");
			fputc('\n', o);
			continue;
		}
		med = c.switches_per_s.median.v;
		mean = c.switches_per_s.mean.v;
		sd = c.switches_per_s.sd.state == LD_SET ? c.switches_per_s.sd.v : 0;
		rounds = (double)(c.runs.node ? c.runs.node->len : 0);
		fprintf(o, "  %-14s %12.0f %12.0f %10.0f %10.1f %7.0f\n", label, med, mean, sd, mean > 0 ? 1e9 / mean : 0,
			rounds);
	}
}

void seeds_print(FILE *o, const struct seeds *s, double conf)
{
	bool any = false;

	for (size_t i = 0; i < s->n; i++)
		any |= s->rows[i].rate || s->rows[i].gaps || s->rows[i].ctxsw;
	if (!any)
		return;
	fprintf(o, "\n== The seeds' figures, per clocksource ==\n");
	print_rates(o, s, conf);
	print_gaps(o, s);
	print_ctxsw(o, s);
}
