/* SPDX-License-Identifier: BSD-2-Clause */
/* Which clock is wrong, from a watch (attribute.h, probe/watch.h): the
 * watch weighed every clock against the others every 0.5 s for minutes to
 * hours, so its verdict replaces the calibration's 20 to 100 ms. */
#include <stdio.h>
#include <string.h>
#include "tools/doctor/attribute.h"
#include "tools/lib/logschema.h"

struct watch_kind {
	const char *watch;   /* the watch's name for the clock */
	const char *name;    /* Linux's */
	const char *label;
};

static const struct watch_kind kinds[] = {
	{ "tsc", "tsc", "the TSC" },
	{ "hpet", "hpet", "the HPET" },
	{ "pm_timer", "acpi_pm", "the PM timer" },
	{ "pit", "pit", "the PIT" },
	{ "monotonic_raw", "monotonic_raw", "CLOCK_MONOTONIC_RAW" },
};

/* The clock's names; a clock the watch had under a name of its own (a
 * test's --watch-fake) goes by that name. */
static const struct watch_kind *kind_of(const char *watch, struct watch_kind *other)
{
	for (size_t i = 0; watch && i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(kinds[i].watch, watch))
			return &kinds[i];
	if (!watch)
		return NULL;
	*other = (struct watch_kind){ watch, watch, watch };
	return other;
}

/* "the TSC, the PM timer and the PIT": every clock the watch had but skip. */
static void list_agreeing(struct clock_attribution *a, const struct ld_watch *w, const char *skip)
{
	const char *names[8];
	size_t len = 0;
	int n = 0;

	for (size_t i = 0; i < w->clocks.n && n < 8; i++) {
		struct watch_kind other;
		struct ld_watch_clock c;
		const struct watch_kind *k;
		ld_watch_clocks_at(w, i, &c);
		k = kind_of(c.name.state == LD_SET ? c.name.s : NULL, &other);
		if (k && (!skip || strcmp(k->watch, skip)))
			names[n++] = k->label;
	}
	a->agree[0] = 0;
	for (int i = 0; i < n && len < sizeof a->agree; i++)
		len += (size_t)snprintf(a->agree + len, sizeof a->agree - len, "%s%s", !i ? "" : i + 1 < n ? ", " : " and ",
					names[i]);
}

/* The clock's name, or dflt. */
static const char *clock_name(const struct ld_watch_clock *c, const char *dflt)
{
	return c->name.state == LD_SET ? c->name.s : dflt;
}

/* Every clock but the TSC, with its uncertainty. */
static void watch_clocks(struct clock_attribution *a, const struct ld_watch *w)
{
	for (size_t i = 0; i < w->clocks.n && a->nclocks < ATTR_CLOCKS; i++) {
		struct watch_kind other;
		struct ld_watch_clock c;
		const struct watch_kind *k;
		struct attr_clock *x = &a->clocks[a->nclocks];
		ld_watch_clocks_at(w, i, &c);
		k = kind_of(clock_name(&c, NULL), &other);
		if (!k || !strcmp(k->watch, "tsc"))
			continue;
		snprintf(x->name, sizeof x->name, "%s", k->name);
		snprintf(x->label, sizeof x->label, "%s", k->label);
		x->uncertainty_ppm = c.u_ppm.state == LD_SET ? c.u_ppm.v : 0;
		a->nclocks++;
	}
}

static void odd_clock(struct clock_attribution *a, const struct ld_watch *w, const struct watch_kind *odd)
{
	a->known = true;
	snprintf(a->clock, sizeof a->clock, "%s", odd->name);
	snprintf(a->label, sizeof a->label, "%s", odd->label);
	a->ppm = w->odd_ppm.state == LD_SET ? w->odd_ppm.v : 0;
	a->agree_ppm = w->rest_spread_ppm.state == LD_SET ? w->rest_spread_ppm.v : 0;
	for (size_t i = 0; i < w->clocks.n; i++) {
		struct ld_watch_clock c;
		ld_watch_clocks_at(w, i, &c);
		if (!strcmp(clock_name(&c, ""), odd->watch))
			a->uncertainty_ppm = c.u_ppm.state == LD_SET ? c.u_ppm.v : 0;
	}
	list_agreeing(a, w, odd->watch);
}

bool attribution_from_watch(const struct lrun *r, struct clock_attribution *a)
{
	struct ld_watch w;
	struct ld_begin b;
	struct watch_kind odd_other;
	const struct watch_kind *odd;
	double windows = 0;

	ld_decode_watch(lrun_first(r, "watch"), &w);
	ld_decode_begin(lrun_first(r, "begin"), &b);
	odd = kind_of(w.odd.state == LD_SET ? w.odd.s : NULL, &odd_other);
	if (w.clocks.state != LD_SET)
		return false;
	memset(a, 0, sizeof *a);
	lr_num(w.windows.node, &windows);
	snprintf(a->source, sizeof a->source, "a watch of every clock, %.0f windows of 0.5 s (%s)", windows,
		 b.boot.state == LD_SET && !strcmp(b.boot.s, "linux") ? "live, under Linux" : "bare metal");
	watch_clocks(a, &w);
	if (odd) {
		odd_clock(a, &w, odd);
		return true;
	}
	if (!(w.attributable.state == LD_SET && w.attributable.v)) {
		snprintf(a->why_unknown, sizeof a->why_unknown, "the watch had fewer than three counters: %s",
			 w.verdict.state == LD_SET ? w.verdict.s : "no verdict");
		return true;
	}
	a->known = true;
	list_agreeing(a, &w, NULL);
	for (size_t i = 0; i < w.clocks.n; i++) {
		struct ld_watch_clock c;
		double v;
		ld_watch_clocks_at(&w, i, &c);
		v = c.rate_ppm.v;
		if (c.rate_ppm.state == LD_SET && strcmp(clock_name(&c, "tsc"), "tsc") &&
		    (v < 0 ? -v : v) > a->agree_ppm)
			a->agree_ppm = v < 0 ? -v : v;
	}
	return true;
}
