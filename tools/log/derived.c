/* SPDX-License-Identifier: BSD-2-Clause */
/* The derived members (derived.h).  Written as JSON text and parsed like a
 * record, so the numbers carry their text as every other number does; the
 * ns figures take the 1 decimal the image wrote before it left them out. */
#include "tools/log/derived.h"
#include "tools/common/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct text {
	char *s;
	size_t n, cap;
};

static void put(struct text *t, const char *fmt, double v, const char *key)
{
	int k;
	for (;;) {
		k = snprintf(t->s + t->n, t->cap - t->n, fmt, key, v);
		if (k >= 0 && (size_t)k < t->cap - t->n)
			break;
		t->cap = t->cap * 2 + 256;
		t->s = xrealloc(t->s, t->cap);
	}
	t->n += (size_t)k;
}

static void ch(struct text *t, const char *s)
{
	put(t, "%s", 0, s);
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
			put(t, first ? "\"%s\":%.1f" : ",\"%s\":%.1f", to_ns(v, hz), m->key);
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
		put(t, *any ? ",\"%s\":[" : "\"%s\":[", 0, twin);
		*any = true;
		for (const struct lr_node *e = m->child; e; e = e->next) {
			if (lr_num(e, &v))
				put(t, e == m->child ? "%s%.1f" : ",%s%.1f", to_ns(v, hz), "");
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

void derived_add(struct derived *d, struct lr_node *root, double hz)
{
	const char *type = lr_str(lr_get(root, "type"));
	const struct lr_node *cycles = lr_get(root, "cost_cycles");
	struct lr_node *tp = (struct lr_node *)lr_get(root, "throughput");
	struct text t = { NULL, 0, 0 };
	bool any = false, want_cost, want_rate = false;
	double reads, cyc;
	struct lr_doc doc;
	const struct lr_node *parsed;

	uint64_t samples = 0;

	memset(d, 0, sizeof *d);
	if (!type)
		return;
	ch(&t, "{");
	/* A measured counter was present and healthy. */
	if (!strcmp(type, "timer") && !lr_get(root, "healthy") && lr_uint(lr_get(root, "samples"), &samples) &&
	    samples > 0) {
		ch(&t, "\"present\":true,\"healthy\":true");
		any = true;
	}
	if (!(hz > 0)) {
		/* no rate: no ns */
	} else if (!strcmp(type, "timer")) {
		want_cost = cycles && cycles->kind == LR_OBJ && !lr_get(root, "cost_ns");
		if (want_cost) {
			ch(&t, any ? "," : "");
			cost_ns(&t, cycles, hz), any = true;
		}
		want_rate = tp && tp->kind == LR_OBJ && !lr_get(tp, "reads_per_s") &&
			    lr_num(lr_get(tp, "reads"), &reads) && lr_num(lr_get(tp, "cycles"), &cyc) && cyc > 0;
		if (want_rate) {
			put(&t, any ? ",\"%s\":%.1f" : "\"%s\":%.1f", reads * hz / cyc, "reads_per_s");
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
	d->nodes = xrealloc(NULL, (t.n / 2 + 8) * sizeof *d->nodes);
	d->strs = xrealloc(NULL, t.n + 16);
	lr_doc_init(&doc, d->nodes, t.n / 2 + 8, d->strs, t.n + 16);
	parsed = lr_parse(&doc, d->text, t.n);
	if (!parsed) { /* cannot happen: the text is ours */
		derived_free(d);
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
	free(d->text), free(d->nodes), free(d->strs);
	memset(d, 0, sizeof *d);
}
