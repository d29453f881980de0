/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/calibrate.h"
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
	struct json *j = log_begin(l, "tsc");

	if (t->hz > 0)
		json_fixed(j, "hz", t->hz, 0);
	else
		json_null(j, "hz");
	json_str(j, "source", t->source);
	json_object_begin(j, "sources");
	if (claims->cpuid15_hz)
		json_u64(j, "cpuid15", claims->cpuid15_hz);
	if (claims->cpuid16_hz)
		json_u64(j, "cpuid16", claims->cpuid16_hz);
	if (claims->hypervisor_hz)
		json_u64(j, "hypervisor", claims->hypervisor_hz);
	for (int k = 0; k < n; k++)
		if (cal[k].ok)
			json_fixed(j, cal[k].source, (double)cal[k].c->nominal_hz / cal[k].rate.ticks_per_cycle, 0);
	json_object_end(j);
	if (t->err_ppm >= 0 && t->hz > 0)
		json_fixed(j, "error_ppm", t->err_ppm, 2);
	else
		json_null(j, "error_ppm");
	json_u64(j, "window_ms", window_ms);
	json_bool(j, "invariant", invariant);
	log_end(l);
}

void frequency_check(const struct counter *c, struct counter_state *s, const struct calibrator *cal,
		     const struct tsc_choice *tsc, struct freq_check *f)
{
	tp_memset(f, 0, sizeof *f);
	/* A bare port access has no calibrator; a register that is no counter
	 * but ticks (the RTC's seconds) has its rate from its edges. */
	if (c->tsc_based || !cal || !cal->ok || tsc->hz <= 0)
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
			    c->name, f->measured_hz, (unsigned long long)c->nominal_hz, f->ppm);
	}
}
