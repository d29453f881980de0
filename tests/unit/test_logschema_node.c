/* SPDX-License-Identifier: BSD-2-Clause */
/* The typed decoder (tools/lib/logschema.h) keeps each value's node, so a
 * printer can show a number exactly as the log wrote it: set, null, of
 * another type, absent; in a record, a list, a column and a row.  And a
 * record's type, which no struct holds. */
#include <string.h>
#include "tests/unit/check.h"
#include "tools/lib/logschema.h"

static struct lr_node nodes[512];
static char strs[2048];

static const struct lr_node *parse(struct lr_doc *d, const char *s)
{
	lr_doc_init(d, nodes, sizeof nodes / sizeof nodes[0], strs, sizeof strs);
	return lr_parse(d, s, strlen(s));
}

/* The node's text is `want`. */
static int text_is(const struct lr_node *n, const char *want)
{
	return n && n->len == strlen(want) && !memcmp(n->str, want, n->len);
}

static void record_values(void)
{
	struct lr_doc d;
	const struct lr_node *root =
		parse(&d, "{\"type\":\"team_check\",\"seq\":1,\"cpus\":4,\"returned\":4.0,\"tsc_aux_match\":null,"
			  "\"dropped\":[2,3.50],\"idle\":\"hlt\"}");
	struct ld_team_check t;

	ld_decode_team_check(root, &t);
	check(text_is(t.cpus.node, "4"), "a set value keeps its node");
	check(t.returned.state == LD_WRONG, "4.0 in a U64 member is of another type");
	check(text_is(t.returned.node, "4.0"), "a value of another type keeps its node, as written");
	check(t.tsc_aux_match.state == LD_NULL, "null is LD_NULL");
	check(COND(t.tsc_aux_match.node) && COND(t.tsc_aux_match.node->kind == LR_NULL), "a null keeps its node");
	check(t.count.state == LD_ABSENT, "an absent member is LD_ABSENT");
	check(t.count.node == NULL, "an absent member has no node");
	check(COND(t.idle.node) && COND(t.idle.node->kind == LR_STR), "a string keeps its node");
	check(text_is(ld_team_check_dropped_at(&t, 1).node, "3.50"), "a list's item keeps its node, as written");
	check(ld_team_check_dropped_at(&t, 2).node == NULL, "past a list's end: no node");
	check(COND(ld_record_type(root)) && COND(!strcmp(ld_record_type(root), "team_check")),
	      "ld_record_type names the record");
	check(ld_record_type(t.dropped.node) == NULL, "ld_record_type of no object: NULL");
}

static void column_values(void)
{
	struct lr_doc d;
	const struct lr_node *root = parse(&d, "{\"type\":\"cpus\",\"seq\":2,\"count\":2,\"started\":2,"
					       "\"list\":{\"apic_id\":[0,1],\"startup_us\":[null,12.50]}}");
	struct ld_cpus c;
	struct ld_cpu_entry e;

	ld_decode_cpus(root, &c);
	ld_cpus_list_at(&c, 1, &e);
	check(text_is(e.startup_us.node, "12.50"), "a column's value keeps its node, as written");
	check(COND(e.startup_us.state == LD_SET) && COND(e.startup_us.v == 12.5), "and its value");
	ld_cpus_list_at(&c, 0, &e);
	check(COND(e.startup_us.state == LD_NULL) && COND(e.startup_us.node), "a null in a column keeps its node");
	check(e.package.node == NULL, "a column that is not there: no node");
}

/* Columns of different lengths (a damaged record): as many rows as the
 * longest, the shorter ones' cells absent past their end. */
static void ragged_columns(void)
{
	struct lr_doc d;
	const struct lr_node *root = parse(&d, "{\"type\":\"cpus\",\"seq\":2,\"count\":3,\"started\":3,"
					       "\"list\":{\"apic_id\":[0],\"startup_us\":[1.5,2.5,3.5]}}");
	struct ld_cpus c;
	struct ld_cpu_entry e;

	ld_decode_cpus(root, &c);
	check(ld_cpus_list_count(&c) == 3, "ragged columns: as many rows as the longest column (%zu)",
	      ld_cpus_list_count(&c));
	ld_cpus_list_at(&c, 2, &e);
	check(COND(e.startup_us.state == LD_SET) && COND(e.startup_us.v == 3.5),
	      "ragged columns: the last row's value");
	check(e.apic_id.state == LD_ABSENT, "ragged columns: a short column's cell past its end is absent");
}

int main(void)
{
	record_values();
	column_values();
	ragged_columns();
	return check_done();
}
