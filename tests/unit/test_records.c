/* SPDX-License-Identifier: BSD-2-Clause */
/* The image and `tickprobe os` write timer records through one writer
 * (probe/records.c): the same samples give the same members on both sides.
 * The samples are chosen where the two once parted: a p50 of 0 (the image
 * took 10 cycles as the outlier limit, the OS side 1) and costs past
 * HIST_EXACT (the image wrote histogram bucket bounds as the largest
 * outliers, the OS side exact values). */
#include <math.h>
#include <stdlib.h>
#include "tests/unit/check.h"
#include "tests/unit/sim_counter.h"
#include "tools/lib/json_parse.h"
#include "probe/records.h"
#include "tools/os/bench.h"
#include "tools/os/record.h"

#define N 1000
#define WARM 16 /* measure_counter's untimed reads */

static const uint64_t big[5] = { 20001, 30007, 40009, 50021, 65537 };

struct capture {
	char buf[LOG_RECORD_MAX + 64];
	size_t len;
};

static void cap_sink(void *ctx, const char *s, size_t n)
{
	struct capture *c = ctx;
	if (c->len + n <= sizeof c->buf) {
		memcpy(c->buf + c->len, s, n);
		c->len += n;
	}
}

/* The costs: 600 of 0, 300 of 5, 95 of 12, then the five large ones. */
static uint64_t cost_of(int i)
{
	return i < 600 ? 0 : i < 900 ? 5 : i < 995 ? 12 : big[i - 995];
}

/* The text of member key ("\"outliers\":{...}") in a record line; the
 * values compared hold no strings, so brackets are counted as they come. */
static void member(const char *line, const char *key, char *out, size_t cap)
{
	char want[64];
	const char *p, *q;
	int depth = 0;

	snprintf(want, sizeof want, "\"%s\":", key);
	out[0] = 0;
	if (!(p = strstr(line, want)))
		return;
	for (q = p + strlen(want); *q; q++) {
		if (*q == '{' || *q == '[')
			depth++;
		else if (*q == '}' || *q == ']') {
			if (depth-- == 0)
				break;
			if (depth == 0) {
				q++;
				break;
			}
		} else if (*q == ',' && depth == 0)
			break;
	}
	snprintf(out, cap, "%.*s", (int)(q - p), p);
}

static struct capture image_cap, os_cap;

static void image_side(void)
{
	static uint64_t script[WARM + N];
	static struct hist cost, round;
	struct measure_result r;
	struct sim_counter s;
	struct probe_clock pc;
	struct log *lg = malloc(sizeof *lg);

	for (int i = 0; i < WARM; i++)
		script[i] = 0;
	for (int i = 0; i < N; i++)
		script[WARM + i] = cost_of(i);
	sim_clock(&pc);
	sim_counter_init(&s, "hpet", SIM_RATE, 32, 14318180);
	s.st.healthy = true;
	sim_bracket_script(script, WARM + N);
	measure_counter(&s.c, &pc, 0, N, 1, &cost, &round, NULL, 0, &r);
	log_init(lg, cap_sink, &image_cap);
	record_timer(lg, &s.c, &s.st, &r, &cost, NULL, 1e9, N);
	free(lg);
}

static void os_side(void)
{
	struct os_dist *d = os_dist_new();
	struct os_sample_ctx c = { 0 };
	struct log *lg = malloc(sizeof *lg);
	struct os_timer_rec rec = {
		.name = "hpet", .call = "load(hpet_counter)", .method = "simulated read", .present = true,
		.healthy = true, .width = 32, .hz = 1e9, .samples_requested = N,
	};

	c.h = d->h;
	for (int i = 0; i < N; i++)
		os_sample_add(&c, 0, cost_of(i));
	d->clamped = c.clamped;
	memcpy(d->top, c.top, sizeof d->top);
	d->nrounds = 1;
	d->round_p50_ns[0] = (double)hist_quantile(d->h, 500000);
	d->round_mean_ns[0] = hist_mean(d->h);
	d->tp_reads = 100;
	d->tp_cycles = 703;
	rec.d = d;
	log_init(lg, cap_sink, &os_cap);
	os_write_timer(lg, &rec);
	free(lg);
	os_dist_free(d);
}

int main(void)
{
	static char a[8192], b[8192];
	static struct lr_node nodes[20000];
	static char strs[1 << 16];
	struct lr_doc doc;
	const struct lr_node *root, *n;
	uint64_t v;
	bool ok;

	image_side();
	os_side();
	check(COND(image_cap.len > 0) && COND(os_cap.len > 0),
	      "records: both sides wrote a timer record (%zu and %zu bytes)", image_cap.len, os_cap.len);
	image_cap.buf[image_cap.len - 1] = 0;
	os_cap.buf[os_cap.len - 1] = 0;

	static const char *const same[] = { "outliers", "cost_cycles", "rounds", "samples", "hist" };
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		member(image_cap.buf, same[i], a, sizeof a);
		member(os_cap.buf, same[i], b, sizeof b);
		check(COND(a[0]) && COND(!strcmp(a, b)),
		      "records: the image and the OS side write the same %s: %.120s | %.120s", same[i], a, b);
	}

	/* Schema 2 leaves out what follows from other members on both sides,
	 * and clamped and samples_requested when 0 and equal to samples. */
	static const char *const left_out[] = { "cost_ns", "reads_per_s", "overhead_cycles", "clamped",
						"samples_requested" };
	for (size_t i = 0; i < sizeof left_out / sizeof left_out[0]; i++) {
		member(image_cap.buf, left_out[i], a, sizeof a);
		member(os_cap.buf, left_out[i], b, sizeof b);
		check(COND(!a[0]) && COND(!b[0]), "records: neither side writes %s: %.60s | %.60s", left_out[i], a, b);
	}

	member(image_cap.buf, "modes", a, sizeof a);
	member(os_cap.buf, "modes", b, sizeof b);
	check(COND(!a[0]) && COND(!b[0]),
	      "records: neither side writes modes beside a whole histogram (schema 2): %.60s | %.60s", a, b);

	lr_doc_init(&doc, nodes, sizeof nodes / sizeof nodes[0], strs, sizeof strs);
	root = lr_parse(&doc, image_cap.buf, strlen(image_cap.buf));
	ok = root && (n = lr_path(root, "outliers.largest")) && n->kind == LR_ARR && n->len == 5;
	for (size_t i = 0; ok && i < 5; i++)
		ok &= lr_uint(lr_at(n, i), &v) && v == big[4 - i];
	check(ok, "records: outliers.largest holds the exact costs 65537 50021 40009 30007 20001, not bucket bounds");
	ok = root && lr_uint(lr_path(root, "outliers.over_10x_p50"), &v) && v == 100;
	check(ok, "records: p50 0: over_10x_p50 counts the 100 samples over 10 cycles, not the 400 over 1 (%llu)",
	      (unsigned long long)v);
	return check_done();
}
