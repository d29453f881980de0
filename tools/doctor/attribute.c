/* SPDX-License-Identifier: BSD-2-Clause */
/* Which clock is wrong, from a bare-metal log's calibration (attribute.h).
 * The probe times the TSC against each reference over window_ms: if a
 * reference runs slow by x, the TSC seems fast by x against it.  A clock is
 * named when the other clocks agree with each other within their
 * uncertainties and it disagrees with each of them beyond theirs and its
 * own; with two clocks, a disagreement cannot be laid at either's door.
 * A clock's uncertainty is the calibration's error_ppm plus one tick at
 * each end of the window: the HPET ticks at 10 MHz at the slowest (its
 * specification's bound), the PM timer at 3,579,545 Hz, the PIT at
 * 1,193,182 Hz; CPUID leaf 0x15 states a rate, so it counts none. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tools/doctor/attribute.h"
#include "tools/lib/logschema.h"

struct source_kind {
	const char *key;     /* in the `tsc` record's `sources` */
	const char *name;    /* Linux's name */
	const char *label;
	double tick_ns;      /* 0: a stated rate */
};

static const struct source_kind kinds[] = {
	{ "hpet", "hpet", "the HPET", 100.0 },
	{ "pm_timer", "acpi_pm", "the PM timer", 1e9 / 3579545.0 },
	{ "pit", "pit", "the PIT", 1e9 / 1193182.0 },
	{ "cpuid15", "cpuid15", "CPUID leaf 0x15's rate", 0.0 },
};

static double ppm_between(double a, double b)
{
	return (a / b - 1.0) * 1e6;
}

static bool agree(const struct attr_clock *x, const struct attr_clock *y)
{
	return fabs(ppm_between(x->tsc_hz, y->tsc_hz)) <= x->uncertainty_ppm + y->uncertainty_ppm;
}

static void read_clocks(const struct lrun *r, struct clock_attribution *a, double *window_ms)
{
	struct ld_tsc t;
	double err;

	ld_decode_tsc(lrun_first(r, "tsc"), &t);
	*window_ms = 0;
	lr_num(t.window_ms.node, window_ms);
	err = t.error_ppm.state == LD_SET ? t.error_ppm.v : 0;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && a->nclocks < ATTR_CLOCKS; i++) {
		struct attr_clock *c = &a->clocks[a->nclocks];
		struct ld_num source = ld_tsc_sources_get(&t, kinds[i].key);
		double hz = source.state == LD_SET ? source.v : 0;
		if (!(hz > 0) || (kinds[i].tick_ns > 0 && !(*window_ms > 0)))
			continue;
		snprintf(c->name, sizeof c->name, "%s", kinds[i].name);
		snprintf(c->label, sizeof c->label, "%s", kinds[i].label);
		c->tsc_hz = hz;
		c->uncertainty_ppm = kinds[i].tick_ns > 0 ? err + 2.0 * kinds[i].tick_ns / (*window_ms * 1e6) * 1e6 : 0;
		a->nclocks++;
	}
}

/* Whether all clocks but `skip` agree pairwise; *spread, the widest gap. */
static bool others_agree(const struct clock_attribution *a, int skip, double *spread)
{
	*spread = 0;
	for (int i = 0; i < a->nclocks; i++) {
		for (int j = i + 1; j < a->nclocks; j++) {
			if (i == skip || j == skip)
				continue;
			if (!agree(&a->clocks[i], &a->clocks[j]))
				return false;
			if (fabs(ppm_between(a->clocks[i].tsc_hz, a->clocks[j].tsc_hz)) > *spread)
				*spread = fabs(ppm_between(a->clocks[i].tsc_hz, a->clocks[j].tsc_hz));
		}
	}
	return true;
}

static bool disagrees_with_all(const struct clock_attribution *a, int k)
{
	for (int i = 0; i < a->nclocks; i++)
		if (i != k && agree(&a->clocks[k], &a->clocks[i]))
			return false;
	return true;
}

