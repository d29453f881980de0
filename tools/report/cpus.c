/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the CPUs and the multi-CPU records (tools/report/cpus.h). */
#include "tools/report/cpus.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "tools/report/machine.h"

int rp_cpus_type(const char *type)
{
	static const char *const types[] = { "cpus", "team_check", "tsc_sync", "tsc_sync_pairs", "percpu",
					     "contention", "latency" };
	for (size_t k = 0; type && k < sizeof types / sizeof types[0]; k++)
		if (!strcmp(type, types[k]))
			return 1;
	return 0;
}

static struct smp_view *load(const struct lrun *r)
{
	struct smp_view *v = calloc(1, sizeof *v);
	if (!v) {
		fprintf(stderr, "tickprobe report: out of memory\n");
		exit(2);
	}
	smp_view_load(v, r);
	return v;
}

void rp_cpus_left_out(FILE *o, const struct smp_view *v, enum smp_kind kind)
{
	char what[160];
	for (size_t i = 0; i < v->nleft_out; i++) {
		if (!(v->left_out[i].kinds & (1u << kind)))
			continue;
		fprintf(o, "<p class=\"bad left-out\">Line %u: damaged and left out; by its place, ",
			(unsigned)v->left_out[i].line);
		rp_esc(o, smp_left_out_what(&v->left_out[i], what, sizeof what));
		fputs(". Nothing from it is shown.</p>\n", o);
	}
}

/* ---- the CPU table ---------------------------------------------------------- */

static void percpu_cells(FILE *o, const struct smp_view *v, const struct ld_uint *cpu)
{
	struct ld_percpu p;
	const struct lr_node *cells[4] = { NULL, NULL, NULL, NULL };

	ld_decode_percpu(v->percpu, &p);
	if (cpu->state == LD_SET) {
		cells[0] = ld_percpu_p50_ns_at(&p, "tsc", cpu->v).node;
		cells[1] = ld_percpu_min_ns_at(&p, "tsc", cpu->v).node;
		cells[2] = ld_percpu_p50_ns_at(&p, "rdtscp", cpu->v).node;
		cells[3] = ld_percpu_min_ns_at(&p, "rdtscp", cpu->v).node;
	}
	for (int k = 0; k < 4; k++)
		rp_td(o, cells[k], 1);
}

/* The pair of CPU cpu against CPU 0, or NULL. */
static const struct lr_node *pair_with_boot_cpu(const struct smp_view *v, uint64_t cpu)
{
	const struct lr_node *q;

	for (size_t i = 0; (q = smp_pair_at(v, i)); i++) {
		struct ld_tsc_pair p;
		ld_decode_tsc_pair(q, &p);
		if (p.cpu.state == LD_SET && p.cpu.v == cpu &&
		    (p.ref.state == LD_ABSENT || (p.ref.state == LD_SET && !p.ref.v)))
			return q;
	}
	return NULL;
}

static void sync_cell(FILE *o, const struct smp_view *v, const struct ld_uint *cpu)
{
	const struct lr_node *p = cpu->state == LD_SET && cpu->v ? pair_with_boot_cpu(v, cpu->v) : NULL;
	int64_t off;
	uint64_t u;

	fputs("<td class=\"n\">", o);
	if (cpu->state == LD_SET && !cpu->v)
		fputs("reference", o);
	else if (p && smp_pair_offset(p, &off, &u))
		fprintf(o, "<span class=\"%s\">%+" PRId64 " &plusmn; %" PRIu64 "</span>",
			(off < 0 ? (uint64_t)0 - (uint64_t)off : (uint64_t)off) > u ? "bad" : "", off, u);
	else
		fputs(p ? "not measured" : "&ndash;", o);
	fputs("</td>", o);
}

