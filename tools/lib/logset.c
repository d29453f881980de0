/* SPDX-License-Identifier: BSD-2-Clause */
#include "tools/lib/logset.h"
#include "tools/lib/exit_codes.h"
#include "tools/lib/logschema.h"
#include "tools/lib/xalloc.h"
#include "tools/lib/textsafe.h"
#include "probe/log.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One reader pool for every file: 131072 nodes (about 9 MiB) parse any record
 * of up to 128 KiB of dense numbers, beyond the writer's 96 KiB limit. */
#define POOL_NODES (128u * 1024u)

struct loader {
	struct logfile *f;
	struct lrun *cur;   /* run being filled */
	double tsc_hz;      /* the run's tsc record, for the derived members */
	/* Streaming (logfile_stream): every record goes to each() and only the
	 * first of each type named in keep stays; NULL keep: every record stays. */
	const char *const *keep;
	void (*each)(void *ctx, struct lrun *r, const struct lrec *rec);
	void *each_ctx;
};

static struct lrun *run_by_index(struct logfile *f, uint32_t index)
{
	return index && index <= f->nruns ? &f->runs[index - 1] : NULL;
}

static void add_prob(struct lprob **v, size_t *n, size_t *cap, uint32_t line, int sev, const char *msg)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[*n].line = line;
	(*v)[*n].severity = sev;
	(*v)[*n].msg = xstrdup(msg);
	(*n)++;
}

static void on_run_begin(void *ctx, const struct lr_run *run)
{
	struct loader *L = ctx;
	struct logfile *f = L->f;
	f->runs = xrealloc(f->runs, (f->nruns + 1) * sizeof *f->runs);
	L->cur = &f->runs[f->nruns++];
	memset(L->cur, 0, sizeof *L->cur);
	L->cur->info = *run;
	L->tsc_hz = 0;
}

/* rec filled from the record's text: its own copy and its own parse, with
 * the derived members put back.  false when out of parse (cannot happen:
 * the reader parsed the same bytes with no more room). */
static bool rec_fill(struct lrec *rec, uint32_t line, const char *text, size_t len, double *tsc_hz)
{
	struct lr_doc doc;

	memset(rec, 0, sizeof *rec);
	rec->line = line;
	rec->text = xrealloc(NULL, len + 1);
	memcpy(rec->text, text, len);
	rec->text[len] = 0;
	rec->len = len;
	rec->nodes = xrealloc(NULL, (len / 2 + 8) * sizeof *rec->nodes);
	rec->strs = xrealloc(NULL, len + 16);
	lr_doc_init(&doc, rec->nodes, len / 2 + 8, rec->strs, len + 16);
	rec->root = lr_parse(&doc, rec->text, len);
	if (!rec->root) {
		lrec_free(rec);
		return false;
	}
	rec->type = ld_record_type(rec->root);
	lr_uint(lr_get(rec->root, "seq"), &rec->seq); /* the reader's header, as type */
	if (rec->type && !strcmp(rec->type, "tsc")) {
		struct ld_tsc tsc;
		ld_decode_tsc(rec->root, &tsc);
		if (tsc.hz.state == LD_SET)
			*tsc_hz = tsc.hz.v;
	}
	/* The nodes are this record's own (above), so the parse may grow. */
	derived_add(&rec->derived, (struct lr_node *)rec->root, *tsc_hz);
	return true;
}

void lrec_free(struct lrec *rec)
{
	free(rec->text);
	free(rec->nodes);
	free(rec->strs);
	derived_free(&rec->derived);
	memset(rec, 0, sizeof *rec);
}

/* Whether a streamed run keeps this record: the first of a type in keep. */
static bool kept_type(const struct loader *L, const struct lrun *r, const char *type)
{
	if (!type)
		return false;
	for (const char *const *k = L->keep; *k; k++)
		if (!strcmp(*k, type))
			return !lrun_first(r, type);
	return false;
}

