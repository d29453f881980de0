/* SPDX-License-Identifier: BSD-2-Clause */
/* The derived members (logderived.h).  Written as JSON text and parsed like a
 * record, so the numbers carry their text as every other number does; the
 * ns figures take the 1 decimal the image wrote before it left them out. */
#include "tools/lib/logderived.h"
#include "tools/lib/logschema.h"
#include "tools/lib/xalloc.h"
#include "tools/lib/textbuf.h"
#include "lib/json.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ch(struct text *t, const char *s)
{
	text_put(t, s, strlen(s));
}

static double to_ns(double cycles, double hz) { return cycles * 1e9 / hz; }

static void cost_ns(struct text *t, const struct lr_node *cycles, double hz)
{
	const struct lr_node *m;
	bool first = true;
	double v;
	ch(t, "\"cost_ns\":{");
	for (m = cycles->child; m; m = m->next)
		if (m->key && lr_num(m, &v)) {
			/* The log's own key, as JSON: a quote in it must not end the name. */
			if (!first)
				text_putc(t, ',');
			text_json_str(t, m->key, strlen(m->key));
			text_printf(t, ":%.1f", to_ns(v, hz));
			first = false;
		}
	ch(t, "}");
}

/* Each "NAME_cycles" column [..] without a "NAME_ns" twin gets one. */
static void ns_columns(struct text *t, const struct lr_node *root, double hz, bool *any)
{
	for (const struct lr_node *m = root->child; m; m = m->next) {
		size_t k = m->key ? strlen(m->key) : 0;
		char twin[96];
		double v;
		if (m->kind != LR_ARR || k <= 7 || k >= sizeof twin || strcmp(m->key + k - 7, "_cycles"))
			continue;
		snprintf(twin, sizeof twin, "%.*s_ns", (int)(k - 7), m->key);
		if (lr_get(root, twin))
			continue;
		if (*any)
			text_putc(t, ',');
		text_json_str(t, twin, strlen(twin));
		ch(t, ":[");
		*any = true;
		for (const struct lr_node *e = m->child; e; e = e->next) {
			if (lr_num(e, &v))
				text_printf(t, e == m->child ? "%.1f" : ",%.1f", to_ns(v, hz));
			else
				ch(t, e == m->child ? "null" : ",null");
		}
		ch(t, "]");
	}
}

static struct lr_node *last_of(struct lr_node *obj)
{
	struct lr_node *m = obj->child;
	while (m && m->next)
		m = m->next;
	return m;
}

static void splice(struct lr_node *obj, struct lr_node *m)
{
	struct lr_node *last = last_of(obj);
	m->next = NULL;
	if (last)
		last->next = m;
	else
		obj->child = m;
	obj->len++;
}

/* ---- per-CPU lists written as columns ------------------------------------ */

/* A list with one entry per CPU is written as columns, {"key": [one value a
 * CPU], …}, the keys once rather than once a CPU (a 256-CPU cpus record:
 * 8 KB rather than 32).  Which members those are: */
static bool is_columns(const char *type, const struct lr_node *m)
{
	if (m->kind != LR_OBJ || !m->key)
		return false;
	return (!strcmp(type, "cpus") && !strcmp(m->key, "list")) ||
	       ((!strcmp(type, "tsc_sync") || !strcmp(type, "tsc_sync_pairs")) && !strcmp(m->key, "pairs"));
}

static int decimals_of(const struct lr_node *n)
{
	const char *dot = n->str ? memchr(n->str, '.', n->len) : NULL;
	size_t k = 0;
	while (dot && dot + 1 + k < n->str + n->len && dot[1 + k] >= '0' && dot[1 + k] <= '9')
		k++;
	return (int)k;
}

static void value(struct json *j, const char *key, const struct lr_node *v)
{
	/* null, and a column holds no arrays or objects: null too */
	if (!v || v->kind == LR_NULL || v->kind == LR_ARR || v->kind == LR_OBJ)
		json_null(j, key);
	else if (v->kind == LR_BOOL)
		json_bool(j, key, v->b);
	else if (v->kind == LR_STR)
		json_str(j, key, v->str);
	else if (v->kind == LR_NUM && v->is_int && v->neg)
		json_i64(j, key, v->i);
	else if (v->kind == LR_NUM && v->is_int)
		json_u64(j, key, v->u);
	else
		json_fixed(j, key, v->d, decimals_of(v));
}

/* The columns as rows: [{"key": value, …}, …], as long as the longest column
 * (a shorter one gives null).  NULL when they do not fit the buffer. */