static void latency_cells(FILE *o, const struct smp_view *v, const struct ld_uint *cpu)
{
	struct ld_latency l;
	struct ld_str vd = { 0 };
	struct ld_num gap = { 0 };

	ld_decode_latency(v->latency, &l);
	if (cpu->state == LD_SET) {
		vd = ld_latency_verdict_at(&l, cpu->v);
		gap = ld_latency_max_gap_ns_at(&l, cpu->v);
	}
	fputs("<td class=\"n\">", o);
	if (gap.state == LD_SET)
		fprintf(o, "%.1f", gap.v / 1e3);
	else
		fputs("&ndash;", o);
	fprintf(o, "</td><td class=\"%s\">", vd.state != LD_SET ? "" : !strcmp(vd.s, "pass") ? "ok" : "bad");
	rp_esc(o, vd.state == LD_SET ? vd.s : "");
	fputs("</td>", o);
}

static void cpu_row(FILE *o, const struct smp_view *v, const struct ld_cpu_entry *e)
{
	const char *st = e->state.state == LD_SET ? e->state.s : NULL;

	fprintf(o, "<tr%s>", st && strcmp(st, "bsp") && strcmp(st, "running") ? " class=\"dim\"" : "");
	rp_td(o, e->cpu.node, -1);
	rp_td(o, e->apic_id.node, -1);
	fputs("<td>", o);
	rp_value(o, e->package.node, "&ndash;");
	fputs(" / ", o);
	rp_value(o, e->core.node, "&ndash;");
	fputs(" / ", o);
	rp_value(o, e->thread.node, "&ndash;");
	fputs("</td><td>", o);
	rp_value(o, e->core_type.node, "&ndash;");
	fputs("</td><td>", o);
	rp_value(o, e->state.node, "?");
	if (e->why.state != LD_ABSENT) {
		fputs(" <span class=\"dim\">(", o);
		rp_value(o, e->why.node, "");
		fputs(")</span>", o);
	}
	fputs("</td>", o);
	rp_td(o, e->startup_us.node, -1);
	rp_td(o, e->sipis.node, -1);
	if (v->percpu)
		percpu_cells(o, v, &e->cpu);
	if (v->sync)
		sync_cell(o, v, &e->cpu);
	if (v->latency)
		latency_cells(o, v, &e->cpu);
	fputs("</tr>\n", o);
}

static void cpu_table(FILE *o, const struct smp_view *v)
{
	struct ld_cpus c;

	rp_cpus_left_out(o, v, SMP_CPUS);
	if (!v->cpus)
		return;
	ld_decode_cpus(v->cpus, &c);
	fputs("<p>", o);
	rp_value(o, c.count.node, "?");
	fputs(" CPUs listed, ", o);
	rp_value(o, c.started.node, "?");
	fputs(" running (", o);
	rp_value(o, c.apic.node, "APIC mode unknown");
	fputs(").", o);
	if (c.problem.state != LD_ABSENT && c.problem.state != LD_NULL) {
		fputs(" <span class=\"bad\">No other CPU started: ", o);
		rp_value(o, c.problem.node, "");
		fputs("</span>", o);
	}
	fputs("</p>\n", o);
	/* logderived turns the columns into a list of rows; left as columns, the
	 * record was too damaged for that. */
	if (c.list.state != LD_SET || c.list.node->kind != LR_ARR || !c.list.n)
		return;
	fputs("<table class=\"cpus\"><tr><th class=\"n\">CPU</th><th class=\"n\">APIC ID</th>"
	      "<th>package / core / thread</th><th>core type</th><th>state</th><th class=\"n\">start-up &micro;s</th>"
	      "<th class=\"n\">SIPIs</th>", o);
	if (v->percpu)
		fputs("<th class=\"n\">tsc p50 ns</th><th class=\"n\">tsc min ns</th><th class=\"n\">rdtscp p50 ns</th>"
		      "<th class=\"n\">rdtscp min ns</th>", o);
	if (v->sync)
		fputs("<th class=\"n\">TSC offset, cycles</th>", o);
	if (v->latency)
		fputs("<th class=\"n\">largest gap &micro;s</th><th>latency</th>", o);
	fputs("</tr>\n", o);
	for (size_t i = 0; i < c.list.n; i++) {
		struct ld_cpu_entry e;
		ld_cpus_list_at(&c, i, &e);
		cpu_row(o, v, &e);
	}
	fputs("</table>\n", o);
}

/* ---- TSC sync, per-CPU spread ----------------------------------------------- */