static void on_record(void *ctx, const struct lr_run *run, uint32_t line, const char *text,
		      size_t len, const struct lr_node *root)
{
	struct loader *L = ctx;
	struct lrun *r = run_by_index(L->f, run->index);
	struct lrec rec;

	(void)root;
	if (!r || !rec_fill(&rec, line, text, len, &L->tsc_hz))
		return;
	L->f->records++;
	r->seen++;
	if (L->each)
		L->each(L->each_ctx, r, &rec);
	if (L->keep && !kept_type(L, r, rec.type)) {
		lrec_free(&rec);
		return;
	}
	if (r->nrecs == r->caprecs) {
		r->caprecs = r->caprecs ? r->caprecs * 2 : 32;
		r->recs = xrealloc(r->recs, r->caprecs * sizeof *r->recs);
	}
	r->recs[r->nrecs++] = rec;
}

static void on_problem(void *ctx, const struct lr_run *run, uint32_t line, int sev, const char *msg)
{
	struct loader *L = ctx;
	struct lrun *r = run ? run_by_index(L->f, run->index) : NULL;
	size_t *n = r ? &r->nprobs : &L->f->nprobs;

	if (r && sev >= LR_DAMAGE)
		r->nbad++;
	/* The reader's messages start with "line N: "; we print FILE:N: instead. */
	if (line && !strncmp(msg, "line ", 5)) {
		const char *c = strchr(msg, ':');
		if (c && c[1] == ' ')
			msg = c + 2;
	}
	/* A streamed log's problems are kept up to a bound: a damaged file of
	 * any length costs no more than that. */
	if (L->keep && *n >= LOGSET_STREAM_PROBLEMS) {
		if (r)
			r->probs_dropped++;
		else
			L->f->probs_dropped++;
		return;
	}
	if (r)
		add_prob(&r->probs, &r->nprobs, &r->capprobs, line, sev, msg);
	else
		add_prob(&L->f->probs, &L->f->nprobs, &L->f->capprobs, line, sev, msg);
}

/* A CPU the image cannot use writes, in place of any record, a plain-text
 * refusal (boot/cpu_check.S, boot/efi_cpu.c): "tickprobe: this CPU cannot
 * run tickprobe: it lacks A, B,\n  C." (the list goes on on lines indented
 * by two).  Writes "no records: the CPU cannot run the probe: it lacks A, B,
 * C." into why and returns true when data holds one. */
static bool refusal(const char *data, size_t n, char *why, size_t cap)
{
	static const char head[] = "tickprobe: this CPU cannot run tickprobe: ";
	const char *p = NULL, *end = data + n;
	size_t k;

	for (k = 0; !p && k + sizeof head - 1 <= n; k++)
		if (data[k] == 't' && !memcmp(data + k, head, sizeof head - 1))
			p = data + k;
	if (!p)
		return false;
	k = (size_t)snprintf(why, cap, "no records: the CPU cannot run the probe: ");
	for (p += sizeof head - 1; p < end && k + 1 < cap; p++) {
		if (*p == '\r')
			continue;
		if (*p == '\n') {
			if (end - p < 3 || p[1] != ' ' || p[2] != ' ')
				break;
			p += 2; /* the list goes on: the second space joins the lines */
		}
		why[k++] = *p;
	}
	why[k < cap ? k : cap - 1] = 0;
	return true;
}

static void on_run_end(void *ctx, const struct lr_run *run)
{
	struct loader *L = ctx;
	struct lrun *r = run_by_index(L->f, run->index);
	if (r)
		r->info = *run;
}

/* The reader's working memory (a 128 Ki-node pool and two line buffers),
 * kept from one file to the next; one set per thread, as `db import` loads
 * the next files on a thread of its own (tools/lib/logahead.c). */
struct reader_memory {
	struct lr_node *nodes;
	char *line, *strs;
};
static __thread struct reader_memory scratch; /* __thread, as cppcheck 2.10 misreads _Thread_local */

void logfile_load_done(void)
{
	free(scratch.nodes);
	free(scratch.line);
	free(scratch.strs);
	memset(&scratch, 0, sizeof scratch);
}

