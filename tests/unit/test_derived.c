/* SPDX-License-Identifier: BSD-2-Clause */
/* The members a schema-2 log leaves out, put back by the host reader
 * (tools/lib/logderived.c): a timer's cost_ns and throughput.reads_per_s, a
 * percpu record's *_ns twins; what is already there, and every record read
 * without the TSC's rate, left as it is. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/check.h"
#include "tools/lib/json_parse.h"
#include "tools/lib/logderived.h"
#include "tests/unit/json_path.h"

#define HZ 2.5e9 /* 0.4 ns a cycle */

static struct lr_node nodes[4096];
static char strs[1 << 14];

static struct lr_node *parse(const char *text)
{
	static struct lr_doc doc;
	lr_doc_init(&doc, nodes, sizeof nodes / sizeof nodes[0], strs, sizeof strs);
	return (struct lr_node *)lr_parse(&doc, text, strlen(text));
}

static double num(const struct lr_node *r, const char *path)
{
	double v;
	return r && lr_num(lr_path(r, path), &v) ? v : NAN;
}

/* The number as it would be written: its text, e.g. "30.0". */
static bool text_is(const struct lr_node *r, const char *path, const char *want)
{
	const struct lr_node *n = r ? path_at(r, path) : NULL;
	return n && n->kind == LR_NUM && n->len == strlen(want) && !memcmp(n->str, want, n->len);
}

static const char *text_of(const struct lr_node *r, const char *path)
{
	static char bufs[4][64]; /* a few to a printf */
	static int k;
	char *buf = bufs[k++ % 4];
	const struct lr_node *n = r ? path_at(r, path) : NULL;
	snprintf(buf, sizeof bufs[0], "%.*s", n && n->kind == LR_NUM ? (int)n->len : 4, n && n->kind == LR_NUM ? n->str : "none");
	return buf;
}

static const char *const cost_keys[] = { "min", "p50", "mean", "sd", "p99", "p999", "max" };

