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
#include "tools/lib/smprec.h"
#include "tools/lib/textsafe.h"

#define LIST_EACH_MAX 16  /* CPUs listed one a line; more are grouped */
#define LATENCY_ROWS 16   /* CPU rows of the latency table; past that, the failed ones */
#define PAIRS_SHOWN 8     /* pairs that break the sync rule, listed by name */

static const char *num(char *b, size_t cap, const struct lr_node *n, int decimals)
{
	return fmt_num(b, cap, n, decimals);
}

/* The string, for comparing; `none` when n is not a string. */
static const char *str_or(const struct lr_node *n, const char *none)
{
	return lr_str(n) ? lr_str(n) : none;
}

/* The string as shown (escaped into b), or `none`. */
static const char *shown_str(char *b, size_t cap, const struct lr_node *n, const char *none)
{
	return n && lr_str(n) ? ts_strn(b, cap, n->str, n->len) : none;
}

/* "  (text)" after a line's figures, for a string member; nothing else. */
static void aside(FILE *o, const struct lr_node *n)
{
	if (!n || !lr_str(n))
		return;
	fputs("  (", o);
	ts_write(o, n->str, n->len);
	fputs(")", o);
}

/* "line 21 was damaged and left out" lines for a section, when any. */
static void left_out(FILE *o, const struct smp_view *v, enum smp_kind k, const char *label)
{
	char what[160];
	for (size_t i = 0; i < v->nleft_out; i++)
		if (v->left_out[i].kinds & (1u << k))
			fprintf(o, "%-9s line %u: damaged, left out (by its place, %s)\n", label,
				(unsigned)v->left_out[i].line, smp_left_out_what(&v->left_out[i], what, sizeof what));
}

/* ---- the CPU list --------------------------------------------------------- */

