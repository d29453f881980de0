/* SPDX-License-Identifier: BSD-2-Clause */
/* Bare-metal verdicts (verdict.h).  The rules are the kernels' own:
 *   - Linux: arch/x86/kernel/tsc_sync.c marks the TSC unstable on any warp
 *     between the boot CPU and another CPU; the clocksource watchdog marks it
 *     unstable when it and its reference (hpet, else acpi_pm) disagree by more
 *     than 2 × 125 µs over 0.5 s (500 ppm); the reference is what the kernel
 *     refined its TSC rate against, unless CPUID leaf 0x15 gave the rate.
 *   - FreeBSD: the timecounter of highest quality: TSC 1000 (called TSC-low
 *     on more than one CPU, where it is read shifted), -100 when it is not
 *     invariant or not synchronised; HPET 950; ACPI-fast 900; i8254 0. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "tools/lib/json_out.h"
#include "tools/lib/verdict.h"
#include "tools/lib/textsafe.h"
#include "tools/lib/logschema.h"

static const char *const verdict_names[] = { "unknown", "reliable", "unreliable" };

const char *tsc_verdict_name(enum tsc_verdict v)
{
	return v <= TV_UNRELIABLE ? verdict_names[v] : "?";
}

const char *verdict_counter_of(const char *cs)
{
	if (!cs)
		return NULL;
	if (!strcmp(cs, "tsc") || !strcmp(cs, "tsc-early"))
		return "tsc";
	if (!strcmp(cs, "hpet"))
		return "hpet";
	if (!strcmp(cs, "acpi_pm"))
		return "acpi-fast";
	return NULL;
}

static void evidence(struct bare_verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void evidence(struct bare_verdict *v, const char *fmt, ...)
{
	va_list ap;

	if (v->nevidence >= VERDICT_EVIDENCE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(v->evidence[v->nevidence++], sizeof v->evidence[0], fmt, ap);
	va_end(ap);
}

static bool num(const struct lr_node *n, double *out)
{
	return n && lr_num(n, out);
}

static void read_invariant(const struct lrun *r, struct bare_verdict *v)
{
	struct ld_machine m;
	struct ld_tsc t;
	struct ld_bool inv;

	ld_decode_machine(lrun_first(r, "machine"), &m);
	ld_decode_tsc(lrun_first(r, "tsc"), &t);
	const char *hv = ld_str_or(m.hypervisor, NULL);
	inv = m.invariant_tsc.state == LD_SET ? m.invariant_tsc : t.invariant;
	v->invariant_known = inv.state == LD_SET;
	v->invariant = v->invariant_known && inv.v;
	snprintf(v->hypervisor, sizeof v->hypervisor, "%s", hv ? hv : "");
	if (v->invariant_known && hv)
		evidence(v, "CPUID.80000007H:EDX[8] (invariant TSC): %s (under the hypervisor %.*s).",
			 v->invariant ? "set" : "clear", (int)strcspn(hv, " "), hv);
	else if (v->invariant_known)
		evidence(v, "CPUID.80000007H:EDX[8] (invariant TSC): %s.", v->invariant ? "set" : "clear");
}

/* The worst pair: a warp first, else the largest |offset| beyond its uncertainty. */
static void worst_pair(const struct ld_list *pairs, struct bare_verdict *v)
{
	double worst = -INFINITY;

	for (const struct lr_node *e = pairs->node ? pairs->node->child : NULL; e; e = e->next) {
		struct ld_tsc_pair p;
		double off = 0, unc = 0, w = 0, cpu = -1, ref = 0, score;
		ld_decode_tsc_pair(e, &p);
		num(p.cpu.node, &cpu);
		num(p.ref.node, &ref);
		num(p.warps.node, &w);
		if (!num(p.offset_cycles.node, &off) || !num(p.uncertainty_cycles.node, &unc))
			continue;
		score = (w > 0 ? 1e30 : 0) + fabs(off) - unc;
		if (score > worst) {
			worst = score;
			v->bad_cpu = (int)cpu;
			v->bad_ref = (int)ref;
			v->bad_offset_cycles = off;
			v->bad_uncertainty_cycles = unc;
		}
	}
}

