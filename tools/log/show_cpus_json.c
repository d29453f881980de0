/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe show --json`: the multi-CPU records embedded whole, and the
 * damaged lines in their place (tools/log/show_cpus.h). */
#include <stdlib.h>
#include <string.h>
#include "tools/log/show_cpus.h"
#include "tools/lib/logschema.h"
#include "tools/lib/smprec.h"
#include "tools/lib/textsafe.h"

/* The records of `type` as written (exact numbers, control characters as
 * JSON escapes: tools/lib/textsafe.h): the first one, or with
 * `many` all in an array; on_cpu 0/1 keeps only those without/with a `cpu`
 * member, -1 all. */
/* 1 when a timer record has a `cpu` member, whatever its value; else 0. */
static int timer_on_cpu(const struct lr_node *record)
{
	struct ld_timer t;

	ld_decode_timer(record, &t);
	return t.cpu.node != NULL;
}

static void embed(FILE *o, const struct lrun *r, const char *key, const char *type, int many, int on_cpu)
{
	int n = 0;
	fprintf(o, ",\"%s\":%s", key, many ? "[" : "");
	for (size_t i = 0; i < r->nrecs; i++) {
		const struct lrec *rec = &r->recs[i];
		if (!rec->type || strcmp(rec->type, type) || (on_cpu >= 0 && timer_on_cpu(rec->root) != on_cpu))
			continue;
		if (n++ && !many)
			break;
		fprintf(o, "%s", n > 1 ? "," : "");
		ts_json_copy(o, rec->text, rec->len);
	}
	fputs(many ? "]" : n ? "" : "null", o);
}

void show_cpus_json(FILE *o, const struct lrun *r)
{
	struct smp_view *v = calloc(1, sizeof *v);
	char b[160];

	embed(o, r, "cpus", "cpus", 0, -1);
	embed(o, r, "team_check", "team_check", 0, -1);
	embed(o, r, "tsc_sync", "tsc_sync", 0, -1);
	embed(o, r, "tsc_sync_pairs", "tsc_sync_pairs", 1, -1);
	embed(o, r, "percpu", "percpu", 0, -1);
	embed(o, r, "timers_on_cpus", "timer", 1, 1);
	embed(o, r, "contention", "contention", 1, -1);
	embed(o, r, "latency", "latency", 0, -1);
	fputs(",\"cpu_records_left_out\":[", o);
	if (v && smp_view_load(v, r))
		for (size_t i = 0; i < v->nleft_out; i++)
			fprintf(o, "%s{\"line\":%u,\"in_place_of\":\"%s\"}", i ? "," : "", (unsigned)v->left_out[i].line,
				smp_kinds_text(v->left_out[i].kinds, b, sizeof b));
	fputs("]", o);
	free(v);
}