static void test_timer(void)
{
	static const char rec2[] =
		"{\"type\":\"timer\",\"seq\":7,\"name\":\"hpet\",\"present\":true,\"healthy\":true,"
		"\"samples\":1000,\"cost_cycles\":{\"min\":60,\"p50\":75,\"mean\":77.3,\"sd\":4.2,\"p99\":101,"
		"\"p999\":120,\"max\":5003},\"throughput\":{\"reads\":10000,\"cycles\":777777},\"crc\":\"0\"}";
	struct lr_node *r = parse(rec2);
	const struct lr_node *c, *m;
	struct derived d;
	size_t len_before = r ? r->len : 0;
	double want_rate = 10000 * HZ / 777777, cyc;
	char want_text[32];
	bool ok;
	size_t i;

	check(COND(r) && COND(!lr_get(r, "cost_ns")) && COND(!lr_path(r, "throughput.reads_per_s")),
	      "timer: the schema-2 record parses");
	if (!r)
		return;
	derived_add(&d, r, HZ);
	c = lr_get(r, "cost_ns");
	ok = c && c->kind == LR_OBJ && c->len == 7;
	for (i = 0, m = c ? c->child : NULL; ok && i < 7; i++, m = m->next) {
		char path[32];
		ok &= m && !strcmp(m->key, cost_keys[i]);
		snprintf(path, sizeof path, "cost_cycles.%s", cost_keys[i]);
		cyc = num(r, path);
		ok &= m && fabs(m->d - cyc * 1e9 / HZ) <= 0.05;
	}
	check(COND(ok) && COND(r->len == len_before + 1),
	      "timer: cost_ns gets min..max in cost_cycles' order, each cycles*1e9/hz");
	check(COND(text_is(r, "cost_ns.p50", "30.0")) && COND(text_is(r, "cost_ns.min", "24.0")) &&
		      COND(text_is(r, "cost_ns.mean", "30.9")) && COND(text_is(r, "cost_ns.sd", "1.7")) &&
		      COND(text_is(r, "cost_ns.p99", "40.4")) && COND(text_is(r, "cost_ns.max", "2001.2")),
	      "timer: 1 decimal, as the image once wrote them (p50 %s, mean %s, max %s)", text_of(r, "cost_ns.p50"),
	      text_of(r, "cost_ns.mean"), text_of(r, "cost_ns.max"));
	snprintf(want_text, sizeof want_text, "%.1f", want_rate);
	check(COND(text_is(r, "throughput.reads_per_s", want_text)) && COND(lr_path(r, "throughput")->len == 3) &&
		      COND(!lr_get(r, "reads_per_s")),
	      "timer: throughput.reads_per_s = reads*hz/cycles = %s, inside throughput",
	      text_of(r, "throughput.reads_per_s"));
	check(COND(!strcmp(lr_str(lr_get(r, "crc")), "0")) && COND(num(r, "cost_cycles.p50") == 75) &&
		      COND(num(r, "samples") == 1000),
	      "timer: the record's own members stay as they were");
	derived_free(&d);
	check(COND(!d.text) && COND(!d.nodes) && COND(!d.strs), "timer: derived_free leaves nothing");

	/* No rate: nothing is added, whatever the record. */
	r = parse(rec2);
	len_before = r->len;
	derived_add(&d, r, 0);
	check(COND(!d.text) && COND(!lr_get(r, "cost_ns")) && COND(!lr_path(r, "throughput.reads_per_s")) &&
		      COND(r->len == len_before) && COND(lr_path(r, "throughput")->len == 2),
	      "timer: with hz 0 nothing is added");
	r = parse(rec2);
	derived_add(&d, r, -1);
	check(COND(!d.text) && COND(!lr_get(r, "cost_ns")), "timer: with hz < 0 nothing is added");
	r = parse(rec2);
	derived_add(&d, r, NAN);
	check(COND(!d.text) && COND(!lr_get(r, "cost_ns")), "timer: with hz NaN nothing is added");

	/* Throughput over 0 cycles has no rate: cost_ns only. */
	r = parse("{\"type\":\"timer\",\"cost_cycles\":{\"p50\":10},\"throughput\":{\"reads\":5,\"cycles\":0}}");
	derived_add(&d, r, HZ);
	check(COND(r) && COND(text_is(r, "cost_ns.p50", "4.0")) && COND(!lr_path(r, "throughput.reads_per_s")),
	      "timer: throughput over 0 cycles gets no reads_per_s; cost_ns still");
	derived_free(&d);

	/* A key with a quote and a control byte stays one key: the derived text
	 * is JSON, and the log's keys go into it escaped. */
	r = parse("{\"type\":\"timer\",\"cost_cycles\":{\"p50\\\":1e9,\\\"x\\u001b\":10,\"max\":20}}");
	derived_add(&d, r, HZ);
	c = lr_get(r, "cost_ns");
	check(COND(c) && COND(c->len == 2) && COND(c->child) && COND(!strcmp(c->child->key, "p50\":1e9,\"x\x1b")) &&
		      COND(text_is(r, "cost_ns.max", "8.0")) && COND(!lr_get(c, "p50")),
	      "timer: a hostile key in cost_cycles is one key in cost_ns, nothing injected");
	derived_free(&d);

	/* Not measured: nothing to derive from. */
	r = parse("{\"type\":\"timer\",\"name\":\"kvmclock\",\"present\":false,\"healthy\":false,"
		  "\"reason\":\"not KVM\",\"samples\":0}");
	len_before = r->len;
	derived_add(&d, r, HZ);
	check(COND(!d.text) && COND(r->len == len_before) && COND(!lr_get(r, "cost_ns")),
	      "timer: a counter not measured gets nothing");
}

static void test_schema1(void)
{
	static const char rec1[] =
		"{\"type\":\"timer\",\"name\":\"hpet\",\"cost_cycles\":{\"min\":60,\"p50\":75},"
		"\"cost_ns\":{\"min\":24.00,\"p50\":99.99},"
		"\"throughput\":{\"reads\":10000,\"cycles\":777777,\"reads_per_s\":5.0}}";
	struct lr_node *r = parse(rec1);
	struct derived d;
	size_t len_before = r ? r->len : 0;

	if (!r) {
		check(0, "schema 1: the record parses");
		return;
	}
	derived_add(&d, r, HZ);
	check(COND(!d.text) && COND(!d.nodes) && COND(r->len == len_before) &&
		      COND(text_is(r, "cost_ns.p50", "99.99")) && COND(lr_get(r, "cost_ns")->len == 2) &&
		      COND(text_is(r, "throughput.reads_per_s", "5.0")) && COND(lr_path(r, "throughput")->len == 3),
	      "schema 1: a record with cost_ns and reads_per_s is left alone (p50 stays %s)",
	      text_of(r, "cost_ns.p50"));

	/* One present, the other not: only the missing one is added. */
	r = parse("{\"type\":\"timer\",\"cost_cycles\":{\"p50\":75},\"cost_ns\":{\"p50\":99.99},"
		  "\"throughput\":{\"reads\":10,\"cycles\":25}}");
	derived_add(&d, r, HZ);
	check(COND(r) && COND(text_is(r, "cost_ns.p50", "99.99")) && COND(lr_get(r, "cost_ns")->len == 1) &&
		      COND(text_is(r, "throughput.reads_per_s", "1000000000.0")),
	      "schema 1: cost_ns kept as written, reads_per_s added where it was missing (%s)",
	      text_of(r, "throughput.reads_per_s"));
	derived_free(&d);
}