static void read_sync(const struct lrun *r, struct bare_verdict *v)
{
	const struct lr_node *node = lrun_first(r, "tsc_sync"), *c = lrun_first(r, "cpus");
	struct ld_tsc_sync s;
	struct ld_cpus cpu_list;
	double started = 1, cpus = 0, warps = 0;

	ld_decode_tsc_sync(node, &s);
	ld_decode_cpus(c, &cpu_list);
	num(cpu_list.started.node, &started); /* any number, as written */
	v->cpus = (int)started;
	v->sync = -1;
	if (!node) {
		if (c && started <= 1) {
			v->sync = 1;
			v->cpus = 1;
			evidence(v, "One CPU ran: there is no other TSC to be out of step with.");
		} else {
			evidence(v, "The log has no tsc_sync record: the TSCs were not compared.");
		}
		return;
	}
	num(s.cpus.node, &cpus);
	num(s.warps.node, &warps);
	v->cpus = (int)cpus;
	v->warps = (long)warps;
	v->linux_marks_at_boot = ld_true(s.linux_would_mark_unstable);
	v->sync = s.synchronized.state == LD_SET ? s.synchronized.v : -1;
	worst_pair(&s.pairs, v);
	v->bad_offset_ns = v->tsc_hz > 0 ? v->bad_offset_cycles * 1e9 / v->tsc_hz : NAN;
	if (v->sync == 1)
		evidence(v,
			 "All %d CPUs' TSCs synchronised (%s mode): every pair within its measured "
			 "uncertainty, 0 warps; the largest offset %.0f ± %.0f cycles (CPU %d).",
			 v->cpus, ld_str_or(s.mode, "?"), v->bad_offset_cycles, v->bad_uncertainty_cycles, v->bad_cpu);
	else if (v->sync == 0)
		evidence(v, "CPU %d's TSC is %.0f cycles (%.1f ns) off CPU %d's, uncertainty %.0f cycles; "
			 "%ld warps%s.", v->bad_cpu, v->bad_offset_cycles, v->bad_offset_ns, v->bad_ref,
			 v->bad_uncertainty_cycles, v->warps,
			 v->linux_marks_at_boot ? ", with CPU 0: Linux's boot check (tsc_sync.c) fails" : "");
	else
		evidence(v, "The TSC sync measurement is incomplete (a pair not measured).");
}

/* The rate Linux would run the TSC at, and how far the watchdog's
 * reference would see it drift. */
static void read_rate(const struct lrun *r, struct bare_verdict *v)
{
	struct ld_tsc t;
	double hpet = 0, pm = 0, c15 = 0, ref, err = 0;

	ld_decode_tsc(lrun_first(r, "tsc"), &t);
	bool has_hpet = num(ld_tsc_sources_get(&t, "hpet").node, &hpet) && hpet > 0;
	bool has_pm = num(ld_tsc_sources_get(&t, "pm_timer").node, &pm) && pm > 0;
	num(t.hz.node, &v->tsc_hz);
	num(t.error_ppm.node, &err);
	v->rate_err_ppm = err;
	if (!has_hpet && !has_pm) {
		evidence(v, "No HPET or PM timer calibrated the TSC: its rate against the watchdog's "
			    "reference is not known.");
		return;
	}
	v->watchdog_ref = has_hpet ? "hpet" : "acpi_pm";
	ref = has_hpet ? hpet : pm;
	v->linux_hz = num(ld_tsc_sources_get(&t, "cpuid15").node, &c15) && c15 > 0 ? c15 : ref;
	v->rate_ppm = (v->linux_hz / ref - 1.0) * 1e6;
	v->rate_known = true;
	evidence(v, "The TSC runs at %.0f Hz against the %s (%.0f Hz %s): %+.1f ppm as the watchdog "
		    "would see it, limit ±%.0f ppm%s.", ref, has_hpet ? "HPET" : "PM timer", v->linux_hz,
		 c15 > 0 ? "from CPUID leaf 0x15, which Linux trusts" : "as Linux would calibrate it",
		 v->rate_ppm, VERDICT_WATCHDOG_PPM, "");
	if (has_hpet && has_pm)
		evidence(v, "Against the PM timer the TSC runs at %.0f Hz (%+.1f ppm from the HPET's figure).",
			 pm, (hpet / pm - 1.0) * 1e6);
}

