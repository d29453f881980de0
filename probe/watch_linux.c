/* SPDX-License-Identifier: BSD-2-Clause */
/* Linux's clocksource watchdog, era by era, as a rule on one 0.5 s window
 * (probe/watch.h), and the watch's conclusion in words.
 *
 * The rules, from kernel/time/clocksource.c of each era:
 *  - 4.19 to 5.13: the TSC is marked unstable when the TSC and the
 *    watchdog clock disagree by more than WATCHDOG_THRESHOLD, NSEC_PER_SEC
 *    >> 4 (62.5 ms), over an interval;
 *  - 5.14 to 6.0: by more than the two clocks' uncertainty margins, each
 *    WATCHDOG_MAX_SKEW (100 us) by default: 200 us; a watchdog readout (its
 *    read on either side of the TSC's) longer than WATCHDOG_MAX_SKEW is
 *    retried rather than judged;
 *  - 6.1 until the 2026 rewrite: WATCHDOG_MAX_SKEW became 125 us per second
 *    of interval, 62.5 us at 0.5 s, so the margins add to 125 us;
 *  - the 2026 rewrite ("clocksource: Rewrite watchdog code completely"):
 *    by more than the watchdog's interval >> 11 (about 488 ppm) plus its
 *    readout time, when both clocks are marked calibrated (the TSC and the
 *    HPET or PM timer are); a readout over 50 us (without NUMA distances
 *    saying otherwise) is retried, then reported as timed out. */
#include "probe/watch.h"
#include "lib/fmt.h"
#include "lib/util.h"

static const struct {
	const char *name, *rule;
	double skew_ns;     /* fixed bound; 0: from the interval */
	double readout_ns;  /* a readout over this is not judged */
} eras[WATCH_ERAS] = {
	[WATCH_LINUX_4_19] = { "4.19-5.13", "skew > 62.5 ms per interval (WATCHDOG_THRESHOLD)", 62.5e6, 0 },
	[WATCH_LINUX_5_14] = { "5.14-6.0", "skew > 200 us (2 x WATCHDOG_MAX_SKEW of 100 us); readout > 100 us retried",
			       200e3, 100e3 },
	[WATCH_LINUX_6_1] = { "6.1-2025", "skew > 125 us (2 x WATCHDOG_MAX_SKEW of 62.5 us); readout > 62.5 us retried",
			      125e3, 62.5e3 },
	[WATCH_LINUX_2026] = { "2026", "skew > interval/2048 (488 ppm) + readout; readout > 50 us timed out", 0, 50e3 },
};

const char *watch_era_name(enum watch_era e) { return e < WATCH_ERAS ? eras[e].name : "?"; }
const char *watch_era_rule(enum watch_era e) { return e < WATCH_ERAS ? eras[e].rule : "?"; }

int watch_era_judge(enum watch_era e, double skew_ns, double ref_ns, double readout_ns)
{
	double bound;

	if (e >= WATCH_ERAS)
		return 0;
	if (eras[e].readout_ns > 0 && readout_ns > eras[e].readout_ns)
		return 2;
	bound = eras[e].skew_ns > 0 ? eras[e].skew_ns : (double)((uint64_t)ref_ns >> 11) + readout_ns;
	return skew_ns > bound ? 1 : 0;
}

/* ---- the conclusion in words ---------------------------------------------------------- */

static const char *label(const char *name)
{
	static const struct {
		const char *name, *label;
	} known[] = {
		{ "tsc", "the TSC" }, { "hpet", "the HPET" }, { "pm_timer", "the PM timer" }, { "pit", "the PIT" },
		{ "monotonic_raw", "CLOCK_MONOTONIC_RAW" },
	};
	for (unsigned i = 0; i < sizeof known / sizeof known[0]; i++)
		if (tp_streq(known[i].name, name))
			return known[i].label;
	return name;
}

/* "A, B and C" of every clock but skip, into b. */
static int others(const struct watch *w, int skip, char *b, unsigned cap)
{
	int k = 0;
	unsigned left = 0, n = 0;

	for (unsigned i = 0; i < w->n; i++)
		left += (int)i != skip;
	for (unsigned i = 0; i < w->n && k < (int)cap; i++) {
		if ((int)i == skip)
			continue;
		n++;
		k += tp_snprintf(b + k, cap - (unsigned)k, "%s%s", n == 1 ? "" : n == left ? " and " : ", ",
				 label(w->c[i].name));
	}
	return k;
}

void watch_attribution_text(const struct watch *w, const struct watch_verdict *v, char *buf, unsigned cap)
{
	char rest[160];
	double off;

	if (!w->started || w->n < 2) {
		tp_snprintf(buf, cap, "the watch saw fewer than two clocks: nothing to weigh");
		return;
	}
	if (v->odd >= 1) {
		off = v->odd_ppm;
		others(w, v->odd, rest, sizeof rest);
		tp_snprintf(buf, cap, "%s runs %.1f ppm %s against %s, which agree within %.1f ppm", label(w->c[v->odd].name),
			    off < 0 ? -off : off, off < 0 ? "slow" : "fast", rest, v->rest_spread_ppm);
		return;
	}
	if (!v->attributable) {
		double spread = 0;
		for (unsigned i = 1; i < w->n; i++)
			if (v->rate_ppm[i] == v->rate_ppm[i] && (v->rate_ppm[i] < 0 ? -v->rate_ppm[i] : v->rate_ppm[i]) > spread)
				spread = v->rate_ppm[i] < 0 ? -v->rate_ppm[i] : v->rate_ppm[i];
		others(w, -1, rest, sizeof rest);
		tp_snprintf(buf, cap, "%s: %s; %s", rest,
			    w->n < 3 ? "two clocks only, so which one is off cannot be told"
				     : "two counters and the TSC: a counter that is off cannot be told from the other",
			    spread > WATCH_TOLERANCE_PPM ? "they disagree beyond a crystal's tolerance" : "they agree");
		return;
	}
	others(w, -1, rest, sizeof rest);
	tp_snprintf(buf, cap, "%s agree: no clock is off by more than its uncertainty or %.0f ppm", rest,
		    WATCH_TOLERANCE_PPM);
}
