/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/calibrate.h"
#include "probe/records_run.h"
#include "lib/fmt.h"
#include "lib/util.h"

struct tsc_choice tsc_calibrate(struct calibrator *cal, int n, const struct tsc_claims *claims,
				const struct probe_clock *pc, uint32_t window_ms,
				void (*say)(void *say_ctx, const char *line), void *say_ctx)
{
	struct tsc_choice best = { 0, -1, "none", NULL };
	char why[112];

	for (int k = 0; k < n; k++) {
		const struct counter *c = cal[k].c;
		cal[k].ok = false;
		if (!cal[k].s->healthy)
			continue;
		cal[k].ok = counter_rate(c, pc, c->nominal_hz * window_ms / 1000, &cal[k].rate, why, sizeof why);
		if (!cal[k].ok) {
			say(say_ctx, why);
			continue;
		}
		if (!best.reference || cal[k].rate.err_ppm < best.err_ppm)
			best = (struct tsc_choice){ (double)c->nominal_hz / cal[k].rate.ticks_per_cycle,
						    cal[k].rate.err_ppm, cal[k].source, &cal[k] };
	}
	/* Without a working counter, the CPU's own word is all there is; its
	 * error is unknown, and reported as such (null). */
	if (!best.hz) {
		uint64_t hz = claims->cpuid15_hz ? claims->cpuid15_hz
			    : claims->hypervisor_hz ? claims->hypervisor_hz : claims->cpuid16_hz;
		const char *src = claims->cpuid15_hz ? "cpuid15" : claims->hypervisor_hz ? "hypervisor" : "cpuid16";
		if (hz)
			best = (struct tsc_choice){ (double)hz, -1, src, NULL };
	}
	return best;
}

void record_tsc(struct log *l, const struct tsc_choice *t, const struct calibrator *cal, int n,
		const struct tsc_claims *claims, uint32_t window_ms, bool invariant)
{
	static const double unknown = __builtin_nan("");
	struct tsc_facts f = {
		.hz = t->hz > 0 ? t->hz : unknown,
		.source = t->source,
		.error_ppm = t->err_ppm >= 0 && t->hz > 0 ? t->err_ppm : unknown,
		.interval_s = unknown,
		.window_ms = window_ms,
		.invariant = invariant,
	};

	if (claims->cpuid15_hz)
		tsc_facts_source(&f, "cpuid15", (double)claims->cpuid15_hz);
	if (claims->cpuid16_hz)
		tsc_facts_source(&f, "cpuid16", (double)claims->cpuid16_hz);
	if (claims->hypervisor_hz)
		tsc_facts_source(&f, "hypervisor", (double)claims->hypervisor_hz);
	for (int k = 0; k < n; k++)
		if (cal[k].ok)
			tsc_facts_source(&f, cal[k].source, (double)cal[k].c->nominal_hz / cal[k].rate.ticks_per_cycle);
	record_tsc_facts(l, &f);
}

void frequency_check(const struct counter *c, struct counter_state *s, const struct calibrator *cal,
		     const struct tsc_choice *tsc, struct freq_check *f)
{
	tp_memset(f, 0, sizeof *f);
	/* A bare port access has no calibrator; a register that is no counter
	 * but ticks (the RTC's seconds) has its rate from its edges. */
	if (c->desc->tsc_based || !cal || !cal->ok || tsc->hz <= 0)
		return;
	f->valid = true;
	f->nominal_hz = c->nominal_hz;
	f->measured_hz = cal->rate.ticks_per_cycle * tsc->hz;
	/* No nominal rate (an APIC timer whose crystal CPUID does not name):
	 * the rate is measured, and nothing is off by construction. */
	f->ppm = c->nominal_hz ? (f->measured_hz / (double)c->nominal_hz - 1.0) * 1e6 : __builtin_nan("");
	f->reference = cal == tsc->reference;
	/* The two errors are independent, except for the reference itself,
	 * whose ppm is 0 by construction and whose error is its own. */
	f->err_ppm = f->reference ? cal->rate.err_ppm
		   : __builtin_sqrt(cal->rate.err_ppm * cal->rate.err_ppm +
				    (tsc->err_ppm > 0 ? tsc->err_ppm * tsc->err_ppm : 0));
	if (f->ppm > PLAUSIBLE_PPM || f->ppm < -PLAUSIBLE_PPM) {
		s->healthy = false;
		tp_snprintf(s->reason, sizeof s->reason, "%s counts at %.0f Hz, nominal %llu Hz (%.0f ppm)",
			    c->desc->name, f->measured_hz, (unsigned long long)c->nominal_hz, f->ppm);
	}
}
