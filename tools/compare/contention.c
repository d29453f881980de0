/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe compare`: the multi-CPU records across logs (tools/compare/contention.h). */
#include "tools/compare/contention.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/logschema.h"
#include "tools/lib/smprec.h"
#include "tools/lib/textsafe.h"

#define MAX_COUNTERS 16
#define MAX_LEVELS 32   /* 1, 2, 4 … 256 and N: 10 for 256 CPUs */
#define LABEL_W 8       /* "readers" / "[12]" */
#define CELL_W 21       /* "  290.7     1151704" : p50 and reads/s */
#define ROW_CELL_W 10   /* one level's figure when the logs are rows */

struct table {
	const char *counters[MAX_COUNTERS];
	size_t ncounters;
	uint64_t levels[MAX_COUNTERS][MAX_LEVELS];
	size_t nlevels[MAX_COUNTERS];
};

static void add_level(struct table *t, size_t c, uint64_t n)
{
	size_t i, k = t->nlevels[c];
	for (i = 0; i < k && t->levels[c][i] < n; i++)
		;
	if ((i < k && t->levels[c][i] == n) || k == MAX_LEVELS)
		return;
	memmove(&t->levels[c][i + 1], &t->levels[c][i], (k - i) * sizeof t->levels[c][0]);
	t->levels[c][i] = n;
	t->nlevels[c]++;
}

static void collect(struct table *t, const struct smp_view *v, size_t nlogs)
{
	for (size_t j = 0; j < nlogs; j++)
		for (size_t i = 0; i < v[j].ncontention; i++) {
			struct ld_contention c;
			const char *name;
			size_t k;
			ld_decode_contention(v[j].contention[i], &c);
			if (c.counter.state != LD_SET)
				continue;
			name = c.counter.s;
			for (k = 0; k < t->ncounters && strcmp(t->counters[k], name); k++)
				;
			if (k == t->ncounters) {
				if (k == MAX_COUNTERS)
					continue;
				t->counters[t->ncounters++] = name;
			}
			/* spread levels only: smp_level never finds the siblings' level */
			for (size_t l = 0; c.readers.state == LD_SET && l < c.readers.n; l++) {
				struct ld_contention_level e;
				ld_contention_readers_at(&c, l, &e);
				if (!smp_level_siblings(e.ld.node) && e.n.state == LD_SET)
					add_level(t, k, e.n.v);
			}
		}
}

static void sync_line(const struct smp_view *v, size_t j, double hz)
{
	struct smp_sync_summary sm;
	struct smp_spread sp;
	int64_t off;
	uint64_t u;
	char b[160];

	printf("  [%zu] ", j + 1);
	if (!v->cpus && !smp_multi(v)) {
		printf("no cpus record%s\n", v->nleft_out ? " (a damaged record left out)" : "");
		return;
	}
	if (!smp_multi(v)) {
		printf("%ld CPU%s listed, %ld running: no multi-CPU records\n", v->count, v->count == 1 ? "" : "s",
		       v->started);
		return;
	}
	if (v->cpus)
		printf("%ld of %ld CPUs running; ", v->started, v->count);
	else
		printf("CPUs not known (%s); ", smp_left_out_lines(v, SMP_CPUS, b, sizeof b) ? "cpus record damaged, left out"
											    : "no cpus record");
	printf("tsc sync %s", smp_sync_word(v));
	if (smp_left_out_lines(v, SMP_SYNC, b, sizeof b))
		printf(" (%s damaged, left out)", b);
	if (v->sync) {
		struct ld_tsc_sync s;
		struct ld_tsc_pair largest;
		bool unstable;
		ld_decode_tsc_sync(v->sync, &s);
		unstable = s.linux_would_mark_unstable.state == LD_SET && s.linux_would_mark_unstable.v;
		smp_sync_summary(v, &sm);
		printf(": %zu pairs, %s warps, Linux %s", sm.pairs, fmt_num(b, sizeof b, s.warps.node, -1),
		       unstable ? "would mark the TSC unstable" : "would keep the TSC");
		if (sm.largest && smp_pair_offset(sm.largest, &off, &u)) {
			ld_decode_tsc_pair(sm.largest, &largest);
			printf("\n      largest |offset| CPU %s: %+" PRId64 " +/- %" PRIu64 " cycles",
			       fmt_num(b, sizeof b, largest.cpu.node, -1), off, u);
			if (hz > 0)
				printf(" (%+.3f +/- %.3f ms)", (double)off / hz * 1e3, (double)u / hz * 1e3);
		}
		if (sm.outside)
			printf("; %zu pair%s outside %s uncertainty", sm.outside, sm.outside == 1 ? "" : "s",
			       sm.outside == 1 ? "its" : "their");
	}
	if (smp_percpu_spread(v, "tsc", &sp))
		printf("\n      per-CPU tsc p50 %.1f / %.1f / %.1f %s (min / median / max over %zu CPUs)", sp.min,
		       sp.median, sp.max, sp.ns ? "ns" : "cycles", sp.n);
	printf("\n");
}

/* One level's p50 and reads/s, "-" where the log has no such level. */
static void figures(const struct lr_node *lv, char *p50, char *rps, size_t cap)
{
	struct ld_contention_level e;

	ld_decode_contention_level(lv, &e);
	fmt_num(p50, cap, e.p50_ns.node, 1);
	fmt_num(rps, cap, e.reads_per_s.node, 0);
}

/* Reader counts as rows, logs as columns. */
static void by_columns(const struct table *t, size_t c, const struct smp_view *v, size_t nlogs)
{
	char p50[32], rps[32], h[24];
	printf("%-*s", LABEL_W, "");
	for (size_t j = 0; j < nlogs; j++) {
		snprintf(h, sizeof h, "[%zu]", j + 1);
		if (smp_contention(&v[j], t->counters[c]))
			printf(" %*s", CELL_W, h);
	}
	printf("\n%-*s", LABEL_W, "readers");
	for (size_t j = 0; j < nlogs; j++)
		if (smp_contention(&v[j], t->counters[c]))
			printf(" %*s %*s", 8, "p50 ns", CELL_W - 9, "reads/s");
	printf("\n");
	for (size_t l = 0; l < t->nlevels[c]; l++) {
		printf("%*" PRIu64 "%*s", 7, t->levels[c][l], LABEL_W - 7, "");
		for (size_t j = 0; j < nlogs; j++) {
			const struct lr_node *rec = smp_contention(&v[j], t->counters[c]);
			const struct lr_node *lv = smp_level(rec, t->levels[c][l]);
			if (!rec)
				continue;
			if (!lv) {
				printf(" %*s %*s", 8, "-", CELL_W - 9, "-");
				continue;
			}
			figures(lv, p50, rps, sizeof p50);
			printf(" %*s %*s", 8, p50, CELL_W - 9, rps);
		}
		printf("\n");
	}
}

/* Logs as rows, reader counts as columns: two blocks, p50 then reads/s, in
 * as many slices of columns as the width needs. */
static void by_rows(const struct table *t, size_t c, const struct smp_view *v, size_t nlogs, int width)
{
	char p50[32], rps[32], h[24];
	size_t per = (size_t)(width - LABEL_W) / (ROW_CELL_W + 1);
	if (per < 1)
		per = 1;
	for (int what = 0; what < 2; what++)
		for (size_t first = 0; first < t->nlevels[c]; first += per) {
			size_t end = first + per < t->nlevels[c] ? first + per : t->nlevels[c];
			printf("%-*s", LABEL_W, what ? "reads/s" : "p50 ns");
			for (size_t l = first; l < end; l++) {
				snprintf(h, sizeof h, "n=%" PRIu64, t->levels[c][l]);
				printf(" %*s", ROW_CELL_W, h);
			}
			printf("\n");
			for (size_t j = 0; j < nlogs; j++) {
				const struct lr_node *rec = smp_contention(&v[j], t->counters[c]);
				if (!rec)
					continue;
				snprintf(h, sizeof h, "[%zu]", j + 1);
				printf("%-*s", LABEL_W, h);
				for (size_t l = first; l < end; l++) {
					const struct lr_node *lv = smp_level(rec, t->levels[c][l]);
					if (lv)
						figures(lv, p50, rps, sizeof p50);
					printf(" %*s", ROW_CELL_W, !lv ? "-" : what ? rps : p50);
				}
				printf("\n");
			}
		}
}

/* Levels where fewer readers returned than were asked: not like for like. */
static void short_levels(const struct table *t, size_t c, const struct smp_view *v, size_t nlogs)
{
	size_t said = 0;
	for (size_t j = 0; j < nlogs; j++) {
		struct ld_contention rec;
		ld_decode_contention(smp_contention(&v[j], t->counters[c]), &rec);
		for (size_t l = 0; rec.readers.state == LD_SET && l < rec.readers.n; l++) {
			struct ld_contention_level e;
			uint64_t n, ret;
			ld_contention_readers_at(&rec, l, &e);
			if (e.n.state != LD_SET || e.returned.state != LD_SET || e.returned.v >= e.n.v)
				continue;
			n = e.n.v;
			ret = e.returned.v;
			printf("%s [%zu] at %" PRIu64 ": %" PRIu64 " of %" PRIu64, said++ ? "," : "fewer readers returned than asked:",
			       j + 1, n, ret, n);
		}
	}
	if (said)
		printf("\n");
}

void compare_cpus(const struct lrun *const *logs, size_t nlogs, int width)
{
	struct smp_view *v = calloc(nlogs ? nlogs : 1, sizeof *v);
	struct table *t = calloc(1, sizeof *t);
	size_t multi = 0;
	char b[160];

	if (!v || !t) {
		fprintf(stderr, "tickprobe compare: out of memory comparing the CPUs\n");
		free(v);
		free(t);
		return;
	}
	for (size_t j = 0; j < nlogs; j++) {
		smp_view_load(&v[j], logs[j]);
		multi += smp_multi(&v[j]);
	}
	if (!multi) {
		free(v);
		free(t);
		return;
	}
	printf("\n== CPUs: TSC synchronisation and per-CPU cost ==\n");
	for (size_t j = 0; j < nlogs; j++) {
		struct ld_tsc tsc;
		ld_decode_tsc(lrun_first(logs[j], "tsc"), &tsc);
		sync_line(&v[j], j, tsc.hz.state == LD_SET ? tsc.hz.v : 0);
	}
	collect(t, v, nlogs);
	for (size_t c = 0; c < t->ncounters; c++) {
		char name[160];
		ts_str(name, sizeof name, t->counters[c]);
		printf("\n== contention: %s read by many CPUs at once ==\n", name);
		printf("p50: the median over the readers of each reader's p50; reads/s: all readers together.\n"
		       "No test: a level has one p50 and one rate, no rounds to test a difference on.\n");
		for (size_t j = 0; j < nlogs; j++) {
			struct ld_contention rec;
			ld_decode_contention(smp_contention(&v[j], t->counters[c]), &rec);
			if (rec.refused.state == LD_SET) {
				printf("  [%zu] refused: ", j + 1);
				ts_puts(stdout, rec.refused.s);
				putchar('\n');
			} else if (rec.ld.state == LD_ABSENT && smp_multi(&v[j]))
				printf("  [%zu] no contention record for %s%s%s\n", j + 1, name,
				       smp_left_out_lines(&v[j], SMP_CONTENTION, b, sizeof b) ? "; damaged, left out: " : "", b);
		}
		if (LABEL_W + (int)nlogs * (CELL_W + 1) > width)
			by_rows(t, c, v, nlogs, width);
		else
			by_columns(t, c, v, nlogs);
		short_levels(t, c, v, nlogs);
		printf("backward steps across CPUs, of the ordered pairs:");
		for (size_t j = 0; j < nlogs; j++) {
			struct ld_contention rec;
			char o[32];
			ld_decode_contention(smp_contention(&v[j], t->counters[c]), &rec);
			if (rec.ld.state != LD_ABSENT && rec.refused.state != LD_SET)
				printf(" [%zu] %s of %s", j + 1, fmt_num(b, sizeof b, rec.backwards.node, -1),
				       fmt_num(o, sizeof o, rec.ordered.node, -1));
		}
		printf("\n");
	}
	free(v);
	free(t);
}
