/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: the log reader (tools/lib/logread.c, tools/lib/json_parse.c) and
 * the host loader (tools/lib/logset.c) on hostile serial captures.
 *
 * Input: three setup bytes, then the capture.
 *   byte 0: the line buffer's size (small ones make "over-long line" paths)
 *   byte 1: the JSON node pool's size
 *   byte 2: the decoded-string buffer's size; its top bit: feed the capture
 *           byte by byte instead of in chunks of varying size
 * The reader runs over the capture through every callback, each callback
 * checking what it is given; then logfile_load_mem() loads the same bytes
 * the way show/compare/export do, and its results are walked and reported,
 * every record's `hist` and `rounds` decoded.  A CRC keeps a mutated record
 * from the loader, so the histogram decoder (probe/hist_codec.c) also gets the
 * capture itself: as an encoded string, and parsed as one JSON value (the
 * schema-1 pairs).  Whatever it accepts must be in order, and a string it
 * accepts must be exactly what the encoder writes for those bins. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/logread.h"
#include "tools/lib/hist_decode.h"
#include "tools/lib/logset.h"

struct seen {
	unsigned begins, ends, records, problems;
	const struct lr_run *open;
};

static void on_begin(void *ctx, const struct lr_run *run)
{
	struct seen *s = ctx;
	if (!run || run->index == 0)
		abort();
	s->begins++;
}

static void on_record(void *ctx, const struct lr_run *run, uint32_t line, const char *text,
		      size_t len, const struct lr_node *root)
{
	struct seen *s = ctx;
	volatile char sink = 0;

	if (!run || !text || !root || !len || text[0] != '{')
		abort();
	/* Touch every byte the reader claims is there. */
	for (size_t i = 0; i < len; i++)
		sink ^= text[i];
	(void)sink;
	(void)line;
	if (root->kind != LR_OBJ)
		abort();
	s->records++;
}

static void on_problem(void *ctx, const struct lr_run *run, uint32_t line, int severity,
		       const char *msg)
{
	struct seen *s = ctx;
	(void)run;
	(void)line;
	if (severity < LR_NOTE || severity > LR_FATAL || !msg || strlen(msg) >= 200)
		abort();
	s->problems++;
}

static void on_end(void *ctx, const struct lr_run *run)
{
	struct seen *s = ctx;
	if (!run)
		abort();
	s->ends++;
}

static FILE *devnull(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

static void reader(const uint8_t *setup, const uint8_t *data, size_t size)
{
	size_t cap = 1 + (size_t)setup[0] * 16;  /* 1 .. 4081 */
	size_t ncap = 1 + (size_t)setup[1] * 4;  /* 1 .. 1021 */
	size_t scap = 1 + (size_t)(setup[2] & 0x7f) * 32;
	char *buf = malloc(cap + 1);
	struct lr_node *nodes = malloc(ncap * sizeof *nodes);
	char *strs = malloc(scap);
	struct logread *r = malloc(sizeof *r);
	struct seen s = { 0 };
	struct lr_sink sink = { &s, on_begin, on_record, on_problem, on_end };
	size_t off = 0, step = 1;

	lr_init(r, buf, cap, nodes, ncap, strs, scap, &sink);
	while (off < size) {
		size_t n = size - off;
		if (setup[2] & 0x80)
			n = 1;
		else if (n > step)
			n = step;
		lr_feed(r, data + off, n);
		off += n;
		step = step * 7 % 61 + 1; /* chunk edges land anywhere in a line */
	}
	lr_finish(r);
	if (s.ends > s.begins)
		abort();
	free(r);
	free(strs);
	free(nodes);
	free(buf);
}

/* Decodes a histogram, checking what the decoder promises. */
static void walk_hist(struct hist_dec *d)
{
	uint64_t v, c, last = 0;
	bool any = false;
	int got;

	while ((got = hist_dec_next(d, &v, &c)) == 1) {
		if (!c || (any && v <= last))
			abort();
		if (d->form == HIST_FORM_COMPACT && hist_bin_low(hist_bin_of(v)) != v)
			abort();
		last = v;
		any = true;
	}
	if ((got < 0) != (d->err != NULL) || hist_dec_next(d, &v, &c) != got)
		abort();
}

/* An accepted string is canonical: encoding its bins gives it back. */
static void hist_string(const uint8_t *data, size_t size)
{
	static char out[1 << 20];
	struct hist_dec d;
	struct hist_enc e;
	struct json j;
	uint64_t v, c;

	hist_dec_init_str(&d, (const char *)data, size);
	walk_hist(&d);
	if (d.err || d.form != HIST_FORM_COMPACT || size + 8 > sizeof out)
		return;
	json_init(&j, out, sizeof out);
	json_object_begin(&j, NULL);
	hist_enc_begin(&e, &j, "h");
	hist_dec_init_str(&d, (const char *)data, size);
	while (hist_dec_next(&d, &v, &c) == 1)
		hist_enc_add(&e, v, c);
	hist_enc_end(&e);
	if (j.overflow || j.len != size + 7 || memcmp(out + 6, data, size))
		abort();
}

static void hist_json(const uint8_t *data, size_t size)
{
	static struct lr_node nodes[4096];
	static char strs[1 << 16];
	struct lr_doc doc;
	struct hist_dec d;
	const struct lr_node *root;

	if (size > sizeof strs)
		return;
	lr_doc_init(&doc, nodes, sizeof nodes / sizeof nodes[0], strs, sizeof strs);
	root = lr_parse(&doc, (const char *)data, size);
	if (!root)
		return;
	hist_dec_init(&d, root);
	walk_hist(&d);
	hist_dec_init(&d, lr_get(root, "hist"));
	walk_hist(&d);
	(void)lr_rounds_count(lr_get(root, "rounds"), "p50");
}

static void loader(const uint8_t *data, size_t size)
{
	struct logfile f;
	char tmp[64];

	logfile_load_mem(&f, "fuzz.log", data, size);
	logfile_report(&f, devnull(), "tickprobe");
	for (size_t i = 0; i < f.nruns; i++) {
		const struct lrun *r = &f.runs[i];
		const struct lr_node *t;
		(void)lrun_state(r, tmp, sizeof tmp);
		(void)lrun_damaged(r);
		(void)lrun_boot(r);
		(void)lrun_first(r, "machine");
		(void)lrun_timer(r, "tsc");
		for (size_t k = 0; (t = lrun_timer_at(r, k)); k++) {
			double *v = NULL;
			size_t n = timer_rounds(t, k & 1 ? "mean" : "p50", &v);
			if (n && !v)
				abort();
			free(v);
		}
		for (size_t k = 0; k < r->nrecs; k++) {
			const struct lr_node *c;
			struct hist_dec d;
			for (c = r->recs[k].root->child; c; c = c->next)
				(void)fmt_num(tmp, sizeof tmp, c, (int)(k % 4) - 1);
			hist_dec_init(&d, lr_get(r->recs[k].root, "hist"));
			walk_hist(&d);
			(void)lr_rounds_count(lr_get(r->recs[k].root, "rounds"), "mean");
		}
	}
	logfile_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	reader(data, data + 3, size - 3);
	loader(data + 3, size - 3);
	hist_string(data + 3, size - 3);
	hist_json(data + 3, size - 3);
	return 0;
}