static void sync_largest(FILE *o, const struct smp_sync_summary *sm)
{
	struct ld_tsc_pair p;
	int64_t off;
	uint64_t u;

	if (!sm->largest || !smp_pair_offset(sm->largest, &off, &u))
		return;
	ld_decode_tsc_pair(sm->largest, &p);
	fputs("; the largest |offset| is CPU ", o);
	rp_value(o, p.cpu.node, "?");
	fprintf(o, "'s, %+" PRId64 " &plusmn; %" PRIu64 " cycles", off, u);
}

static void sync_verdict(FILE *o, const struct smp_view *v, const char *colour)
{
	struct smp_sync_summary sm;
	struct ld_tsc_sync s;
	const char *w = smp_sync_word(v);
	int matrix;

	rp_cpus_left_out(o, v, SMP_SYNC);
	rp_cpus_left_out(o, v, SMP_SYNC_PAIRS);
	if (!v->sync)
		return;
	ld_decode_tsc_sync(v->sync, &s);
	smp_sync_summary(v, &sm);
	matrix = s.mode.state == LD_SET && !strcmp(s.mode.s, "matrix");
	fprintf(o, "<h4>TSC synchronisation</h4>\n<p class=\"verdict\">TSC <b class=\"%s\">%s</b> (",
		!strcmp(w, "synchronized") ? "ok" : "bad", w);
	rp_esc(o, matrix ? "every pair" : "each CPU against CPU 0");
	fprintf(o, ", %zu pair%s): ", sm.pairs, sm.pairs == 1 ? "" : "s");
	rp_value(o, s.warps.node, "?");
	fputs(s.warps.state == LD_SET && s.warps.v == 1 ? " warp (largest " : " warps (largest ", o);
	rp_value(o, s.max_warp_cycles.node, "?");
	fputs(" cycles)", o);
	sync_largest(o, &sm);
	if (sm.outside)
		fprintf(o, "; <span class=\"bad\">%zu pair%s outside %s uncertainty</span>", sm.outside,
			sm.outside == 1 ? "" : "s", sm.outside == 1 ? "its" : "their");
	fputs(rp_true(&s.linux_would_mark_unstable)
		      ? ". Linux <b class=\"bad\">would mark the TSC unstable</b> (a warp against CPU 0)."
		      : ". Linux <b>would keep the TSC</b> (no warp against CPU 0).",
	      o);
	if (s.gone.state == LD_SET && s.gone.n) {
		fputs(" CPUs gone: ", o);
		rp_value(o, s.gone.node, "");
		fputs(".", o);
	}
	if (sm.pairs_short)
		fputs(" <span class=\"bad\">Some tsc_sync_pairs records are missing: the pairs shown are not all.</span>", o);
	if (!sm.consistent)
		fputs(" <span class=\"bad\">The record's verdict disagrees with its pairs under its rule.</span>", o);
	fputs("</p>\n<p class=\"dim\">Rule: ", o);
	rp_value(o, s.rule.node, "not given");
	fputs(".</p>\n", o);
	rp_svg_offsets(o, v, colour);
}

static void percpu_spread(FILE *o, const struct smp_view *v)
{
	char pre[SMP_PERCPU_MAX][32];
	struct smp_spread sp;
	size_t n;
	rp_cpus_left_out(o, v, SMP_PERCPU);
	if (!v->percpu)
		return;
	n = smp_percpu_counters(v, pre, SMP_PERCPU_MAX);
	fputs("<h4>Read cost on each CPU</h4>\n<table><tr><th>counter</th><th class=\"n\">CPUs</th>"
	      "<th class=\"n\">min p50</th><th class=\"n\">median p50</th><th class=\"n\">max p50</th>"
	      "<th>unit</th></tr>\n", o);
	for (size_t k = 0; k < n; k++) {
		fputs("<tr><td>", o);
		rp_esc(o, pre[k]); /* a name from the log */
		if (!smp_percpu_spread(v, pre[k], &sp)) {
			fputs("</td><td colspan=\"5\" class=\"dim\">no CPU measured</td></tr>\n", o);
			continue;
		}
		fprintf(o, "</td><td class=\"n\">%zu</td><td class=\"n\">%.1f (CPU %zu)</td><td class=\"n\">%.1f"
			   "</td><td class=\"n\">%.1f (CPU %zu)</td><td>%s</td></tr>\n", sp.n, sp.min, sp.min_cpu,
			sp.median, sp.max, sp.max_cpu, sp.ns ? "ns" : "cycles");
	}
	fputs("</table>\n", o);
}

