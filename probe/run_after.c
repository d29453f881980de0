/* SPDX-License-Identifier: BSD-2-Clause */
/* What follows the run: after=halt|reboot|poweroff, the countdown after_s=N
 * that a key cancels, and the next boot of a series (runs=N), which is a
 * reboot whatever after= says until the last boot.  Everything is decided
 * before the end record, so that the record names what follows; then the
 * platform (probe/platform.h, struct platform_after) does it. */
#include "probe/run.h"
#include "probe/exit_status.h"
#include "probe/log_schema.h"
#include "lib/fmt.h"
#include "lib/util.h"

/* A countdown without a calibrated TSC counts 3e9 cycles a second: 1 to 1.5 s
 * at the 2-3 GHz of most machines, and each second is bounded by the
 * platform's max_polls_per_s as well. */
#define FALLBACK_HZ 3e9
#define DRAIN_KEYS 64 /* keys typed before the countdown do not cancel it */

struct after_plan {
	enum options_after what;
	char via[128];
	char problem[192];
	bool cancelled;
	const char *series_state; /* "continues", "done", "stopped"; NULL: no series */
	char stop_why[160];
};

static void say_line(void *ctx, const char *line)
{
	run_text(ctx, "tickprobe: %s\n", line);
}

static const char *verb(enum options_after what)
{
	return what == OPT_AFTER_REBOOT ? "rebooting" : "powering off";
}

/* True when a key came during the countdown. */
static bool countdown(struct run *r, const struct platform_after *a, enum options_after what, uint32_t secs)
{
	uint64_t per_s = (uint64_t)(r->tsc.hz > 0 ? r->tsc.hz : FALLBACK_HZ);
	uint32_t max_polls = a->max_polls_per_s ? a->max_polls_per_s : 1000000u;

	for (int i = 0; i < DRAIN_KEYS && a->key(r->p->ctx); i++)
		;
	for (uint32_t s = secs; s; s--) {
		uint64_t t0 = r->clock.tsc();
		run_text(r, "tickprobe: %s in %u s - press any key to halt\n", verb(what), s);
		for (uint32_t n = 0; n < max_polls && r->clock.tsc() - t0 < per_s; n++)
			if (a->key(r->p->ctx))
				return true;
	}
	return false;
}

static void stop_series(struct after_plan *ap, const char *fmt, const char *why)
{
	if (!ap->series_state)
		return;
	ap->series_state = "stopped";
	tp_snprintf(ap->stop_why, sizeof ap->stop_why, fmt, why);
}

static void plan(struct run *r, struct after_plan *ap)
{
	const struct platform *p = r->p;
	const struct platform_after *a = p->after;

	if (ap->what == OPT_AFTER_HALT)
		return;
	if (!a || !a->plan) {
		tp_snprintf(ap->problem, sizeof ap->problem, "%s asked for, but this boot path can only halt",
			     options_after_name(ap->what));
	} else if (!a->plan(p->ctx, ap->what, &r->acpi, ap->via, sizeof ap->via, ap->problem, sizeof ap->problem)) {
		char why[sizeof ap->problem];
		tp_snprintf(why, sizeof why, "%s", ap->problem);
		tp_snprintf(ap->problem, sizeof ap->problem, "%s asked for, but not possible: %s",
			     options_after_name(ap->what), why);
	} else {
		return;
	}
	ap->what = OPT_AFTER_HALT;
	stop_series(ap, "cannot reboot for the next boot: %s", ap->problem);
}

