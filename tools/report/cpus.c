/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the CPUs and the multi-CPU records (tools/report/cpus.h). */
#include "tools/report/cpus.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const latency_bins[7] = { "&le;1 &micro;s", "&le;10 &micro;s", "&le;100 &micro;s", "&le;1 ms",
					      "&le;10 ms", "&le;100 ms", "&gt;100 ms" };

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

static void td(FILE *o, const struct lr_node *n, int decimals)
{
	fputs("<td class=\"n\">", o);
	rp_num(o, n, decimals);
	fputs("</td>", o);
}

/* A paragraph naming the damaged lines where a record of `kind` belongs. */
static void left_out(FILE *o, const struct smp_view *v, enum smp_kind kind)
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

static void cpu_row(FILE *o, const struct smp_view *v, const struct lr_node *e)
{
	uint64_t cpu;
	bool has = lr_uint(lr_get(e, "cpu"), &cpu);
	const struct lr_node *p = NULL, *q;
	const char *st = lr_str(lr_get(e, "state"));
	int64_t off;
	uint64_t u;

	fprintf(o, "<tr%s>", st && strcmp(st, "bsp") && strcmp(st, "running") ? " class=\"dim\"" : "");
	td(o, lr_get(e, "cpu"), -1);
	td(o, lr_get(e, "apic_id"), -1);
	fputs("<td>", o);
	rp_value(o, lr_get(e, "package"), "&ndash;");
	fputs(" / ", o);
	rp_value(o, lr_get(e, "core"), "&ndash;");
	fputs(" / ", o);
	rp_value(o, lr_get(e, "thread"), "&ndash;");
	fputs("</td><td>", o);
	rp_value(o, lr_get(e, "core_type"), "&ndash;");
	fputs("</td><td>", o);
	rp_value(o, lr_get(e, "state"), "?");
	if ((q = lr_get(e, "why"))) {
		fputs(" <span class=\"dim\">(", o);
		rp_value(o, q, "");
		fputs(")</span>", o);
	}
	fputs("</td>", o);
	td(o, lr_get(e, "startup_us"), -1);
	td(o, lr_get(e, "sipis"), -1);
	if (v->percpu) {
		static const char *const keys[4] = { "tsc_p50_ns", "tsc_min_ns", "rdtscp_p50_ns", "rdtscp_min_ns" };
		for (int k = 0; k < 4; k++)
			td(o, has ? lr_at(lr_get(v->percpu, keys[k]), cpu) : NULL, 1);
	}
	if (v->sync) {
		for (size_t i = 0; has && cpu && (q = smp_pair_at(v, i)); i++)
			if (lr_uint(lr_get(q, "cpu"), &u) && u == cpu &&
			    (!lr_get(q, "ref") || (lr_uint(lr_get(q, "ref"), &u) && u == 0))) {
				p = q;
				break;
			}
		fputs("<td class=\"n\">", o);
		if (has && !cpu)
			fputs("reference", o);
		else if (p && smp_pair_offset(p, &off, &u))
			fprintf(o, "<span class=\"%s\">%+" PRId64 " &plusmn; %" PRIu64 "</span>",
				(off < 0 ? (uint64_t)0 - (uint64_t)off : (uint64_t)off) > u ? "bad" : "", off, u);
		else
			fputs(p ? "not measured" : "&ndash;", o);
		fputs("</td>", o);
	}
	if (v->latency) {
		double g;
		const char *vd = has ? lr_str(lr_at(lr_get(v->latency, "verdict"), cpu)) : NULL;
		fputs("<td class=\"n\">", o);
		if (has && lr_num(lr_at(lr_get(v->latency, "max_gap_ns"), cpu), &g))
			fprintf(o, "%.1f", g / 1e3);
		else
			fputs("&ndash;", o);
		fprintf(o, "</td><td class=\"%s\">", vd && !strcmp(vd, "pass") ? "ok" : vd ? "bad" : "");
		rp_esc(o, vd ? vd : "");
		fputs("</td>", o);
	}
	fputs("</tr>\n", o);
}

