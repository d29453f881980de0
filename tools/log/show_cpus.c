/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe show`: the CPUs and the multi-CPU records (tools/log/show_cpus.h).
 *
 * Up to 16 CPUs get a line each, with their own read cost and latency
 * verdict beside the start-up; past that, alike neighbours (same state,
 * package and core type) share one line with the range of their figures,
 * so 256 CPUs of two packages take a handful of lines. */
#include "tools/log/show_cpus.h"
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/logschema.h"
#include "tools/lib/smprec.h"
#include "tools/lib/textsafe.h"

#define LIST_EACH_MAX 16  /* CPUs listed one a line; more are grouped */
#define PAIRS_SHOWN 8     /* pairs that break the sync rule, listed by name */

static const char *num(char *b, size_t cap, const struct lr_node *n, int decimals)
{
	return fmt_num(b, cap, n, decimals);
}

/* The string as shown (escaped into b), or `none`. */
const char *show_cpus_str(char *b, size_t cap, const struct lr_node *n, const char *none)
{
	return n && lr_str(n) ? ts_strn(b, cap, n->str, n->len) : none;
}

/* "  (text)" after a line's figures, for a string member; nothing else. */
void show_cpus_aside(FILE *o, const struct lr_node *n)
{
	if (!n || !lr_str(n))
		return;
	fputs("  (", o);
	ts_write(o, n->str, n->len);
	fputs(")", o);
}

/* "line 21 was damaged and left out" lines for a section, when any. */
void show_cpus_left_out(FILE *o, const struct smp_view *v, enum smp_kind k, const char *label)
{
	char what[160];
	for (size_t i = 0; i < v->nleft_out; i++)
		if (v->left_out[i].kinds & (1u << k))
			fprintf(o, "%-9s line %u: damaged, left out (by its place, %s)\n", label,
				(unsigned)v->left_out[i].line, smp_left_out_what(&v->left_out[i], what, sizeof what));
}

/* ---- the CPU list --------------------------------------------------------- */

/* cpus.list's entries, decoded (calloc'd; NULL and *n 0 when it is no list
 * of rows). */
static struct ld_cpu_entry *cpu_rows(const struct ld_cpus *c, size_t *n)
{
	struct ld_cpu_entry *rows;

	*n = c->list.state == LD_SET && c->list.node->kind == LR_ARR ? c->list.n : 0;
	rows = *n ? calloc(*n, sizeof *rows) : NULL;
	if (!rows)
		*n = 0;
	for (size_t i = 0; i < *n; i++)
		ld_cpus_list_at(c, i, &rows[i]);
	return rows;
}

static void topology_line(FILE *o, const struct ld_cpu_entry *rows, size_t n)
{
	size_t packages = 0, cores = 0, threads = 0, hybrid_types = 0;
	const char *types[8];
	size_t type_n[8] = { 0 };

	for (size_t i = 0; i < n; i++) {
		const struct ld_cpu_entry *e = &rows[i];
		bool new_pkg = true, new_core = true;
		const char *ct = ld_str_or(e->core_type, NULL);
		if (e->package.state != LD_SET || e->core.state != LD_SET)
			continue;
		for (size_t k = 0; k < i; k++) {
			const struct ld_cpu_entry *f = &rows[k];
			if (f->package.state != LD_SET || f->core.state != LD_SET)
				continue;
			new_pkg &= f->package.v != e->package.v;
			new_core &= !(f->package.v == e->package.v && f->core.v == e->core.v);
		}
		packages += new_pkg;
		cores += new_core;
		if (e->thread.state == LD_SET && e->thread.v + 1 > threads)
			threads = e->thread.v + 1;
		if (ct) {
			size_t t;
			for (t = 0; t < hybrid_types && strcmp(types[t], ct); t++)
				;
			if (t == hybrid_types && t < 8)
				types[hybrid_types++] = ct;
			if (t < 8)
				type_n[t]++;
		}
	}
	if (!packages)
		return;
	fprintf(o, "          %zu package%s, %zu core%s, %zu thread%s a core", packages, packages == 1 ? "" : "s",
		cores, cores == 1 ? "" : "s", threads, threads == 1 ? "" : "s");
	for (size_t t = 0; t < hybrid_types; t++) {
		fputs(t ? ", " : "; core types ", o);
		ts_puts(o, types[t]);
		fprintf(o, " x%zu", type_n[t]);
	}
	fputs("\n", o);
}

static void cpu_line(FILE *o, const struct smp_view *v, const struct ld_cpu_entry *e, const struct ld_latency *l)
{
	char b[6][40], type[64], state[64];
	uint64_t cpu = e->cpu.v;
	double x;
	bool has_cpu = e->cpu.state == LD_SET;

	snprintf(b[0], sizeof b[0], "%s/%s/%s", num(b[1], 12, e->package.node, -1), num(b[2], 12, e->core.node, -1),
		 num(b[3], 12, e->thread.node, -1));
	fprintf(o, "  %4s %6s  %-13s %-9s %-12s %11s %5s", has_cpu ? num(b[4], 40, e->cpu.node, -1) : "-",
		num(b[5], 40, e->apic_id.node, -1), b[0], show_cpus_str(type, sizeof type, e->core_type.node, "-"),
		show_cpus_str(state, sizeof state, e->state.node, "?"), num(b[1], 40, e->startup_us.node, -1),
		num(b[2], 40, e->sipis.node, -1));
	if (v->percpu) {
		bool ns = smp_percpu_ns(v, "tsc", has_cpu ? cpu : (size_t)-1, &x);
		if (has_cpu && ns)
			snprintf(b[3], 40, "%.1f", x);
		fprintf(o, " %10s", has_cpu && ns ? b[3] : "-");
		ns = smp_percpu_ns(v, "rdtscp", has_cpu ? cpu : (size_t)-1, &x);
		if (has_cpu && ns)
			snprintf(b[4], 40, "%.1f", x);
		fprintf(o, " %13s", has_cpu && ns ? b[4] : "-");
	}
	if (v->latency) {
		const struct lr_node *vd = has_cpu ? ld_latency_verdict_at(l, cpu).node : NULL;
		fprintf(o, "  %s", show_cpus_str(state, sizeof state, vd, "-"));
	}
	show_cpus_aside(o, e->why.node);
	fputs("\n", o);
}

/* Alike neighbours: the same state, package, core type and reason. */
static bool same_group(const struct ld_cpu_entry *a, const struct ld_cpu_entry *b)
{
	const struct lr_node *p[] = { a->state.node, a->package.node, a->core_type.node, a->why.node };
	const struct lr_node *q[] = { b->state.node, b->package.node, b->core_type.node, b->why.node };
	char x[64], y[64];
	for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
		const char *s = lr_str(p[k]) ? lr_str(p[k]) : num(x, sizeof x, p[k], -1);
		const char *t = lr_str(q[k]) ? lr_str(q[k]) : num(y, sizeof y, q[k], -1);
		if (strcmp(s, t))
			return false;
	}
	return true;
}

/* "a-b" of a member (at `offset` in struct ld_cpu_entry, a struct ld_uint)
 * over entries [first, end), or one value, or "a..b" when they are not
 * consecutive. */
static const char *range_of(char *buf, size_t cap, const struct ld_cpu_entry *first, const struct ld_cpu_entry *end,
			    size_t offset)
{
	uint64_t lo = UINT64_MAX, hi = 0, prev = 0;
	bool step1 = true, any = false;
	for (const struct ld_cpu_entry *e = first; e != end; e++) {
		const struct ld_uint *m = (const struct ld_uint *)((const char *)e + offset);
		if (m->state != LD_SET)
			continue;
		step1 &= !any || m->v == prev + 1;
		prev = m->v;
		any = true;
		lo = m->v < lo ? m->v : lo;
		hi = m->v > hi ? m->v : hi;
	}
	if (!any)
		snprintf(buf, cap, "-");
	else if (lo == hi)
		snprintf(buf, cap, "%" PRIu64, lo);
	else
		snprintf(buf, cap, "%" PRIu64 "%s%" PRIu64, lo, step1 ? "-" : "..", hi);
	return buf;
}

static void group_line(FILE *o, const struct ld_cpu_entry *first, const struct ld_cpu_entry *end)
{
	char b[4][48], su[64], type[64], state[64];
	double lo = INFINITY, hi = -INFINITY;
	for (const struct ld_cpu_entry *e = first; e != end; e++)
		if (e->startup_us.state == LD_SET) {
			lo = e->startup_us.v < lo ? e->startup_us.v : lo;
			hi = e->startup_us.v > hi ? e->startup_us.v : hi;
		}
	if (lo <= hi)
		snprintf(su, sizeof su, lo == hi ? "%.1f" : "%.1f..%.1f", lo, hi);
	else
		snprintf(su, sizeof su, "-");
	fprintf(o, "  %-9s %5zu  %-11s %-7s %-9s %-12s %-21s %s",
		range_of(b[0], 48, first, end, offsetof(struct ld_cpu_entry, cpu)), (size_t)(end - first),
		range_of(b[1], 48, first, end, offsetof(struct ld_cpu_entry, apic_id)),
		range_of(b[2], 48, first, end, offsetof(struct ld_cpu_entry, package)),
		show_cpus_str(type, sizeof type, first->core_type.node, "-"),
		show_cpus_str(state, sizeof state, first->state.node, "?"), su,
		range_of(b[3], 48, first, end, offsetof(struct ld_cpu_entry, sipis)));
	show_cpus_aside(o, first->why.node);
	fputs("\n", o);
}

/* The list's lines: one a CPU, or one a group of alike neighbours. */
static void cpu_lines(FILE *o, const struct smp_view *v, const struct ld_cpu_entry *rows, size_t n)
{
	struct ld_latency l;

	ld_decode_latency(v->latency, &l);
	if (n <= LIST_EACH_MAX) {
		fprintf(o, "  %4s %6s  %-13s %-9s %-12s %11s %5s", "cpu", "apic", "pkg/core/thr", "core type", "state",
			"start-up us", "SIPIs");
		if (v->percpu)
			fprintf(o, " %10s %13s", "tsc p50 ns", "rdtscp p50 ns");
		fputs(v->latency ? "  latency\n" : "\n", o);
		for (size_t i = 0; i < n; i++)
			cpu_line(o, v, &rows[i], &l);
		return;
	}
	fprintf(o, "  %-9s %5s  %-11s %-7s %-9s %-12s %-21s %s\n", "cpus", "count", "apic IDs", "package",
		"core type", "state", "start-up us", "SIPIs");
	for (const struct ld_cpu_entry *e = rows, *g; e != rows + n; e = g) {
		for (g = e; g != rows + n && same_group(e, g); g++)
			;
		group_line(o, e, g);
	}
}

static void cpu_list(FILE *o, const struct smp_view *v)
{
	struct ld_cpus c;
	struct ld_cpu_entry *rows;
	size_t n;
	char b[3][32], apic[64];

	ld_decode_cpus(v->cpus, &c);
	fprintf(o, "cpus      %s listed, %s running (%s)", num(b[0], 32, c.count.node, -1),
		num(b[1], 32, c.started.node, -1), show_cpus_str(apic, sizeof apic, c.apic.node, "APIC mode unknown"));
	if (c.problem.state == LD_SET) {
		fputs("; no other CPU started: ", o);
		ts_puts(o, c.problem.s);
	}
	fputs("\n", o);
	rows = cpu_rows(&c, &n);
	topology_line(o, rows, n);
	if (n)
		cpu_lines(o, v, rows, n);
	free(rows);
}

/* ---- team check, TSC sync, per-CPU cost ------------------------------------ */

static void team(FILE *o, const struct smp_view *v)
{
	struct ld_team_check t;
	char b[6][32];
	if (!v->team)
		return;
	ld_decode_team_check(v->team, &t);
	fprintf(o, "team      %s of %s CPUs returned (then %s); shared counter %s (then %s); TSC_AUX named %s\n",
		num(b[0], 32, t.returned.node, -1), num(b[1], 32, t.cpus.node, -1),
		num(b[2], 32, t.again_returned.node, -1), num(b[3], 32, t.count.node, -1),
		num(b[4], 32, t.again_count.node, -1), num(b[5], 32, t.tsc_aux_match.node, -1));
	if (t.dropped.state == LD_SET && t.dropped.n) {
		fprintf(o, "          dropped: CPU%s", t.dropped.n == 1 ? "" : "s");
		for (size_t i = 0; i < t.dropped.n; i++)
			fprintf(o, " %s%s", num(b[0], 32, ld_team_check_dropped_at(&t, i).node, -1),
				i + 1 < t.dropped.n ? "," : "");
		fputs("\n", o);
	}
}

/* "12.345 us": cycles as time at the log's TSC rate (hz > 0). */
static const char *as_time(char *b, size_t cap, double cycles, double hz)
{
	double s = cycles / hz;
	if (fabs(s) >= 1)
		snprintf(b, cap, "%.3f s", s);
	else if (fabs(s) >= 1e-3)
		snprintf(b, cap, "%.3f ms", s * 1e3);
	else if (fabs(s) >= 1e-6)
		snprintf(b, cap, "%.3f us", s * 1e6);
	else
		snprintf(b, cap, "%.1f ns", s * 1e9);
	return b;
}

static void pair_text(FILE *o, const struct lr_node *p, double hz)
{
	struct ld_tsc_pair pair;
	int64_t off;
	uint64_t u;
	char t1[40], t2[40], b[32];
	ld_decode_tsc_pair(p, &pair);
	fprintf(o, "CPU %s", num(b, sizeof b, pair.cpu.node, -1));
	if (pair.ref.node)
		fprintf(o, " vs CPU %s", num(b, sizeof b, pair.ref.node, -1));
	if (smp_pair_offset(p, &off, &u) && hz > 0)
		fprintf(o, ": %+" PRId64 " +/- %" PRIu64 " cycles (%s +/- %s)", off, u, as_time(t1, 40, (double)off, hz),
			as_time(t2, 40, (double)u, hz));
	else if (smp_pair_offset(p, &off, &u))
		fprintf(o, ": %+" PRId64 " +/- %" PRIu64 " cycles", off, u);
	else
		fputs(": offset not measured", o);
}

/* The pairs that make it NOT synchronized, by name. */
static void broken_pairs(FILE *o, const struct smp_view *v, const struct smp_sync_summary *sm, double hz)
{
	const struct lr_node *p;
	size_t shown = 0;
	char b[32];

	for (size_t k = 0; (p = smp_pair_at(v, k)) && shown < PAIRS_SHOWN; k++) {
		struct ld_tsc_pair pair;
		int64_t off;
		uint64_t u;
		ld_decode_tsc_pair(p, &pair);
		bool out = smp_pair_offset(p, &off, &u) && (off < 0 ? (uint64_t)0 - (uint64_t)off : (uint64_t)off) > u;
		bool warp = pair.warps.state == LD_SET && pair.warps.v;
		uint64_t w = pair.warps.v;
		if (!out && !warp)
			continue;
		fputs(out ? "          outside its uncertainty: " : "          warped: ", o);
		pair_text(o, p, hz);
		if (warp)
			fprintf(o, ", %" PRIu64 " warp%s (largest %s cycles)", w, w == 1 ? "" : "s",
				num(b, sizeof b, pair.max_warp_cycles.node, -1));
		fputs("\n", o);
		shown++;
	}
	if (shown == PAIRS_SHOWN && sm->outside + sm->warped > shown)
		fprintf(o, "          ... and more: %zu pairs outside their uncertainty, %zu warped\n", sm->outside,
			sm->warped);
}

static void tsc_sync(FILE *o, const struct smp_view *v, double hz)
{
	struct ld_tsc_sync s;
	struct smp_sync_summary sm;
	char b[4][32];

	show_cpus_left_out(o, v, SMP_SYNC, "tsc sync");
	show_cpus_left_out(o, v, SMP_SYNC_PAIRS, "tsc sync");
	if (!v->sync) {
		fprintf(o, "tsc sync  no good tsc_sync record: no verdict\n");
		return;
	}
	ld_decode_tsc_sync(v->sync, &s);
	smp_sync_summary(v, &sm);
	fprintf(o, "tsc sync  %s: %s, %zu pair%s, %s warp%s (largest %s cycles)\n", smp_sync_word(v),
		!strcmp(ld_str_or(s.mode, ""), "matrix") ? "every pair" : "each CPU against CPU 0", sm.pairs,
		sm.pairs == 1 ? "" : "s", num(b[0], 32, s.warps.node, -1),
		s.warps.state == LD_SET && s.warps.v == 1 ? "" : "s", num(b[1], 32, s.max_warp_cycles.node, -1));
	if (sm.largest) {
		fputs("          largest |offset|: ", o);
		pair_text(o, sm.largest, hz);
		fputs("\n", o);
	}
	fprintf(o, "          Linux %s",
		ld_true(s.linux_would_mark_unstable) ? "would mark the TSC unstable (a warp against CPU 0)"
						     : "would keep the TSC (no warp against CPU 0)");
	if (sm.incomplete || sm.measured < sm.pairs)
		fprintf(o, "; %zu pair%s not measured in full", sm.pairs - sm.measured + sm.incomplete,
			sm.pairs - sm.measured + sm.incomplete == 1 ? "" : "s");
	if (s.gone.state == LD_SET && s.gone.n) {
		fprintf(o, "; gone: CPU%s", s.gone.n == 1 ? "" : "s");
		for (size_t i = 0; i < s.gone.n; i++)
			fprintf(o, " %s%s", num(b[0], 32, ld_tsc_sync_gone_at(&s, i).node, -1),
				i + 1 < s.gone.n ? "," : "");
	}
	if (sm.adjusted)
		fprintf(o, "; %zu CPU%s with IA32_TSC_ADJUST not 0", sm.adjusted, sm.adjusted == 1 ? "" : "s");
	fputs("\n", o);
	if (sm.pairs_short)
		fprintf(o, "          only %zu of %s pairs in the log (tsc_sync_pairs records missing)\n", sm.pairs,
			num(b[0], 32, s.pairs_total.node, -1));
	if (!sm.consistent) {
		fputs("          the record's verdict disagrees with its pairs under its rule: ", o);
		ts_puts(o, ld_str_or(s.rule, "(no rule given)"));
		fputs("\n", o);
	}
	if (sm.outside || sm.warped)
		broken_pairs(o, v, &sm, hz);
}

static void percpu(FILE *o, const struct smp_view *v)
{
	char pre[SMP_PERCPU_MAX][32];
	struct smp_spread sp;
	struct ld_percpu pc;
	char b[32];
	size_t n;
	show_cpus_left_out(o, v, SMP_PERCPU, "per-cpu");
	if (!v->percpu)
		return;
	ld_decode_percpu(v->percpu, &pc);
	fprintf(o, "per-cpu   %s reads a counter on each CPU, one CPU at a time\n",
		num(b, sizeof b, pc.samples.node, -1));
	n = smp_percpu_counters(v, pre, SMP_PERCPU_MAX);
	for (size_t k = 0; k < n; k++) {
		const char *u;
		if (!smp_percpu_spread(v, pre[k], &sp)) {
			fprintf(o, "          %-12s p50: no CPU measured\n", pre[k]);
			continue;
		}
		u = sp.ns ? "ns" : "cycles";
		fprintf(o, "          %-12s p50 over %zu CPU%s: min %.1f %s (CPU %zu), median %.1f, max %.1f (CPU %zu)\n",
			pre[k], sp.n, sp.n == 1 ? "" : "s", sp.min, u, sp.min_cpu, sp.median, sp.max, sp.max_cpu);
	}
}

/* ---- the counters on other core types -------------------------------------- */

static void timers_on(FILE *o, const struct smp_view *v, const struct lrun *r)
{
	char b[2][32];
	show_cpus_left_out(o, v, SMP_TIMER_ON, "core type");
	if (!v->ntimers_on)
		return;
	fputs("core types: the counters again on the first CPU of each other core type, p50 ns\n", o);
	fprintf(o, "  %-14s %16s %16s %10s\n", "counter", "CPU 0", "on", "p50 ns");
	for (size_t i = 0; i < v->ntimers_on; i++) {
		struct ld_timer t, boot;
		struct ld_cpu_entry ent;
		char on[128], type[64], shown_name[64];
		ld_decode_timer(v->timers_on[i], &t);
		ld_decode_timer(t.name.state == LD_SET ? lrun_timer(r, t.name.s) : NULL, &boot);
		ld_decode_cpu_entry(t.cpu.state == LD_SET ? smp_cpu_entry(v, (long)t.cpu.v) : NULL, &ent);
		snprintf(on, sizeof on, "CPU %s (%s)", num(b[0], 32, t.cpu.node, -1),
			 show_cpus_str(type, sizeof type, ent.core_type.node, "?"));
		fprintf(o, "  %-14s %16s %16s %10s%s\n", show_cpus_str(shown_name, sizeof shown_name, t.name.node, "?"),
			num(b[1], 32, boot.cost_ns.p50.node, 1), on, num(b[0], 32, t.cost_ns.p50.node, 1),
			ld_true(t.healthy) ? "" : "  not healthy");
	}
}

void show_cpus_text(FILE *o, const struct lrun *r)
{
	struct smp_view *v = calloc(1, sizeof *v);
	struct ld_tsc t;
	struct ld_cpus c;
	double hz;
	char b[64];

	if (!v)
		return;
	if (!smp_view_load(v, r)) {
		free(v);
		return;
	}
	ld_decode_tsc(lrun_first(r, "tsc"), &t);
	hz = t.hz.state == LD_SET ? t.hz.v : 0;
	ld_decode_cpus(v->cpus, &c);
	fputs("\n", o);
	show_cpus_left_out(o, v, SMP_CPUS, "cpus");
	if (v->cpus && !smp_multi(v) && v->count == 1)
		fprintf(o, "cpus      1 CPU (%s)\n", show_cpus_str(b, sizeof b, c.apic.node, "APIC mode unknown"));
	else if (v->cpus)
		cpu_list(o, v);
	if (!smp_multi(v)) { /* one CPU, or no record says more: only what was left out */
		for (int k = SMP_TEAM; k < SMP_KINDS; k++)
			show_cpus_left_out(o, v, (enum smp_kind)k, smp_kind_name((enum smp_kind)k));
		free(v);
		return;
	}
	show_cpus_left_out(o, v, SMP_TEAM, "team");
	team(o, v);
	tsc_sync(o, v, hz);
	percpu(o, v);
	timers_on(o, v, r);
	show_cpus_contention(o, v);
	show_cpus_latency(o, v);
	free(v);
}