static void read_costs(const struct lrun *r, struct bare_verdict *v)
{
	static const char *const names[4] = { "tsc", "hpet", "acpi-fast", "i8254" };

	for (int i = 0; i < 4; i++) {
		const struct lr_node *node = lrun_timer(r, names[i]);
		struct verdict_cost *c = &v->cost[i];
		struct ld_timer t;
		ld_decode_timer(node, &t);
		c->name = names[i];
		c->measured = node && num(t.cost_ns.p50.node, &c->p50_ns);
		c->healthy = c->measured && !(t.healthy.node && !ld_true(t.healthy));
	}
}

/* Every reason the TSC fails, most specific first: a CPU and its offset,
 * the rate, then the missing invariance. */
static void decide_tsc(struct bare_verdict *v)
{
	size_t n = 0, cap = sizeof v->reason;
	bool fast = v->rate_known && fabs(v->rate_ppm) > VERDICT_WATCHDOG_PPM + v->rate_err_ppm;

	if (v->sync == 0)
		n += (size_t)snprintf(v->reason + n, cap - n, "CPU %d's TSC is %.0f cycles (%.1f ns) off CPU %d's "
				      "(uncertainty %.0f cycles, %ld warps)", v->bad_cpu, v->bad_offset_cycles,
				      v->bad_offset_ns, v->bad_ref, v->bad_uncertainty_cycles, v->warps);
	if (fast && n < cap)
		n += (size_t)snprintf(v->reason + n, cap - n, "%sthe TSC's rate is %+.1f ppm off the %s's, beyond the "
				      "watchdog's %.0f ppm", n ? "; " : "", v->rate_ppm, v->watchdog_ref, VERDICT_WATCHDOG_PPM);
	if (v->invariant_known && !v->invariant && n < cap)
		n += (size_t)snprintf(v->reason + n, cap - n, "%sthe CPU does not say its TSC is invariant (it may stop "
				      "in deep C-states or change rate with the clock speed)", n ? "; " : "");
	if (n) {
		v->tsc = TV_UNRELIABLE;
	} else if (!v->invariant_known || v->sync < 0 || !v->rate_known) {
		v->tsc = TV_UNKNOWN;
		snprintf(v->reason, sizeof v->reason, "the log lacks %s", !v->invariant_known ? "the invariant-TSC flag"
			 : v->sync < 0 ? "a complete TSC sync measurement" : "the TSC's rate against the HPET or PM timer");
	} else {
		v->tsc = TV_RELIABLE;
		snprintf(v->reason, sizeof v->reason, "invariant, synchronised on all %d CPUs with 0 warps, "
			 "and %+.1f ppm against the %s", v->cpus, v->rate_ppm, v->watchdog_ref);
	}
}

static const struct verdict_cost *cost_of(const struct bare_verdict *v, const char *name)
{
	for (int i = 0; i < 4; i++)
		if (name && !strcmp(v->cost[i].name, name))
			return &v->cost[i];
	return NULL;
}