/* "the TSC, the PM timer and the PIT": the TSC and every timed clock but `skip`. */
static void list_agreeing(struct clock_attribution *a, int skip)
{
	int pick[ATTR_CLOCKS];
	int n = 0;
	size_t len = (size_t)snprintf(a->agree, sizeof a->agree, "the TSC");

	for (int i = 0; i < a->nclocks; i++)
		if (i != skip && strcmp(a->clocks[i].name, "cpuid15"))
			pick[n++] = i;
	for (int i = 0; i < n && len < sizeof a->agree; i++)
		len += (size_t)snprintf(a->agree + len, sizeof a->agree - len, "%s%s", i + 1 < n ? ", " : " and ",
					a->clocks[pick[i]].label);
}

/* The odd clock's own rate against the mean of the others: it timed the TSC
 * at f_k where the others say f, so it runs at f / f_k of its nominal rate. */
static void name_clock(struct clock_attribution *a, int k, double spread)
{
	double sum = 0;
	double unc = 0;
	int n = 0;

	for (int i = 0; i < a->nclocks; i++) {
		if (i == k)
			continue;
		sum += a->clocks[i].tsc_hz;
		unc = fmax(unc, a->clocks[i].uncertainty_ppm);
		n++;
	}
	snprintf(a->clock, sizeof a->clock, "%s", a->clocks[k].name);
	snprintf(a->label, sizeof a->label, "%s", a->clocks[k].label);
	a->ppm = ppm_between(sum / n, a->clocks[k].tsc_hz);
	a->uncertainty_ppm = a->clocks[k].uncertainty_ppm + unc;
	a->agree_ppm = spread;
	list_agreeing(a, k);
}

void attribution_from_bare(const struct lrun *r, struct clock_attribution *a)
{
	double window_ms;
	double spread;

	memset(a, 0, sizeof *a);
	read_clocks(r, a, &window_ms);
	snprintf(a->source, sizeof a->source, "the bare-metal log's calibration, the TSC timed against each "
		 "clock over %.0f ms", window_ms);
	if (a->nclocks < 2) {
		snprintf(a->why_unknown, sizeof a->why_unknown, "the bare-metal log timed the TSC against %s: "
			 "nothing to weigh it against", a->nclocks ? a->clocks[0].label : "no other clock");
		return;
	}
	if (others_agree(a, -1, &spread)) {
		a->known = true;
		a->agree_ppm = spread;
		list_agreeing(a, -1);
		return;
	}
	for (int k = 0; k < a->nclocks && a->nclocks >= 3; k++) {
		if (disagrees_with_all(a, k) && others_agree(a, k, &spread)) {
			a->known = true;
			name_clock(a, k, spread);
			return;
		}
	}
	snprintf(a->why_unknown, sizeof a->why_unknown, a->nclocks < 3 ? "the two clocks the TSC was timed against "
		 "disagree, and with two no one of them can be named" : "the clocks disagree in more than one "
		 "place: no single one can be named");
}

static void thousands(char *out, size_t cap, double v)
{
	long long x = llround(fabs(v));

	if (x >= 1000)
		snprintf(out, cap, "%lld,%03lld", x / 1000, x % 1000);
	else
		snprintf(out, cap, "%lld", x);
}

void attribution_sentence(const struct clock_attribution *a, char *out, size_t cap)
{
	char big[32];
	/* A watch's uncertainty is a small fraction of a ppm; a calibration's, tens. */
	int u_dec = a->uncertainty_ppm < 1 ? 3 : 0;

	if (!a->known) {
		snprintf(out, cap, "which clock is wrong is not known: %s", a->why_unknown);
		return;
	}
	if (!a->clock[0]) {
		snprintf(out, cap, "%s agree within %.1f ppm, by %s", a->agree, a->agree_ppm, a->source);
		return;
	}
	thousands(big, sizeof big, a->ppm);
	if (!strcmp(a->clock, "cpuid15"))
		snprintf(out, cap, "CPUID leaf 0x15 states a TSC rate %s ppm %s than %s measure, which agree within "
			 "%.1f ppm (uncertainty %.*f ppm), by %s", big, a->ppm < 0 ? "higher" : "lower", a->agree,
			 a->agree_ppm, u_dec, a->uncertainty_ppm, a->source);
	else
		snprintf(out, cap, "%s runs %s ppm %s against %s, which agree within %.1f ppm (uncertainty %.*f ppm), "
			 "by %s", a->label, big, a->ppm > 0 ? "fast" : "slow", a->agree, a->agree_ppm, u_dec,
			 a->uncertainty_ppm, a->source);
}