/* The reader's working set for this thread, allocated once. */
static struct logread *reader_for(struct loader *L)
{
	struct lr_sink sink = { L, on_run_begin, on_record, on_problem, on_run_end };
	struct logread *rd;

	if (!scratch.nodes) {
		scratch.nodes = xrealloc(NULL, POOL_NODES * sizeof *scratch.nodes);
		scratch.line = xrealloc(NULL, LR_LINE_MAX + 1);
		scratch.strs = xrealloc(NULL, LR_LINE_MAX + 16);
	}
	rd = xrealloc(NULL, sizeof *rd);
	lr_init(rd, scratch.line, LR_LINE_MAX, scratch.nodes, POOL_NODES, scratch.strs, LR_LINE_MAX + 16, &sink);
	return rd;
}

/* Names the runs and sets f->status once the whole file was read; head: its
 * first bytes (all of it when loaded whole), for the CPU's refusal. */
static int settle(struct logfile *f, const char *name, const char *head, size_t head_n, uint64_t n)
{
	for (size_t i = 0; i < f->nruns; i++) {
		struct lrun *r = &f->runs[i];
		size_t k = strlen(name) + 24;
		r->name = xrealloc(NULL, k);
		if (f->nruns > 1)
			snprintf(r->name, k, "%s#%zu", name, i + 1);
		else
			snprintf(r->name, k, "%s", name);
		if (r->info.newer_schema)
			f->status = EXIT_UNREADABLE;
		else if (lrun_damaged(r))
			f->status = exit_worse(f->status, EXIT_DAMAGED);
	}
	for (size_t i = 0; i < f->nprobs; i++)
		if (f->probs[i].severity >= LR_DAMAGE)
			f->status = exit_worse(f->status, EXIT_DAMAGED);
	if (f->probs_dropped)
		f->status = exit_worse(f->status, EXIT_DAMAGED);
	if (f->status == EXIT_UNREADABLE) {
		snprintf(f->why, sizeof f->why, "written by a newer tickprobe (schema above %d)", LOG_SCHEMA);
	} else if (!n) {
		f->status = EXIT_UNREADABLE;
		snprintf(f->why, sizeof f->why, "empty file");
	} else if (!f->records && refusal(head, head_n, f->why, sizeof f->why)) {
		f->status = EXIT_UNREADABLE;
	} else if (!f->records) {
		f->status = EXIT_UNREADABLE;
		snprintf(f->why, sizeof f->why, "no %srecords in %llu bytes", f->nruns ? "undamaged " : "",
			 (unsigned long long)n);
	}
	return f->status;
}

int logfile_load_mem(struct logfile *f, const char *name, const void *data, size_t n)
{
	struct loader L = { .f = f };
	struct logread *rd;

	memset(f, 0, sizeof *f);
	f->path = xstrdup(name);
	rd = reader_for(&L);
	lr_feed(rd, data, n);
	lr_finish(rd);
	free(rd);
	return settle(f, name, data, n, n);
}

int logfile_stream(struct logfile *f, int fd, const char *name, const char *const *keep,
		   void (*each)(void *ctx, struct lrun *r, const struct lrec *rec), void *ctx)
{
	static const char *const none[] = { NULL };
	struct loader L = { .f = f, .keep = keep ? keep : none, .each = each, .each_ctx = ctx };
	char *buf = xrealloc(NULL, LOGSET_STREAM_CHUNK), *head = xrealloc(NULL, LOGSET_STREAM_CHUNK);
	size_t head_n = 0;
	uint64_t total = 0;
	struct logread *rd;
	ssize_t got;

	memset(f, 0, sizeof *f);
	f->path = xstrdup(name);
	rd = reader_for(&L);
	while ((got = read(fd, buf, LOGSET_STREAM_CHUNK)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(f->why, sizeof f->why, "read error: %s", strerror(errno));
			break;
		}
		if (!head_n) {
			memcpy(head, buf, (size_t)got);
			head_n = (size_t)got;
		}
		lr_feed(rd, buf, (size_t)got);
		total += (uint64_t)got;
	}
	lr_finish(rd);
	free(rd);
	free(buf);
	if (got < 0) {
		free(head);
		f->status = EXIT_UNREADABLE;
		return f->status;
	}
	settle(f, name, head, head_n, total);
	free(head);
	return f->status;
}