static void topology_line(FILE *o, const struct smp_view *v)
{
	const struct lr_node *list = lr_get(v->cpus, "list"), *e, *f;
	size_t packages = 0, cores = 0, threads = 0, hybrid_types = 0;
	const char *types[8];
	size_t type_n[8] = { 0 };
	uint64_t pk, co, th, pk2, co2;

	for (e = list && list->kind == LR_ARR ? list->child : NULL; e; e = e->next) {
		bool new_pkg = true, new_core = true;
		const char *ct = lr_str(lr_get(e, "core_type"));
		if (!lr_uint(lr_get(e, "package"), &pk) || !lr_uint(lr_get(e, "core"), &co))
			continue;
		for (f = list->child; f != e; f = f->next) {
			if (!lr_uint(lr_get(f, "package"), &pk2) || !lr_uint(lr_get(f, "core"), &co2))
				continue;
			new_pkg &= pk2 != pk;
			new_core &= !(pk2 == pk && co2 == co);
		}
		packages += new_pkg;
		cores += new_core;
		if (lr_uint(lr_get(e, "thread"), &th) && th + 1 > threads)
			threads = th + 1;
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

static void cpu_line(FILE *o, const struct smp_view *v, const struct lr_node *e)
{
	char b[6][40], type[64], state[64];
	uint64_t cpu;
	double x;
	bool has_cpu = lr_uint(lr_get(e, "cpu"), &cpu);

	snprintf(b[0], sizeof b[0], "%s/%s/%s", num(b[1], 12, lr_get(e, "package"), -1),
		 num(b[2], 12, lr_get(e, "core"), -1), num(b[3], 12, lr_get(e, "thread"), -1));
	fprintf(o, "  %4s %6s  %-13s %-9s %-12s %11s %5s", has_cpu ? num(b[4], 40, lr_get(e, "cpu"), -1) : "-",
		num(b[5], 40, lr_get(e, "apic_id"), -1), b[0], shown_str(type, sizeof type, lr_get(e, "core_type"), "-"),
		shown_str(state, sizeof state, lr_get(e, "state"), "?"), num(b[1], 40, lr_get(e, "startup_us"), -1),
		num(b[2], 40, lr_get(e, "sipis"), -1));
	if (v->percpu) {
		bool ns = smp_percpu_value(v, "tsc_p50_ns", has_cpu ? cpu : (size_t)-1, &x);
		if (has_cpu && ns)
			snprintf(b[3], 40, "%.1f", x);
		fprintf(o, " %10s", has_cpu && ns ? b[3] : "-");
		ns = smp_percpu_value(v, "rdtscp_p50_ns", has_cpu ? cpu : (size_t)-1, &x);
		if (has_cpu && ns)
			snprintf(b[4], 40, "%.1f", x);
		fprintf(o, " %13s", has_cpu && ns ? b[4] : "-");
	}
	if (v->latency) {
		const struct lr_node *vd = has_cpu ? lr_at(lr_get(v->latency, "verdict"), cpu) : NULL;
		fprintf(o, "  %s", shown_str(state, sizeof state, vd, "-"));
	}
	aside(o, lr_get(e, "why"));
	fputs("\n", o);
}

static bool same_group(const struct lr_node *a, const struct lr_node *b)
{
	static const char *const keys[] = { "state", "package", "core_type", "why" };
	char x[64], y[64];
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		const struct lr_node *p = lr_get(a, keys[k]), *q = lr_get(b, keys[k]);
		const char *s = lr_str(p) ? lr_str(p) : num(x, sizeof x, p, -1);
		const char *t = lr_str(q) ? lr_str(q) : num(y, sizeof y, q, -1);
		if (strcmp(s, t))
			return false;
	}
	return true;
}

/* "a-b" of a member over entries [first, end), or one value, or "a..b" when
 * they are not consecutive. */
static const char *range_of(char *buf, size_t cap, const struct lr_node *first, const struct lr_node *end,
			    const char *key)
{
	uint64_t lo = UINT64_MAX, hi = 0, u, prev = 0;
	bool step1 = true, any = false;
	for (const struct lr_node *e = first; e != end; e = e->next) {
		if (!lr_uint(lr_get(e, key), &u))
			continue;
		step1 &= !any || u == prev + 1;
		prev = u;
		any = true;
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	if (!any)
		snprintf(buf, cap, "-");
	else if (lo == hi)
		snprintf(buf, cap, "%" PRIu64, lo);
	else
		snprintf(buf, cap, "%" PRIu64 "%s%" PRIu64, lo, step1 ? "-" : "..", hi);
	return buf;
}

static void group_line(FILE *o, const struct lr_node *first, const struct lr_node *end, size_t n)
{
	char b[4][48], su[64], type[64], state[64];
	double lo = INFINITY, hi = -INFINITY, x;
	for (const struct lr_node *e = first; e != end; e = e->next)
		if (lr_num(lr_get(e, "startup_us"), &x)) {
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
		}
	if (lo <= hi)
		snprintf(su, sizeof su, lo == hi ? "%.1f" : "%.1f..%.1f", lo, hi);
	else
		snprintf(su, sizeof su, "-");
	fprintf(o, "  %-9s %5zu  %-11s %-7s %-9s %-12s %-21s %s", range_of(b[0], 48, first, end, "cpu"), n,
		range_of(b[1], 48, first, end, "apic_id"), range_of(b[2], 48, first, end, "package"),
		shown_str(type, sizeof type, lr_get(first, "core_type"), "-"),
		shown_str(state, sizeof state, lr_get(first, "state"), "?"), su, range_of(b[3], 48, first, end, "sipis"));
	aside(o, lr_get(first, "why"));
	fputs("\n", o);
}

static void cpu_list(FILE *o, const struct smp_view *v)
{
	const struct lr_node *list = lr_get(v->cpus, "list"), *e, *g;
	size_t n = list && list->kind == LR_ARR ? list->len : 0;
	char b[3][32], apic[64];

	fprintf(o, "cpus      %s listed, %s running (%s)", num(b[0], 32, lr_get(v->cpus, "count"), -1),
		num(b[1], 32, lr_get(v->cpus, "started"), -1),
		shown_str(apic, sizeof apic, lr_get(v->cpus, "apic"), "APIC mode unknown"));
	if (lr_str(lr_get(v->cpus, "problem"))) {
		fputs("; no other CPU started: ", o);
		ts_puts(o, lr_str(lr_get(v->cpus, "problem")));
	}
	fputs("\n", o);
	topology_line(o, v);
	if (!n)
		return;
	if (n <= LIST_EACH_MAX) {
		fprintf(o, "  %4s %6s  %-13s %-9s %-12s %11s %5s", "cpu", "apic", "pkg/core/thr", "core type", "state",
			"start-up us", "SIPIs");
		if (v->percpu)
			fprintf(o, " %10s %13s", "tsc p50 ns", "rdtscp p50 ns");
		fputs(v->latency ? "  latency\n" : "\n", o);
		for (e = list->child; e; e = e->next)
			cpu_line(o, v, e);
		return;
	}
	fprintf(o, "  %-9s %5s  %-11s %-7s %-9s %-12s %-21s %s\n", "cpus", "count", "apic IDs", "package",
		"core type", "state", "start-up us", "SIPIs");
	for (e = list->child; e; e = g) {
		size_t k = 0;
		for (g = e; g && same_group(e, g); g = g->next)
			k++;
		group_line(o, e, g, k);
	}
}

/* ---- team check, TSC sync, per-CPU cost ------------------------------------ */

static void team(FILE *o, const struct smp_view *v)
{
	const struct lr_node *t = v->team, *d = lr_get(t, "dropped");
	char b[6][32];
	if (!t)
		return;
	fprintf(o, "team      %s of %s CPUs returned (then %s); shared counter %s (then %s); TSC_AUX named %s\n",
		num(b[0], 32, lr_get(t, "returned"), -1), num(b[1], 32, lr_get(t, "cpus"), -1),
		num(b[2], 32, lr_get(t, "again_returned"), -1), num(b[3], 32, lr_get(t, "count"), -1),
		num(b[4], 32, lr_get(t, "again_count"), -1), num(b[5], 32, lr_get(t, "tsc_aux_match"), -1));
	if (d && d->kind == LR_ARR && d->len) {
		fprintf(o, "          dropped: CPU%s", d->len == 1 ? "" : "s");
		for (d = d->child; d; d = d->next)
			fprintf(o, " %s%s", num(b[0], 32, d, -1), d->next ? "," : "");
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
	int64_t off;
	uint64_t u;
	char t1[40], t2[40], b[32];
	fprintf(o, "CPU %s", num(b, sizeof b, lr_get(p, "cpu"), -1));
	if (lr_get(p, "ref"))
		fprintf(o, " vs CPU %s", num(b, sizeof b, lr_get(p, "ref"), -1));
	if (smp_pair_offset(p, &off, &u) && hz > 0)
		fprintf(o, ": %+" PRId64 " +/- %" PRIu64 " cycles (%s +/- %s)", off, u, as_time(t1, 40, (double)off, hz),
			as_time(t2, 40, (double)u, hz));
	else if (smp_pair_offset(p, &off, &u))
		fprintf(o, ": %+" PRId64 " +/- %" PRIu64 " cycles", off, u);
	else
		fputs(": offset not measured", o);
}

static void tsc_sync(FILE *o, const struct smp_view *v, double hz)
{
	const struct lr_node *s = v->sync, *p;
	struct smp_sync_summary sm;
	char b[4][32];
	size_t shown = 0;
	uint64_t w;

	left_out(o, v, SMP_SYNC, "tsc sync");
	left_out(o, v, SMP_SYNC_PAIRS, "tsc sync");
	if (!s) {
		fprintf(o, "tsc sync  no good tsc_sync record: no verdict\n");
		return;
	}
	smp_sync_summary(v, &sm);
	fprintf(o, "tsc sync  %s: %s, %zu pair%s, %s warp%s (largest %s cycles)\n", smp_sync_word(v),
		!strcmp(str_or(lr_get(s, "mode"), ""), "matrix") ? "every pair" : "each CPU against CPU 0",
		sm.pairs, sm.pairs == 1 ? "" : "s", num(b[0], 32, lr_get(s, "warps"), -1),
		lr_uint(lr_get(s, "warps"), &w) && w == 1 ? "" : "s", num(b[1], 32, lr_get(s, "max_warp_cycles"), -1));
	if (sm.largest) {
		fputs("          largest |offset|: ", o);
		pair_text(o, sm.largest, hz);
		fputs("\n", o);
	}
	fprintf(o, "          Linux %s", lr_true(lr_get(s, "linux_would_mark_unstable"))
						? "would mark the TSC unstable (a warp against CPU 0)"
						: "would keep the TSC (no warp against CPU 0)");
	if (sm.incomplete || sm.measured < sm.pairs)
		fprintf(o, "; %zu pair%s not measured in full", sm.pairs - sm.measured + sm.incomplete,
			sm.pairs - sm.measured + sm.incomplete == 1 ? "" : "s");
	p = lr_get(s, "gone");
	if (p && p->kind == LR_ARR && p->len) {
		fprintf(o, "; gone: CPU%s", p->len == 1 ? "" : "s");
		for (p = p->child; p; p = p->next)
			fprintf(o, " %s%s", num(b[0], 32, p, -1), p->next ? "," : "");
	}
	if (sm.adjusted)
		fprintf(o, "; %zu CPU%s with IA32_TSC_ADJUST not 0", sm.adjusted, sm.adjusted == 1 ? "" : "s");
	fputs("\n", o);
	if (sm.pairs_short)
		fprintf(o, "          only %zu of %s pairs in the log (tsc_sync_pairs records missing)\n", sm.pairs,
			num(b[0], 32, lr_get(s, "pairs_total"), -1));
	if (!sm.consistent) {
		fputs("          the record's verdict disagrees with its pairs under its rule: ", o);
		ts_puts(o, str_or(lr_get(s, "rule"), "(no rule given)"));
		fputs("\n", o);
	}
	/* The pairs that make it NOT synchronized, by name. */
	for (size_t k = 0; (p = smp_pair_at(v, k)) && shown < PAIRS_SHOWN && (sm.outside || sm.warped); k++) {
		int64_t off;
		uint64_t u;
		w = 0;
		bool out = smp_pair_offset(p, &off, &u) && (off < 0 ? (uint64_t)0 - (uint64_t)off : (uint64_t)off) > u;
		bool warp = lr_uint(lr_get(p, "warps"), &w) && w;
		if (!out && !warp)
			continue;
		fputs(out ? "          outside its uncertainty: " : "          warped: ", o);
		pair_text(o, p, hz);
		if (warp)
			fprintf(o, ", %" PRIu64 " warp%s (largest %s cycles)", w, w == 1 ? "" : "s",
				num(b[0], 32, lr_get(p, "max_warp_cycles"), -1));
		fputs("\n", o);
		shown++;
	}
	if (shown == PAIRS_SHOWN && sm.outside + sm.warped > shown)
		fprintf(o, "          ... and more: %zu pairs outside their uncertainty, %zu warped\n", sm.outside, sm.warped);
}

static void percpu(FILE *o, const struct smp_view *v)
{
	char pre[SMP_PERCPU_MAX][32];
	struct smp_spread sp;
	char b[32];
	size_t n;
	left_out(o, v, SMP_PERCPU, "per-cpu");
	if (!v->percpu)
		return;
	fprintf(o, "per-cpu   %s reads a counter on each CPU, one CPU at a time\n",
		num(b, sizeof b, lr_get(v->percpu, "samples"), -1));
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
	left_out(o, v, SMP_TIMER_ON, "core type");
	if (!v->ntimers_on)
		return;
	fputs("core types: the counters again on the first CPU of each other core type, p50 ns\n", o);
	fprintf(o, "  %-14s %16s %16s %10s\n", "counter", "CPU 0", "on", "p50 ns");
	for (size_t i = 0; i < v->ntimers_on; i++) {
		const struct lr_node *t = v->timers_on[i], *name = lr_get(t, "name");
		const struct lr_node *cpu = lr_get(t, "cpu"), *boot = lr_str(name) ? lrun_timer(r, lr_str(name)) : NULL;
		const struct lr_node *ent = NULL;
		char on[128], type[64], shown_name[64];
		uint64_t c;
		if (lr_uint(cpu, &c))
			ent = smp_cpu_entry(v, (long)c);
		snprintf(on, sizeof on, "CPU %s (%s)", num(b[0], 32, cpu, -1),
			 shown_str(type, sizeof type, lr_get(ent, "core_type"), "?"));
		fprintf(o, "  %-14s %16s %16s %10s%s\n", shown_str(shown_name, sizeof shown_name, name, "?"),
			num(b[1], 32, lr_path(boot, "cost_ns.p50"), 1),
			on, num(b[0], 32, lr_path(t, "cost_ns.p50"), 1),
			lr_true(lr_get(t, "healthy")) ? "" : "  not healthy");
	}
}

/* ---- contention, latency ------------------------------------------------------ */

/* After a level's figures: its readers (up to 8 named), and a level whose
 * readers did not read at the same time said to be no contention. */
static void level_notes(FILE *o, const struct lr_node *e)
{
	const struct lr_node *cpus = lr_get(e, "cpus"), *c;
	size_t k = 0;

	if (smp_level_concurrent(e) == 0)
		fputs("  not concurrent", o);
	if (!cpus || cpus->kind != LR_ARR)
		return;
	fputs(cpus->len > 8 ? "  CPUs" : "  CPU", o);
	for (c = cpus->child; c && k < 8; c = c->next, k++) {
		uint64_t n;
		fprintf(o, "%s", k ? "," : " ");
		if (lr_uint(c, &n))
			fprintf(o, "%" PRIu64, n);
		else
			fputs("?", o);
	}
	if (cpus->len > 8)
		fprintf(o, ",... (%zu)", cpus->len);
}

/* The readers column: n, or "2 SMT" for the level of two siblings. */
static const char *readers_label(char *buf, size_t cap, const struct lr_node *e)
{
	char b[32];
	snprintf(buf, cap, "%s%s", num(b, 32, lr_get(e, "n"), -1), smp_level_siblings(e) ? " SMT" : "");
	return buf;
}

static void contention(FILE *o, const struct smp_view *v)
{
	char b[8][32];
	bool overlap = false;
	left_out(o, v, SMP_CONTENTION, "contention");
	if (!v->ncontention)
		return;
	for (size_t i = 0; i < v->ncontention; i++)
		overlap |= smp_has_overlap(v->contention[i]);
	fputs("contention: each counter read by 1, 2, 4 ... N CPUs at once; p50/p99: the median over the readers\n"
	      "            of each reader's; worst: the slowest reader's; reads/s: all readers together\n", o);
	if (overlap)
		fputs("            readers spread over packages, then cores, then SMT siblings (2 SMT: two of one core);\n"
		      "            overlap: the share of the level's window in which all its readers were reading\n", o);
	fprintf(o, "  %-10s %7s %9s %9s %10s %10s %12s %9s", "counter", "readers", "p50 ns", "p99 ns", "worst p50",
		"worst p99", "reads/s", "p50 vs 1");
	fputs(overlap ? " overlap\n" : "\n", o);
	for (size_t i = 0; i < v->ncontention; i++) {
		const struct lr_node *c = v->contention[i], *lv = lr_get(c, "readers"), *e;
		char shown_name[64];
		const char *name = shown_str(shown_name, sizeof shown_name, lr_get(c, "counter"), "?");
		double p1 = 0, p, x;
		bool first = true;
		if (lr_str(lr_get(c, "refused"))) {
			fprintf(o, "  %-10s refused: ", name);
			ts_puts(o, lr_str(lr_get(c, "refused")));
			fputs("\n", o);
			continue;
		}
		if (!lr_num(lr_get(smp_level(c, 1), "p50_ns"), &p1))
			p1 = 0;
		for (e = lv && lv->kind == LR_ARR ? lv->child : NULL; e; e = e->next, first = false) {
			uint64_t n = 0, ret = 0;
			char rel[32] = "";
			lr_uint(lr_get(e, "n"), &n);
			if (lr_num(lr_get(e, "p50_ns"), &p) && p1 > 0 && n != 1)
				snprintf(rel, sizeof rel, "x%.2f", p / p1);
			fprintf(o, "  %-10s %7s %9s %9s %10s %10s %12s %9s", first ? name : "", readers_label(b[6], 32, e),
				num(b[1], 32, lr_get(e, "p50_ns"), 1), num(b[2], 32, lr_get(e, "p99_ns"), 1),
				num(b[3], 32, lr_get(e, "worst_p50_ns"), 1), num(b[4], 32, lr_get(e, "worst_p99_ns"), 1),
				num(b[5], 32, lr_get(e, "reads_per_s"), 0), rel);
			if (lr_uint(lr_get(e, "returned"), &ret) && ret < n)
				fprintf(o, "  only %" PRIu64 " of %" PRIu64 " returned", ret, n);
			if (overlap)
				fprintf(o, " %7s", num(b[7], 32, lr_get(e, "overlap"), 3));
			if (lr_num(lr_get(e, "backwards"), &x) && x > 0)
				fprintf(o, "  %.0f backwards", x);
			level_notes(o, e);
			fputs("\n", o);
		}
		fprintf(o, "  %-10s backwards: %s of %s ordered pairs across CPUs (largest %s ticks), %s on one CPU\n",
			"", num(b[0], 32, lr_get(c, "backwards"), -1), num(b[1], 32, lr_get(c, "ordered"), -1),
			num(b[2], 32, lr_get(c, "max_backward_ticks"), -1), num(b[3], 32, lr_get(c, "same_cpu_backwards"), -1));
	}
}

static void latency_row(FILE *o, const struct lr_node *l, const char *label, size_t cpu)
{
	const struct lr_node *bins = lr_at(lr_get(l, "bins"), cpu);
	char b[4][32], verdict[64];
	double g, at;
	fprintf(o, "  %5s", label);
	for (size_t k = 0; k < 7; k++)
		fprintf(o, " %9s", num(b[0], 32, lr_at(bins, k), -1));
	if (lr_num(lr_at(lr_get(l, "max_gap_ns"), cpu), &g))
		snprintf(b[1], 32, "%.1f", g / 1e3);
	else
		snprintf(b[1], 32, "-");
	fprintf(o, " %12s", b[1]);
	if (lr_num(lr_at(lr_get(l, "max_gap_at_ns"), cpu), &at))
		snprintf(b[2], 32, "%.3f", at / 1e6);
	else
		snprintf(b[2], 32, "-");
	fprintf(o, " %10s", b[2]);
	fprintf(o, " %5s  %s\n", num(b[3], 32, lr_at(lr_get(l, "smi_delta"), cpu), -1),
		shown_str(verdict, sizeof verdict, lr_at(lr_get(l, "verdict"), cpu), "-"));
}

static void latency(FILE *o, const struct smp_view *v)
{
	const struct lr_node *l = v->latency, *vd;
	char b[6][32];
	size_t n, rows = 0, failed = 0;
	uint64_t worst;
	double g;

	left_out(o, v, SMP_LATENCY, "latency");
	if (!l)
		return;
	if (lr_str(lr_get(l, "refused"))) {
		fputs("latency   refused: ", o);
		ts_puts(o, lr_str(lr_get(l, "refused")));
		fputs("\n", o);
		return;
	}
	vd = lr_get(l, "verdict");
	n = vd && vd->kind == LR_ARR ? vd->len : 0;
	fprintf(o, "latency   %s s on %s CPUs, gaps between TSC reads (limit %s ns): %s failed", num(b[0], 32, lr_get(l, "seconds"), -1),
		num(b[1], 32, lr_get(l, "cpus"), -1), num(b[2], 32, lr_get(l, "limit_ns"), -1),
		num(b[3], 32, lr_get(l, "failed"), -1));
	if (lr_uint(lr_get(l, "worst_cpu"), &worst) && lr_num(lr_at(lr_get(l, "max_gap_ns"), worst), &g))
		fprintf(o, ", worst CPU %s (%.1f us)", num(b[4], 32, lr_get(l, "worst_cpu"), -1), g / 1e3);
	fprintf(o, "; %s TSC steps back\n", num(b[5], 32, lr_get(l, "backwards"), -1));
	fprintf(o, "  %5s %9s %9s %9s %9s %9s %9s %9s %12s %10s %5s  %s\n", "cpu", "<=1us", "<=10us", "<=100us",
		"<=1ms", "<=10ms", "<=100ms", ">100ms", "max gap us", "at ms", "SMIs", "verdict");
	for (size_t c = 0; c < n; c++)
		failed += !strcmp(str_or(lr_at(vd, c), ""), "fail");
	for (size_t c = 0; c < n && rows < LATENCY_ROWS; c++) {
		if (n > LATENCY_ROWS && strcmp(str_or(lr_at(vd, c), ""), "fail"))
			continue; /* many CPUs: the failed ones */
		snprintf(b[0], 32, "%zu", c);
		latency_row(o, l, b[0], c);
		rows++;
	}
	if (n > rows)
		fprintf(o, "  (%zu more CPU%s not listed: %zu of them failed)\n", n - rows, n - rows == 1 ? "" : "s",
			failed > rows ? failed - rows : 0);
}

void show_cpus_text(FILE *o, const struct lrun *r)
{
	struct smp_view *v = calloc(1, sizeof *v);
	const struct lr_node *t = lrun_first(r, "tsc");
	double hz = 0;
	char b[64];

	if (!v)
		return;
	if (!smp_view_load(v, r)) {
		free(v);
		return;
	}
	if (!lr_num(lr_get(t, "hz"), &hz))
		hz = 0;
	fputs("\n", o);
	left_out(o, v, SMP_CPUS, "cpus");
	if (v->cpus && !smp_multi(v) && v->count == 1)
		fprintf(o, "cpus      1 CPU (%s)\n", shown_str(b, sizeof b, lr_get(v->cpus, "apic"), "APIC mode unknown"));
	else if (v->cpus)
		cpu_list(o, v);
	if (!smp_multi(v)) { /* one CPU, or no record says more: only what was left out */
		for (int k = SMP_TEAM; k < SMP_KINDS; k++)
			left_out(o, v, (enum smp_kind)k, smp_kind_name((enum smp_kind)k));
		free(v);
		return;
	}
	left_out(o, v, SMP_TEAM, "team");
	team(o, v);
	tsc_sync(o, v, hz);
	percpu(o, v);
	timers_on(o, v, r);
	contention(o, v);
	latency(o, v);
	free(v);
}