static void cpu_table(FILE *o, const struct smp_view *v)
{
	const struct lr_node *list = lr_get(v->cpus, "list"), *e;

	left_out(o, v, SMP_CPUS);
	if (!v->cpus)
		return;
	fputs("<p>", o);
	rp_value(o, lr_get(v->cpus, "count"), "?");
	fputs(" CPUs listed, ", o);
	rp_value(o, lr_get(v->cpus, "started"), "?");
	fputs(" running (", o);
	rp_value(o, lr_get(v->cpus, "apic"), "APIC mode unknown");
	fputs(").", o);
	if ((e = lr_get(v->cpus, "problem")) && e->kind != LR_NULL) {
		fputs(" <span class=\"bad\">No other CPU started: ", o);
		rp_value(o, e, "");
		fputs("</span>", o);
	}
	fputs("</p>\n", o);
	if (!list || list->kind != LR_ARR || !list->len)
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
	for (e = list->child; e; e = e->next)
		cpu_row(o, v, e);
	fputs("</table>\n", o);
}

/* ---- TSC sync, per-CPU spread ----------------------------------------------- */

static void sync_verdict(FILE *o, const struct smp_view *v, const char *colour)
{
	struct smp_sync_summary sm;
	const struct lr_node *s = v->sync, *p;
	const char *w = smp_sync_word(v);
	int64_t off;
	uint64_t u;

	left_out(o, v, SMP_SYNC);
	left_out(o, v, SMP_SYNC_PAIRS);
	if (!s)
		return;
	smp_sync_summary(v, &sm);
	fprintf(o, "<h4>TSC synchronisation</h4>\n<p class=\"verdict\">TSC <b class=\"%s\">%s</b> (",
		!strcmp(w, "synchronized") ? "ok" : "bad", w);
	rp_esc(o, !strcmp(lr_str(lr_get(s, "mode")) ? lr_str(lr_get(s, "mode")) : "", "matrix") ? "every pair"
											   : "each CPU against CPU 0");
	fprintf(o, ", %zu pair%s): ", sm.pairs, sm.pairs == 1 ? "" : "s");
	rp_value(o, lr_get(s, "warps"), "?");
	fputs(lr_uint(lr_get(s, "warps"), &u) && u == 1 ? " warp (largest " : " warps (largest ", o);
	rp_value(o, lr_get(s, "max_warp_cycles"), "?");
	fputs(" cycles)", o);
	if (sm.largest && smp_pair_offset(sm.largest, &off, &u)) {
		fputs("; the largest |offset| is CPU ", o);
		rp_value(o, lr_get(sm.largest, "cpu"), "?");
		fprintf(o, "'s, %+" PRId64 " &plusmn; %" PRIu64 " cycles", off, u);
	}
	if (sm.outside)
		fprintf(o, "; <span class=\"bad\">%zu pair%s outside %s uncertainty</span>", sm.outside,
			sm.outside == 1 ? "" : "s", sm.outside == 1 ? "its" : "their");
	fputs(lr_true(lr_get(s, "linux_would_mark_unstable"))
		      ? ". Linux <b class=\"bad\">would mark the TSC unstable</b> (a warp against CPU 0)."
		      : ". Linux <b>would keep the TSC</b> (no warp against CPU 0).", o);
	if ((p = lr_get(s, "gone")) && p->kind == LR_ARR && p->len) {
		fputs(" CPUs gone: ", o);
		rp_value(o, p, "");
		fputs(".", o);
	}
	if (sm.pairs_short)
		fputs(" <span class=\"bad\">Some tsc_sync_pairs records are missing: the pairs shown are not all.</span>", o);
	if (!sm.consistent)
		fputs(" <span class=\"bad\">The record's verdict disagrees with its pairs under its rule.</span>", o);
	fputs("</p>\n<p class=\"dim\">Rule: ", o);
	rp_value(o, lr_get(s, "rule"), "not given");
	fputs(".</p>\n", o);
	rp_svg_offsets(o, v, colour);
}