static void decide_linux(struct bare_verdict *v)
{
	const char *fallback = cost_of(v, "hpet")->healthy ? "hpet" : "acpi_pm";

	snprintf(v->linux_cs, sizeof v->linux_cs, "%s", fallback);
	if (v->linux_marks_at_boot)
		snprintf(v->linux_why, sizeof v->linux_why, "tsc_sync.c finds CPU %d's TSC warped against CPU 0's "
			 "at boot and marks it unstable (check_tsc_sync_source failed)", v->bad_cpu);
	else if (v->rate_known && fabs(v->rate_ppm) > VERDICT_WATCHDOG_PPM + v->rate_err_ppm)
		snprintf(v->linux_why, sizeof v->linux_why, "the watchdog sees the TSC %+.0f ppm off %s and marks "
			 "it unstable within seconds", v->rate_ppm, v->watchdog_ref);
	else if (v->invariant_known && !v->invariant)
		snprintf(v->linux_why, sizeof v->linux_why, "without an invariant TSC Linux keeps tsc only where "
			 "the CPU model implies a constant rate, and marks it unstable when a C-state stops it "
			 "(\"TSC halts in idle\"); then %s", fallback);
	else if (v->sync == 0)
		snprintf(v->linux_why, sizeof v->linux_why, "the boot check with CPU 0 passes, so Linux keeps tsc, "
			 "though CPU %d is out of step (between two other CPUs, or without a warp): time read there "
			 "is off by %.0f ns", v->bad_cpu, v->bad_offset_ns);
	else
		snprintf(v->linux_why, sizeof v->linux_why, "no warp with CPU 0 and within the watchdog's "
			 "%.0f ppm: Linux keeps tsc", VERDICT_WATCHDOG_PPM);
	if (!v->linux_marks_at_boot && !(v->rate_known && fabs(v->rate_ppm) > VERDICT_WATCHDOG_PPM + v->rate_err_ppm) &&
	    !(v->invariant_known && !v->invariant))
		snprintf(v->linux_cs, sizeof v->linux_cs, "tsc");
}

static void decide_freebsd(struct bare_verdict *v)
{
	int tsc_q = v->tsc == TV_UNRELIABLE ? -100 : 1000;
	const char *tsc_name = v->cpus > 1 ? "TSC-low" : "TSC";

	if (cost_of(v, "tsc")->healthy && tsc_q > 0) {
		snprintf(v->freebsd_tc, sizeof v->freebsd_tc, "%s", tsc_name);
		snprintf(v->freebsd_why, sizeof v->freebsd_why, "quality 1000, above HPET 950 and ACPI-fast 900%s",
			 v->cpus > 1 ? " (TSC-low: read shifted, as on every machine with more than one CPU)" : "");
		return;
	}
	if (cost_of(v, "hpet")->healthy)
		snprintf(v->freebsd_tc, sizeof v->freebsd_tc, "HPET");
	else if (cost_of(v, "acpi-fast")->healthy)
		snprintf(v->freebsd_tc, sizeof v->freebsd_tc, "ACPI-fast");
	else
		snprintf(v->freebsd_tc, sizeof v->freebsd_tc, "i8254");
	snprintf(v->freebsd_why, sizeof v->freebsd_why, "the TSC's quality is -100 (%s), so the best of "
		 "HPET 950, ACPI-fast 900, i8254 0 that is here",
		 v->invariant_known && !v->invariant ? "not invariant" : "not synchronised");
}

static void decide_cheapest(struct bare_verdict *v)
{
	const struct verdict_cost *best = NULL;
	size_t len;

	for (int i = 0; i < 4; i++) {
		const struct verdict_cost *c = &v->cost[i];
		if (!c->healthy || (i == 0 && v->tsc == TV_UNRELIABLE))
			continue;
		if (!best || c->p50_ns < best->p50_ns)
			best = c;
	}
	if (!best) {
		snprintf(v->cheapest_why, sizeof v->cheapest_why, "no correct counter was measured");
		return;
	}
	snprintf(v->cheapest, sizeof v->cheapest, "%s", best->name);
	len = (size_t)snprintf(v->cheapest_why, sizeof v->cheapest_why, "%s, %.1f ns a read", best->name, best->p50_ns);
	for (int i = 0; i < 4 && len < sizeof v->cheapest_why; i++) {
		const struct verdict_cost *c = &v->cost[i];
		if (c == best || !c->measured)
			continue;
		len += (size_t)snprintf(v->cheapest_why + len, sizeof v->cheapest_why - len, "; %s %.1f ns (%.1f×)%s",
					c->name, c->p50_ns, best->p50_ns > 0 ? c->p50_ns / best->p50_ns : 0,
					!c->healthy ? " unhealthy" : i == 0 && v->tsc == TV_UNRELIABLE ? " but unreliable" : "");
	}
}