static void test_percpu(void)
{
	static const char rec[] =
		"{\"type\":\"percpu\",\"seq\":3,\"cpus\":3,\"samples\":1000,"
		"\"tsc_p50_cycles\":[20,null,34],\"tsc_min_cycles\":[18,null,33],"
		"\"rdtscp_p50_cycles\":[30,null,44],\"rdtscp_min_cycles\":[29,null,42],\"crc\":\"0\"}";
	static const char *const twins[] = { "tsc_p50_ns", "tsc_min_ns", "rdtscp_p50_ns", "rdtscp_min_ns" };
	static const char *const want[4][3] = {
		{ "8.0", NULL, "13.6" }, { "7.2", NULL, "13.2" }, { "12.0", NULL, "17.6" }, { "11.6", NULL, "16.8" }
	};
	struct lr_node *r = parse(rec);
	struct derived d;
	size_t len_before = r ? r->len : 0;
	uint64_t v;
	bool ok;

	if (!r) {
		check(0, "percpu: the record parses");
		return;
	}
	derived_add(&d, r, HZ);
	ok = r->len == len_before + 4;
	for (int k = 0; ok && k < 4; k++) {
		const struct lr_node *a = lr_get(r, twins[k]);
		ok &= a && a->kind == LR_ARR && a->len == 3;
		for (size_t i = 0; ok && i < 3; i++) {
			const struct lr_node *e = lr_at(a, i);
			char path[40];
			snprintf(path, sizeof path, "%s.%zu", twins[k], i);
			ok &= want[k][i] ? text_is(r, path, want[k][i]) : (e && e->kind == LR_NULL);
		}
	}
	check(ok, "percpu: every *_cycles array gets its *_ns twin, cycles*1e9/hz to 1 decimal, null kept null (%s %s)",
	      text_of(r, "tsc_p50_ns.0"), text_of(r, "rdtscp_min_ns.2"));
	check(COND(lr_uint(lr_at(lr_get(r, "tsc_p50_cycles"), 2), &v)) && COND(v == 34) && COND(num(r, "cpus") == 3),
	      "percpu: the cycles stay as written");
	derived_free(&d);

	/* Without RDTSCP its columns are null: no array to take a twin from. */
	r = parse("{\"type\":\"percpu\",\"cpus\":1,\"tsc_p50_cycles\":[25],\"rdtscp_p50_cycles\":null}");
	derived_add(&d, r, HZ);
	check(COND(r) && COND(text_is(r, "tsc_p50_ns.0", "10.0")) && COND(!lr_get(r, "rdtscp_min_ns")) &&
		      COND(r->len == 5),
	      "percpu: a null column (no RDTSCP) gets no twin, the array beside it does");
	derived_free(&d);

	/* Schema 1 wrote the twins: left alone. */
	r = parse("{\"type\":\"percpu\",\"tsc_p50_cycles\":[25],\"tsc_p50_ns\":[9.99]}");
	len_before = r->len;
	derived_add(&d, r, HZ);
	check(COND(!d.text) && COND(r->len == len_before) && COND(text_is(r, "tsc_p50_ns.0", "9.99")),
	      "percpu: a twin already written is left alone");

	r = parse(rec);
	len_before = r->len;
	derived_add(&d, r, 0);
	check(COND(!d.text) && COND(r->len == len_before) && COND(!lr_get(r, "tsc_p50_ns")),
	      "percpu: with hz 0 nothing is added");

	/* Other records are not touched, even with *_cycles arrays. */
	r = parse("{\"type\":\"tsc_sync\",\"offset_cycles\":[1,2]}");
	len_before = r->len;
	derived_add(&d, r, HZ);
	check(COND(!d.text) && COND(r->len == len_before) && COND(!lr_get(r, "offset_ns")),
	      "other types: nothing added");
}

int main(void)
{
	test_timer();
	test_schema1();
	test_percpu();
	return check_done();
}