static char *rows_text(const struct lr_node *cols, size_t *n)
{
	size_t rows = 0, cap = 4096;
	char *buf;
	struct json j;

	for (const struct lr_node *c = cols->child; c; c = c->next) {
		if (c->kind != LR_ARR)
			return NULL;
		rows = c->len > rows ? c->len : rows;
	}
	for (const struct lr_node *c = cols->child; c; c = c->next)
		cap += rows * (strlen(c->key) + 32);
	for (const struct lr_node *c = cols->child; c; c = c->next)
		for (const struct lr_node *e = c->child; e; e = e->next)
			cap += e->kind == LR_STR ? e->len * 6 : 0;
	buf = xrealloc(NULL, cap);
	json_init(&j, buf, cap);
	json_array_begin(&j, NULL);
	for (size_t i = 0; i < rows; i++) {
		json_object_begin(&j, NULL);
		for (const struct lr_node *c = cols->child; c; c = c->next)
			value(&j, c->key, lr_at(c, i));
		json_object_end(&j);
	}
	json_array_end(&j);
	if (j.overflow) {
		free(buf);
		return NULL;
	}
	*n = j.len;
	return buf;
}

/* Every list written as columns becomes the array of objects it stands for;
 * its node is rewritten in place, its columns left unreachable. */
static void expand_columns(struct derived *d, struct lr_node *root, const char *type)
{
	for (struct lr_node *m = root->child; m; m = m->next) {
		struct derived_rows *x;
		struct lr_doc doc;
		const struct lr_node *arr;
		size_t n = 0;
		char *text;

		if (!is_columns(type, m) || !(text = rows_text(m, &n)))
			continue;
		x = xrealloc(NULL, sizeof *x);
		x->text = text;
		x->nodes = xrealloc(NULL, (n / 2 + 8) * sizeof *x->nodes);
		x->strs = xrealloc(NULL, n + 16);
		x->next = d->rows;
		d->rows = x;
		lr_doc_init(&doc, x->nodes, n / 2 + 8, x->strs, n + 16);
		if (!(arr = lr_parse(&doc, x->text, n)))
			continue; /* cannot happen: the text is ours */
		m->kind = LR_ARR;
		m->child = arr->child;
		m->len = arr->len;
	}
}

void derived_add(struct derived *d, struct lr_node *root, double hz)
{
	const char *type = ld_record_type(root);
	struct ld_timer timer;
	struct lr_node *tp;
	struct text t = { NULL, 0, 0 };
	bool any = false, want_cost, want_rate = false;
	double reads, cyc;
	struct lr_doc doc;
	const struct lr_node *parsed;

	memset(d, 0, sizeof *d);
	if (!type)
		return;
	ld_decode_timer(strcmp(type, "timer") ? NULL : root, &timer);
	tp = (struct lr_node *)timer.throughput.ld.node; /* the record's own nodes */
	expand_columns(d, root, type);
	ch(&t, "{");
	/* A measured counter was present and healthy. */
	if (!strcmp(type, "timer") && !timer.healthy.node && timer.samples.state == LD_SET && timer.samples.v > 0) {
		ch(&t, "\"present\":true,\"healthy\":true");
		any = true;
	}
	if (!(hz > 0)) {
		/* no rate: no ns */
	} else if (!strcmp(type, "timer")) {
		want_cost = timer.cost_cycles.ld.state == LD_SET && !timer.cost_ns.ld.node;
		if (want_cost) {
			ch(&t, any ? "," : "");
			cost_ns(&t, timer.cost_cycles.ld.node, hz);
			any = true;
		}
		want_rate = timer.throughput.ld.state == LD_SET && !timer.throughput.reads_per_s.node &&
			    lr_num(timer.throughput.reads.node, &reads) && lr_num(timer.throughput.cycles.node, &cyc) &&
			    cyc > 0;
		if (want_rate) {
			text_printf(&t, any ? ",\"reads_per_s\":%.1f" : "\"reads_per_s\":%.1f", reads * hz / cyc);
			any = true;
		}
	} else if (!strcmp(type, "percpu")) {
		ns_columns(&t, root, hz, &any);
	}
	ch(&t, "}");
	if (!any) {
		free(t.s);
		return;
	}
	d->text = t.s;
	d->nodes = xrealloc(NULL, (t.len / 2 + 8) * sizeof *d->nodes);
	d->strs = xrealloc(NULL, t.len + 16);
	lr_doc_init(&doc, d->nodes, t.len / 2 + 8, d->strs, t.len + 16);
	parsed = lr_parse(&doc, d->text, t.len);
	if (!parsed) { /* cannot happen: the text is ours; the rows stay, in use */
		free(d->text);
		free(d->nodes);
		free(d->strs);
		d->text = NULL;
		d->nodes = NULL;
		d->strs = NULL;
		return;
	}
	/* Move each parsed member onto the record: reads_per_s into throughput,
	 * the rest onto the record itself. */
	for (struct lr_node *m = parsed->child, *next; m; m = next) {
		next = m->next;
		splice(want_rate && !strcmp(m->key, "reads_per_s") ? tp : root, m);
	}
}

void derived_free(struct derived *d)
{
	while (d->rows) {
		struct derived_rows *x = d->rows;
		d->rows = x->next;
		free(x->text);
		free(x->nodes);
		free(x->strs);
		free(x);
	}
	free(d->text);
	free(d->nodes);
	free(d->strs);
	memset(d, 0, sizeof *d);
}