void bare_verdict(const struct lrun *r, struct bare_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->bad_cpu = v->bad_ref = -1;
	read_invariant(r, v);
	read_rate(r, v);
	read_sync(r, v);
	read_costs(r, v);
	decide_tsc(v);
	decide_linux(v);
	decide_freebsd(v);
	decide_cheapest(v);
}

/* One line of the verdicts: the indent, a label, then text that may quote the
 * log (a hypervisor's name, a counter's), escaped. */
static void verdict_line(FILE *o, const char *in, const char *label, const char *text, const char *end)
{
	fputs(in, o);
	fputs(label, o);
	ts_puts(o, text);
	fputs(end, o);
}

void bare_verdict_print(FILE *o, const struct bare_verdict *v, const char *in)
{
	const struct verdict_cost *h = cost_of(v, "hpet"), *a = cost_of(v, "acpi-fast");
	char label[64];

	snprintf(label, sizeof label, "TSC: %s: ", tsc_verdict_name(v->tsc));
	verdict_line(o, in, label, v->reason, ".\n");
	verdict_line(o, in, "Linux would use ", v->linux_cs, ": ");
	verdict_line(o, "", "", v->linux_why, ".\n");
	verdict_line(o, in, "FreeBSD would use ", v->freebsd_tc, ": ");
	verdict_line(o, "", "", v->freebsd_why, ".\n");
	if (v->cheapest[0])
		verdict_line(o, in, "Cheapest correct counter: ", v->cheapest_why, ".\n");
	else
		verdict_line(o, in, "Cheapest correct counter: none (", v->cheapest_why, ").\n");
	if (h->healthy && a->healthy)
		fprintf(o, "%sACPI-fast or HPET: %s is %.2f× cheaper here (%.1f ns against %.1f ns).\n", in,
			h->p50_ns <= a->p50_ns ? "HPET" : "ACPI-fast",
			h->p50_ns <= a->p50_ns ? a->p50_ns / h->p50_ns : h->p50_ns / a->p50_ns,
			h->p50_ns <= a->p50_ns ? h->p50_ns : a->p50_ns, h->p50_ns <= a->p50_ns ? a->p50_ns : h->p50_ns);
	for (int i = 0; i < v->nevidence; i++)
		verdict_line(o, in, "  - ", v->evidence[i], "\n");
}

void bare_verdict_json(FILE *o, const struct bare_verdict *v)
{
	fputs("{\"tsc_verdict\":", o);
	json_out_str(o, tsc_verdict_name(v->tsc));
	fputs(",\"reason\":", o);
	json_out_str(o, v->reason);
	fputs(",\"linux\":{\"clocksource\":", o);
	json_out_str(o, v->linux_cs);
	fputs(",\"why\":", o);
	json_out_str(o, v->linux_why);
	fputs("},\"freebsd\":{\"timecounter\":", o);
	json_out_str(o, v->freebsd_tc);
	fputs(",\"why\":", o);
	json_out_str(o, v->freebsd_why);
	fputs("},\"cheapest\":{\"counter\":", o);
	v->cheapest[0] ? json_out_str(o, v->cheapest) : (void)fputs("null", o);
	fputs(",\"why\":", o);
	json_out_str(o, v->cheapest_why);
	fputs("},\"evidence\":[", o);
	for (int i = 0; i < v->nevidence; i++) {
		fputs(i ? "," : "", o);
		json_out_str(o, v->evidence[i]);
	}
	fputs("]}", o);
}
