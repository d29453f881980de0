/* SPDX-License-Identifier: BSD-2-Clause */
/* Which clock is wrong, from a watch (attribute.h, probe/watch.h): the
 * watch weighed every clock against the others every 0.5 s for minutes to
 * hours, so its verdict replaces the calibration's 20 to 100 ms. */
#include <stdio.h>
#include <string.h>
#include "tools/doctor/attribute.h"

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
static void list_agreeing(struct clock_attribution *a, const struct lr_node *clocks, const char *skip)
{
	const char *names[8];
	size_t len = 0;
	int n = 0;

	for (const struct lr_node *c = clocks ? clocks->child : NULL; c && n < 8; c = c->next) {
		struct watch_kind other;
		const struct watch_kind *k = kind_of(lr_str(lr_get(c, "name")), &other);
		if (k && (!skip || strcmp(k->watch, skip)))
			names[n++] = k->label;
	}
	a->agree[0] = 0;
	for (int i = 0; i < n && len < sizeof a->agree; i++)
		len += (size_t)snprintf(a->agree + len, sizeof a->agree - len, "%s%s", !i ? "" : i + 1 < n ? ", " : " and ",
					names[i]);
}

bool attribution_from_watch(const struct lrun *r, struct clock_attribution *a)
{
	const struct lr_node *w = lrun_first(r, "watch"), *clocks = lr_get(w, "clocks"), *c;
	struct watch_kind odd_other;
	const struct watch_kind *odd = kind_of(lr_str(lr_get(w, "odd")), &odd_other);
	double windows = 0, v;

	if (!w || !clocks || clocks->kind != LR_ARR)
		return false;
	memset(a, 0, sizeof *a);
	lr_num(lr_get(w, "windows"), &windows);
	snprintf(a->source, sizeof a->source, "a watch of every clock, %.0f windows of 0.5 s (%s)", windows,
		 lr_str(lr_get(lrun_first(r, "begin"), "boot")) && !strcmp(lr_str(lr_get(lrun_first(r, "begin"), "boot")),
									   "linux") ? "live, under Linux" : "bare metal");
	for (c = clocks->child; c && a->nclocks < ATTR_CLOCKS; c = c->next) {
		struct watch_kind other;
		const struct watch_kind *k = kind_of(lr_str(lr_get(c, "name")), &other);
		struct attr_clock *x = &a->clocks[a->nclocks];
		if (!k || !strcmp(k->watch, "tsc"))
			continue;
		snprintf(x->name, sizeof x->name, "%s", k->name);
		snprintf(x->label, sizeof x->label, "%s", k->label);
		x->uncertainty_ppm = lr_num(lr_get(c, "u_ppm"), &v) ? v : 0;
		a->nclocks++;
	}
	if (odd) {
		a->known = true;
		snprintf(a->clock, sizeof a->clock, "%s", odd->name);
		snprintf(a->label, sizeof a->label, "%s", odd->label);
		a->ppm = lr_num(lr_get(w, "odd_ppm"), &v) ? v : 0;
		a->agree_ppm = lr_num(lr_get(w, "rest_spread_ppm"), &v) ? v : 0;
		for (c = clocks->child; c; c = c->next)
			if (!strcmp(lr_str(lr_get(c, "name")) ? lr_str(lr_get(c, "name")) : "", odd->watch))
				a->uncertainty_ppm = lr_num(lr_get(c, "u_ppm"), &v) ? v : 0;
		list_agreeing(a, clocks, odd->watch);
		return true;
	}
	if (!lr_true(lr_get(w, "attributable"))) {
		snprintf(a->why_unknown, sizeof a->why_unknown, "the watch had fewer than three counters: %s",
			 lr_str(lr_get(w, "verdict")) ? lr_str(lr_get(w, "verdict")) : "no verdict");
		return true;
	}
	a->known = true;
	list_agreeing(a, clocks, NULL);
	for (c = clocks->child; c; c = c->next)
		if (lr_num(lr_get(c, "rate_ppm"), &v) && strcmp(lr_str(lr_get(c, "name")) ? lr_str(lr_get(c, "name")) : "tsc",
							      "tsc") && (v < 0 ? -v : v) > a->agree_ppm)
			a->agree_ppm = v < 0 ? -v : v;
	return true;
}