int logfile_load(struct logfile *f, const char *path)
{
	FILE *in = fopen(path, "rb");
	char *data = NULL;
	size_t n = 0, cap = 0, got;
	int st;

	if (!in) {
		int e = errno;
		memset(f, 0, sizeof *f);
		f->path = xstrdup(path);
		f->status = EXIT_UNREADABLE;
		snprintf(f->why, sizeof f->why, "cannot open: %s", strerror(e));
		return f->status;
	}
	for (;;) {
		if (cap - n < 65536)
			data = xrealloc(data, cap = cap ? cap * 2 : 1 << 20);
		got = fread(data + n, 1, cap - n, in);
		n += got;
		if (!got)
			break;
	}
	if (ferror(in)) {
		int e = errno;
		fclose(in);
		free(data);
		memset(f, 0, sizeof *f);
		f->path = xstrdup(path);
		f->status = EXIT_UNREADABLE;
		snprintf(f->why, sizeof f->why, "read error: %s", strerror(e));
		return f->status;
	}
	fclose(in);
	st = logfile_load_mem(f, path, data, n);
	free(data);
	return st;
}

int exit_worse(int a, int b)
{
	static const int rank[] = { 0, 3, 2, 1 }; /* by status 0..3: usage > unreadable > damaged */
	if (a < 0 || a > 3)
		return a;
	if (b < 0 || b > 3)
		return b;
	return rank[a] >= rank[b] ? a : b;
}

int lrun_damaged(const struct lrun *r)
{
	return r->info.damaged || !r->info.has_begin || !r->info.has_end || !r->info.end_ok;
}

const char *lrun_state(const struct lrun *r, char *buf, size_t cap)
{
	size_t bad = r->nbad;

	if (r->info.newer_schema)
		snprintf(buf, cap, "unreadable (newer schema %llu)", (unsigned long long)r->info.schema);
	else if (!r->info.has_begin)
		snprintf(buf, cap, "partial: no begin record, %zu problem(s)", bad);
	else if (!r->info.has_end)
		snprintf(buf, cap, "partial: no end record (cut short), %zu problem(s)", bad);
	else if (!lrun_damaged(r))
		snprintf(buf, cap, "complete, undamaged");
	else
		snprintf(buf, cap, "damaged: %llu record(s) excluded, end check %s",
			 (unsigned long long)r->info.excluded, r->info.end_ok ? "agrees" : "fails");
	return buf;
}

/* "prog: NAME[:LINE]: text\n", NAME and text escaped: a file name found in a
 * directory and a message about a log are text from outside. */
static void report_line(FILE *out, const char *prog, const char *name, long line, const char *text)
{
	fprintf(out, "%s: ", prog);
	ts_puts(out, name);
	if (line >= 0)
		fprintf(out, ":%ld", line);
	fputs(": ", out);
	ts_puts(out, text);
	fputc('\n', out);
}

void logfile_report(const struct logfile *f, FILE *out, const char *prog)
{
	size_t i, k;
	char st[160];
	if (f->status == EXIT_UNREADABLE && f->why[0])
		report_line(out, prog, f->path, -1, f->why);
	for (i = 0; i < f->nprobs; i++)
		report_line(out, prog, f->path, f->probs[i].line, f->probs[i].msg);
	for (i = 0; i < f->nruns; i++) {
		const struct lrun *r = &f->runs[i];
		for (k = 0; k < r->nprobs; k++) {
			uint32_t line = r->probs[k].line;
			report_line(out, prog, line ? f->path : r->name, line ? (long)line : -1, r->probs[k].msg);
		}
		if (lrun_damaged(r) && !r->info.newer_schema)
			report_line(out, prog, r->name, -1, lrun_state(r, st, sizeof st));
	}
}