static void decide(struct run *r, const char *status, struct after_plan *ap)
{
	const struct platform *p = r->p;
	const struct platform_after *a = p->after;
	bool failed = tp_streq(status, "failed");
	bool more = p->facts->series.of && !failed && p->facts->series.index < p->facts->series.of;
	char why[160];

	tp_memset(ap, 0, sizeof *ap);
	ap->what = more ? OPT_AFTER_REBOOT : r->opt->after;
	if (p->facts->series.of) {
		ap->series_state = more ? "continues" : failed ? "stopped" : "done";
		if (failed)
			tp_snprintf(ap->stop_why, sizeof ap->stop_why, "boot %u of %u ended failed",
				    p->facts->series.index, p->facts->series.of);
	}
	plan(r, ap);
	if (ap->what != OPT_AFTER_HALT && r->opt->after_s && a->key && countdown(r, a, ap->what, r->opt->after_s)) {
		ap->cancelled = true;
		ap->what = OPT_AFTER_HALT;
		run_text(r, "tickprobe: a key was pressed: the machine halts\n");
		stop_series(ap, "%s", "a key cancelled the countdown to the next boot");
	}
	if (ap->series_state && a && a->series_end &&
	    !a->series_end(p->ctx, ap->series_state, ap->stop_why[0] ? ap->stop_why : NULL, why, sizeof why) &&
	    tp_streq(ap->series_state, "continues")) {
		/* The next boot would not know it is one of the series. */
		tp_snprintf(ap->problem, sizeof ap->problem, "the series stops: %s", why);
		ap->series_state = "stopped";
		tp_snprintf(ap->stop_why, sizeof ap->stop_why, "%s", why);
		ap->what = OPT_AFTER_HALT;
	}
}

/* The end record's members after `bytes` (docs/log-format.md, `end`). */
static void end_members(void *ctx, const struct put_end *e)
{
	const struct after_plan *ap = ctx;

	put_end_after(*e, options_after_name(ap->what));
	if (ap->what != OPT_AFTER_HALT)
		put_end_after_via(*e, ap->via);
	if (ap->problem[0])
		put_end_after_problem(*e, ap->problem);
	if (ap->cancelled)
		put_end_after_cancelled(*e, true);
	if (ap->series_state)
		put_end_series(*e, ap->series_state);
	if (ap->stop_why[0])
		put_end_series_stopped(*e, ap->stop_why);
}

void run_finish(struct run *r, const char *status)
{
	const struct platform *p = r->p;
	unsigned code = tp_streq(status, "failed") ? EXIT_CODE_FAILED
		      : tp_streq(status, "ok") ? EXIT_CODE_OK : EXIT_CODE_OK_ABSENT;
	struct after_plan ap;
	char why[160];

	tp_memset(&ap, 0, sizeof ap);
	/* An exception while deciding comes back here: then the machine halts. */
	if (!r->finishing) {
		r->finishing = true;
		decide(r, status, &ap);
	}
	if (r->log) {
		log_close_with(r->log, status, end_members, &ap);
		run_text(r, "tickprobe: run ended, status %s, %llu bytes of records\n", status,
			 (unsigned long long)r->log->bytes);
	} else {
		run_text(r, "tickprobe: run ended, status %s, no records (no memory for the log)\n", status);
	}
	if (ap.series_state)
		run_text(r, "tickprobe: series %s, boot %u of %u: %s%s%s\n",
			 p->facts->series.id ? p->facts->series.id : "?", p->facts->series.index, p->facts->series.of,
			 tp_streq(ap.series_state, "continues") ? "the next boot follows" : ap.series_state,
			 ap.stop_why[0] ? ": " : "", ap.stop_why);
	if (ap.problem[0])
		run_text(r, "tickprobe: %s\n", ap.problem);
	p->end(p->ctx, status, ap.what == OPT_AFTER_HALT ? code : 0);
	if (ap.what != OPT_AFTER_HALT) {
		run_text(r, "tickprobe: next: %s, through %s\n", verb(ap.what), ap.via);
		why[0] = 0;
		p->after->run(p->ctx, ap.what, &r->acpi, say_line, r, why, sizeof why);
		run_text(r, "tickprobe: could not %s: %s\n", ap.what == OPT_AFTER_REBOOT ? "reboot" : "power off",
			 why[0] ? why : "every way failed");
	}
	run_text(r, "tickprobe: halted. The results stay on screen; power off or reset when done.\n");
	p->halt(p->ctx);
}