/* ---- the counters on other core types ---------------------------------------- */

static void timer_on_row(FILE *o, const struct smp_view *v, const struct lrun *r, const struct ld_timer *t)
{
	struct ld_timer on_boot_cpu;
	struct ld_cpu_entry ent;

	ld_decode_timer(t->name.state == LD_SET ? lrun_timer(r, t->name.s) : NULL, &on_boot_cpu);
	ld_decode_cpu_entry(t->cpu.state == LD_SET ? smp_cpu_entry(v, (long)t->cpu.v) : NULL, &ent);
	fputs("<tr><td>", o);
	rp_value(o, t->name.node, "?");
	fputs("</td>", o);
	rp_td(o, on_boot_cpu.cost_ns.p50.node, 1);
	fputs("<td>CPU ", o);
	rp_value(o, t->cpu.node, "?");
	fputs(" (", o);
	rp_value(o, ent.core_type.node, "?");
	fputs(")</td>", o);
	rp_td(o, t->cost_ns.p50.node, 1);
	rp_td(o, t->cost_ns.min.node, 1);
	rp_td(o, t->cost_ns.p99.node, 1);
	fprintf(o, "<td class=\"%s\">", rp_true(&t->healthy) ? "ok" : "bad");
	rp_value(o, t->reason.node, rp_true(&t->healthy) ? "ok" : "not healthy");
	fputs("</td></tr>\n", o);
}

static void timers_on(FILE *o, const struct smp_view *v, const struct lrun *r)
{
	rp_cpus_left_out(o, v, SMP_TIMER_ON);
	if (!v->ntimers_on)
		return;
	fputs("<h4>The counters on other core types</h4>\n<table><tr><th>counter</th><th class=\"n\">CPU 0 p50 ns</th>"
	      "<th>measured on</th><th class=\"n\">p50 ns</th><th class=\"n\">min ns</th><th class=\"n\">p99 ns</th>"
	      "<th>health</th></tr>\n", o);
	for (size_t i = 0; i < v->ntimers_on; i++) {
		struct ld_timer t;
		ld_decode_timer(v->timers_on[i], &t);
		timer_on_row(o, v, r, &t);
	}
	fputs("</table>\n", o);
}

void rp_cpus(const struct rp_ctx *c, size_t i)
{
	FILE *o = c->out;
	const struct lrun *r = c->logs[i].run;
	struct smp_view *v = load(r);

	if (!v->cpus && !smp_multi(v) && !v->nleft_out) {
		free(v);
		return;
	}
	fprintf(o, "<h3 id=\"run%zu-cpus\">CPUs</h3>\n", i + 1);
	if (v->cpus && !smp_multi(v) && v->count == 1) {
		struct ld_cpus cpus;
		ld_decode_cpus(v->cpus, &cpus);
		fputs("<p>1 CPU (", o);
		rp_value(o, cpus.apic.node, "APIC mode unknown");
		fputs("): no multi-CPU measurements.</p>\n", o);
		rp_cpus_left_out(o, v, SMP_CPUS);
		free(v);
		return;
	}
	cpu_table(o, v);
	if (smp_multi(v) || v->nleft_out) {
		rp_cpus_left_out(o, v, SMP_TEAM);
		sync_verdict(o, v, rp_colour(i));
		percpu_spread(o, v);
		timers_on(o, v, r);
		rp_cpus_contention(o, v, i);
		rp_cpus_latency(o, v);
	}
	free(v);
}

size_t rp_cpus_multi(const struct rp_ctx *c)
{
	size_t n = 0;
	for (size_t j = 0; j < c->nlogs; j++) {
		struct smp_view *v = load(c->logs[j].run);
		n += smp_multi(v);
		free(v);
	}
	return n;
}