void logfile_free(struct logfile *f)
{
	size_t i, k;
	for (i = 0; i < f->nruns; i++) {
		struct lrun *r = &f->runs[i];
		for (k = 0; k < r->nrecs; k++)
			lrec_free(&r->recs[k]);
		for (k = 0; k < r->nprobs; k++)
			free(r->probs[k].msg);
		free(r->recs);
		free(r->probs);
		free(r->name);
	}
	for (i = 0; i < f->nprobs; i++)
		free(f->probs[i].msg);
	free(f->probs);
	free(f->runs);
	free(f->path);
	memset(f, 0, sizeof *f);
}

const struct lr_node *lrun_first(const struct lrun *r, const char *type)
{
	for (size_t i = 0; i < r->nrecs; i++)
		if (r->recs[i].type && !strcmp(r->recs[i].type, type))
			return r->recs[i].root;
	return NULL;
}

/* A timer record of the boot CPU: one without a `cpu` member. */
static bool boot_cpu_timer(const struct lrec *rec)
{
	struct ld_timer t;

	if (!rec->type || strcmp(rec->type, "timer"))
		return false;
	ld_decode_timer(rec->root, &t);
	return !t.cpu.node;
}

const struct lr_node *lrun_timer_at(const struct lrun *r, size_t k)
{
	for (size_t i = 0; i < r->nrecs; i++)
		if (boot_cpu_timer(&r->recs[i]) && !k--)
			return r->recs[i].root;
	return NULL;
}

const struct lr_node *lrun_timer(const struct lrun *r, const char *name)
{
	const struct lr_node *node;
	struct ld_timer t;

	for (size_t i = 0; (node = lrun_timer_at(r, i)); i++) {
		ld_decode_timer(node, &t);
		if (t.name.state == LD_SET && !strcmp(t.name.s, name))
			return node;
	}
	return NULL;
}

void lrun_timer_key(const struct lr_node *t, char *buf, size_t cap)
{
	struct ld_timer timer;

	ld_decode_timer(t, &timer);
	snprintf(buf, cap, "%s%s", timer.clocksource.state == LD_SET ? "os:" : "", ld_str_or(timer.name, "?"));
}

const struct lr_node *lrun_timer_by_key(const struct lrun *r, const char *key)
{
	const struct lr_node *t;
	char k[128];

	for (size_t i = 0; (t = lrun_timer_at(r, i)); i++) {
		lrun_timer_key(t, k, sizeof k);
		if (!strcmp(k, key))
			return t;
	}
	return NULL;
}

const char *lrun_boot(const struct lrun *r)
{
	struct ld_begin b;

	ld_decode_begin(lrun_first(r, "begin"), &b);
	return ld_str_or(b.boot, NULL);
}

size_t timer_rounds(const struct lr_node *timer, const char *metric, double **out)
{
	struct ld_timer t;
	const struct lr_node *m;
	struct lr_rounds it;

	ld_decode_timer(timer, &t);
	const struct lr_node *rounds = t.rounds.node;
	size_t n = 0, max = lr_rounds_count(rounds, metric);
	*out = NULL;
	if (!max)
		return 0;
	*out = xrealloc(NULL, max * sizeof **out);
	lr_rounds_init(&it, rounds, metric);
	while (lr_rounds_next(&it, &m)) {
		double v;
		if (lr_num(m, &v))
			(*out)[n++] = v;
	}
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return n;
}

const char *fmt_num(char *buf, size_t cap, const struct lr_node *n, int decimals)
{
	double v;
	if (!lr_num(n, &v))
		snprintf(buf, cap, "-");
	else if (n->str && n->len && n->len < cap && decimals < 0)
		snprintf(buf, cap, "%.*s", (int)n->len, n->str); /* exactly as written */
	else if (n->is_int)
		snprintf(buf, cap, "%s%llu", n->neg ? "-" : "",
			 (unsigned long long)(n->neg ? (uint64_t)0 - (uint64_t)n->i : n->u));
	else
		snprintf(buf, cap, "%.*f", decimals, v);
	return buf;
}