static void percpu_spread(FILE *o, const struct smp_view *v)
{
	char pre[SMP_PERCPU_MAX][32];
	struct smp_spread sp;
	size_t n;
	left_out(o, v, SMP_PERCPU);
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

static void timers_on(FILE *o, const struct smp_view *v, const struct lrun *r)
{
	left_out(o, v, SMP_TIMER_ON);
	if (!v->ntimers_on)
		return;
	fputs("<h4>The counters on other core types</h4>\n<table><tr><th>counter</th><th class=\"n\">CPU 0 p50 ns</th>"
	      "<th>measured on</th><th class=\"n\">p50 ns</th><th class=\"n\">min ns</th><th class=\"n\">p99 ns</th>"
	      "<th>health</th></tr>\n", o);
	for (size_t i = 0; i < v->ntimers_on; i++) {
		const struct lr_node *t = v->timers_on[i], *name = lr_get(t, "name"), *ent = NULL;
		uint64_t cpu;
		if (lr_uint(lr_get(t, "cpu"), &cpu))
			ent = smp_cpu_entry(v, (long)cpu);
		fputs("<tr><td>", o);
		rp_value(o, name, "?");
		fputs("</td>", o);
		td(o, lr_str(name) ? lr_path(lrun_timer(r, lr_str(name)), "cost_ns.p50") : NULL, 1);
		fputs("<td>CPU ", o);
		rp_value(o, lr_get(t, "cpu"), "?");
		fputs(" (", o);
		rp_value(o, lr_get(ent, "core_type"), "?");
		fputs(")</td>", o);
		td(o, lr_path(t, "cost_ns.p50"), 1);
		td(o, lr_path(t, "cost_ns.min"), 1);
		td(o, lr_path(t, "cost_ns.p99"), 1);
		fprintf(o, "<td class=\"%s\">", lr_true(lr_get(t, "healthy")) ? "ok" : "bad");
		rp_value(o, lr_get(t, "reason"), lr_true(lr_get(t, "healthy")) ? "ok" : "not healthy");
		fputs("</td></tr>\n", o);
	}
	fputs("</table>\n", o);
}

/* ---- contention and latency --------------------------------------------------- */

/* A level's overlap and readers, for a log that has them: a level whose
 * readers did not read at the same time is marked, not shown as contention. */
static void level_placement(FILE *o, const struct lr_node *e)
{
	const struct lr_node *cpus = lr_get(e, "cpus"), *c;
	int concurrent = smp_level_concurrent(e);

	fprintf(o, "<td class=\"n%s\">", concurrent == 0 ? " bad" : "");
	rp_num(o, lr_get(e, "overlap"), 3);
	fputs("</td><td>", o);
	if (smp_level_siblings(e))
		fputs("SMT siblings: ", o);
	for (c = cpus && cpus->kind == LR_ARR ? cpus->child : NULL; c; c = c->next) {
		rp_value(o, c, "?");
		fputs(c->next ? "," : "", o);
	}
	if (concurrent == 0)
		fputs(" <span class=\"bad\">not concurrent: the readers hardly overlapped</span>", o);
	fputs("</td>", o);
}

static void contention(FILE *o, const struct smp_view *v, size_t log)
{
	struct rp_curve cv[SMP_MAX_CONTENTION];
	size_t n = 0;
	bool placed = false;

	for (size_t i = 0; i < v->ncontention; i++)
		placed |= smp_has_overlap(v->contention[i]);

	left_out(o, v, SMP_CONTENTION);
	if (!v->ncontention)
		return;
	fputs("<h4>Contention</h4>\n<table><tr><th>counter</th><th class=\"n\">readers</th><th class=\"n\">returned</th>"
	      "<th class=\"n\">p50 ns</th><th class=\"n\">p99 ns</th><th class=\"n\">worst p50</th>"
	      "<th class=\"n\">worst p99</th><th class=\"n\">reads/s</th><th class=\"n\">backwards</th>", o);
	fputs(placed ? "<th class=\"n\">overlap</th><th>CPUs</th></tr>\n" : "</tr>\n", o);
	for (size_t i = 0; i < v->ncontention; i++) {
		const struct lr_node *c = v->contention[i], *lv = lr_get(c, "readers"), *e;
		size_t rows = lv && lv->kind == LR_ARR ? lv->len : 0;
		fprintf(o, "<tr><td rowspan=\"%zu\"><b>", rows ? rows : 1);
		rp_value(o, lr_get(c, "counter"), "?");
		fputs("</b></td>", o);
		if (lr_get(c, "refused")) {
			fputs("<td colspan=\"8\" class=\"bad\">refused: ", o);
			rp_value(o, lr_get(c, "refused"), "");
			fputs("</td></tr>\n", o);
			continue;
		}
		if (!rows)
			fputs("<td colspan=\"8\" class=\"dim\">no levels</td></tr>\n", o);
		for (e = rows ? lv->child : NULL; e; e = e->next) {
			uint64_t asked = 0, ret = 0;
			lr_uint(lr_get(e, "n"), &asked);
			lr_uint(lr_get(e, "returned"), &ret);
			if (e != lv->child)
				fputs("<tr>", o);
			td(o, lr_get(e, "n"), -1);
			fprintf(o, "<td class=\"n%s\">", ret < asked ? " bad" : "");
			rp_num(o, lr_get(e, "returned"), -1);
			fputs("</td>", o);
			td(o, lr_get(e, "p50_ns"), 1);
			td(o, lr_get(e, "p99_ns"), 1);
			td(o, lr_get(e, "worst_p50_ns"), 1);
			td(o, lr_get(e, "worst_p99_ns"), 1);
			td(o, lr_get(e, "reads_per_s"), 0);
			td(o, lr_get(e, "backwards"), -1);
			if (placed)
				level_placement(o, e);
			fputs("</tr>\n", o);
		}
		if (n < SMP_MAX_CONTENTION && rows)
			cv[n++] = (struct rp_curve){ .rec = c, .colour = rp_colour(log), .label = NULL, .log = log };
	}
	fputs("</table>\n<p class=\"dim\">Backward steps across CPUs, counted where the order is proven: ", o);
	for (size_t i = 0; i < v->ncontention; i++) {
		const struct lr_node *c = v->contention[i];
		if (lr_get(c, "refused"))
			continue;
		rp_value(o, lr_get(c, "counter"), "?");
		fputs(" ", o);
		rp_value(o, lr_get(c, "backwards"), "?");
		fputs(" of ", o);
		rp_value(o, lr_get(c, "ordered"), "?");
		fputs(i + 1 < v->ncontention ? "; " : ".", o);
	}
	fputs("</p>\n", o);
	if (n)
		rp_svg_contention(o, cv, n, "Contention: cost per read against readers");
}

static void latency(FILE *o, const struct smp_view *v)
{
	const struct lr_node *l = v->latency, *vd;
	size_t n;

	left_out(o, v, SMP_LATENCY);
	if (!l)
		return;
	fputs("<h4>Latency (gaps between TSC reads)</h4>\n", o);
	if (lr_get(l, "refused")) {
		fputs("<p class=\"bad\">Refused: ", o);
		rp_value(o, lr_get(l, "refused"), "");
		fputs("</p>\n", o);
		return;
	}
	fputs("<p>Each CPU spun reading the TSC for ", o);
	rp_value(o, lr_get(l, "seconds"), "?");
	fputs(" s; a CPU fails when its largest gap exceeds ", o);
	rp_value(o, lr_get(l, "limit_ns"), "?");
	fputs(" ns. ", o);
	rp_value(o, lr_get(l, "failed"), "?");
	fputs(" failed; TSC steps back: ", o);
	rp_value(o, lr_get(l, "backwards"), "?");
	fputs(".</p>\n<table><tr><th class=\"n\">CPU</th>", o);
	for (int k = 0; k < 7; k++)
		fprintf(o, "<th class=\"n\">%s</th>", latency_bins[k]);
	fputs("<th class=\"n\">largest gap &micro;s</th><th class=\"n\">at ms</th><th class=\"n\">SMIs</th>"
	      "<th>verdict</th></tr>\n", o);
	vd = lr_get(l, "verdict");
	n = vd && vd->kind == LR_ARR ? vd->len : 0;
	for (size_t c = 0; c < n; c++) {
		const struct lr_node *bins = lr_at(lr_get(l, "bins"), c);
		const char *w = lr_str(lr_at(vd, c));
		double g;
		fprintf(o, "<tr><td class=\"n\">%zu</td>", c);
		for (size_t k = 0; k < 7; k++)
			td(o, lr_at(bins, k), -1);
		fputs("<td class=\"n\">", o);
		if (lr_num(lr_at(lr_get(l, "max_gap_ns"), c), &g))
			fprintf(o, "%.1f", g / 1e3);
		else
			fputs("&ndash;", o);
		fputs("</td><td class=\"n\">", o);
		if (lr_num(lr_at(lr_get(l, "max_gap_at_ns"), c), &g))
			fprintf(o, "%.3f", g / 1e6);
		else
			fputs("&ndash;", o);
		fputs("</td>", o);
		td(o, lr_at(lr_get(l, "smi_delta"), c), -1);
		fprintf(o, "<td class=\"%s\">", w && !strcmp(w, "pass") ? "ok" : "bad");
		rp_esc(o, w ? w : "?");
		fputs("</td></tr>\n", o);
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
		fputs("<p>1 CPU (", o);
		rp_value(o, lr_get(v->cpus, "apic"), "APIC mode unknown");
		fputs("): no multi-CPU measurements.</p>\n", o);
		left_out(o, v, SMP_CPUS);
		free(v);
		return;
	}
	cpu_table(o, v);
	if (smp_multi(v) || v->nleft_out) {
		left_out(o, v, SMP_TEAM);
		sync_verdict(o, v, rp_colour(i));
		percpu_spread(o, v);
		timers_on(o, v, r);
		contention(o, v, i);
		latency(o, v);
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
