/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's counters: the table from the platform's drivers, the options
 * that name counters, each driver's attach, and the health checks. */
#include "probe/run.h"
#include "lib/fmt.h"
#include "lib/util.h"

struct run_counter *run_counter_named(struct run *r, const char *name)
{
	for (unsigned i = 0; name && i < r->n; i++)
		if (tp_streq(r->counters[i].desc->name, name))
			return &r->counters[i];
	return NULL;
}

void run_prepare(struct run *r, const struct run_counter *rc)
{
	if (rc->desc->prepare)
		rc->desc->prepare(r->p->ctx);
}

bool run_counter_asked(const struct run *r, const struct run_counter *rc)
{
	for (int i = 0; i < r->opt->n_counters; i++)
		if (tp_streq(r->opt->counters[i], rc->desc->name))
			return true;
	return false;
}

/* "tsc, rdtscp, ...": every counter name, for a message. */
static void list_names(const struct run *r, char *buf, size_t cap)
{
	size_t len = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < r->n && len < cap; i++)
		len += (size_t)tp_snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", r->counters[i].desc->name);
}

/* The table, from the drivers' descs; names only, until setup. */
static void build_table(struct run *r)
{
	const struct platform *p = r->p;

	r->n = 0;
	for (unsigned d = 0; d < p->n_drivers; d++)
		for (unsigned k = 0; k < p->drivers[d]->n && r->n < RUN_MAX_COUNTERS; k++) {
			struct run_counter *rc = &r->counters[r->n++];
			rc->desc = &p->drivers[d]->counters[k];
			rc->driver = p->drivers[d];
			rc->cal = -1;
			counter_state_init(&rc->s);
			rc->s.present = false;
			tp_snprintf(rc->s.reason, sizeof rc->s.reason, "not set up");
		}
}

/* counters= and stuck= name counters; a name that is none of them is an
 * option problem that lists the names, and the run goes on without it (with
 * every counter, when no name in counters= was known). */
void run_counters_select(struct run *r)
{
	const struct options *o = r->opt;
	char names[RUN_PROBLEM_LEN - 64];
	int known = 0;

	build_table(r);
	list_names(r, names, sizeof names);
	for (int i = 0; i < o->n_counters; i++) {
		struct run_counter *rc = run_counter_named(r, o->counters[i]);
		if (rc) {
			rc->wanted = true;
			known++;
		} else {
			run_option_problem(r, "option counters: unknown counter '%s', ignored; the counters are %s",
					   o->counters[i], names);
		}
	}
	if (!known)
		for (unsigned i = 0; i < r->n; i++)
			r->counters[i].wanted = true;
	if (o->n_counters && !known)
		run_option_problem(r, "option counters: no known counter named, default kept (all)");
	if (o->stuck[0] && !run_counter_named(r, o->stuck))
		run_option_problem(r, "option stuck: unknown counter '%s', ignored; the counters are %s", o->stuck,
				   names);
}

/* The test hook behind option stuck=NAME: a read that never changes. */
static uint64_t stuck_read(const struct counter *c)
{
	return c->mask & 0x1234;
}

/* The test hook behind fault=slow:COUNTER:N: N pauses, then the read. */
static uint64_t slowed_read(const struct counter *c)
{
	const struct slowed_counter *s = (const struct slowed_counter *)(const void *)c;

	for (uint32_t k = 0; k < s->spins; k++)
		__builtin_ia32_pause();
	return s->read(c);
}

/* Each driver attaches its counters.  build_table put them in the list's
 * order, so a driver's n rows start where the driver before it ends, and
 * row k holds its desc k: the descriptor attach filled from that desc. */
void run_counters_setup(struct run *r)
{
	const struct platform *p = r->p;
	const struct counter_env env = { .acpi = &r->acpi, .alloc = p->alloc, .ctx = p->ctx };
	unsigned at = 0;

	for (unsigned d = 0; d < p->n_drivers; d++) {
		const struct counter_driver *drv = p->drivers[d];
		const struct counter *c[RUN_MAX_COUNTERS];
		struct counter_state st[RUN_MAX_COUNTERS];

		if (at + drv->n > r->n)
			break;
		tp_snprintf(r->step_buf, sizeof r->step_buf, "%s setup", drv->name);
		r->step = r->step_buf;
		drv->attach(&env, c, st);
		for (unsigned k = 0; k < drv->n; k++) {
			struct run_counter *rc = &r->counters[at + k];
			rc->c = c[k];
			rc->s = st[k];
		}
		at += drv->n;
	}
	r->step = "counters";
	for (unsigned i = 0; i < r->n; i++) {
		struct run_counter *rc = &r->counters[i];
		if (r->opt->stuck[0] && tp_streq(r->opt->stuck, rc->desc->name)) {
			rc->stuck = *rc->c;
			rc->stuck.read = stuck_read;
			rc->c = &rc->stuck;
			run_text(r, "tickprobe: stuck=%s: its reads now return a constant\n", r->opt->stuck);
		}
		if (r->opt->slow_counter[0] && tp_streq(r->opt->slow_counter, rc->desc->name) && rc->c) {
			rc->slowed.c = *rc->c;
			rc->slowed.read = rc->c->read;
			rc->slowed.spins = r->opt->slow_spins;
			rc->slowed.c.read = slowed_read;
			rc->slowed.desc = *rc->c->desc;
			rc->slowed.desc.insns = 0; /* no longer the read's own instructions */
			rc->slowed.c.desc = &rc->slowed.desc;
			rc->c = &rc->slowed.c;
			run_text(r, "tickprobe: fault=slow:%s:%u: each read now spins first\n", r->opt->slow_counter,
				 r->opt->slow_spins);
		}
	}
}

/* A counter is checked when it is to be measured, and also when something
 * else needs it healthy: the TSC calibrators always, and a counter that
 * others need (the PIT for its single port accesses, which are timed only
 * on a PIT that works). */
bool run_counter_in_use(struct run *r, const struct run_counter *rc)
{
	if (rc->wanted || rc->desc->calibrates)
		return true;
	for (unsigned i = 0; i < r->n; i++)
		if (r->counters[i].wanted && r->counters[i].desc->needs &&
		    tp_streq(r->counters[i].desc->needs, rc->desc->name))
			return true;
	return false;
}

void run_counters_check(struct run *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		struct run_counter *rc = &r->counters[i];
		if (!rc->c || !run_counter_in_use(r, rc))
			continue;
		r->step = rc->desc->name;
		run_prepare(r, rc);
		if (!counter_check(rc->c, &rc->s, &r->clock)) {
			if (!run_absent_by_design(r, rc)) /* those are listed under the table */
				run_text(r, "%-13s skipped: %s\n", rc->desc->name, rc->s.reason);
		} else if (rc->s.note[0])
			run_text(r, "%-13s note: %s\n", rc->desc->name, rc->s.note);
	}
	/* A port access whose counter is broken is not worth timing alone. */
	for (unsigned i = 0; i < r->n; i++) {
		struct run_counter *rc = &r->counters[i], *need = run_counter_named(r, rc->desc->needs);
		if (need && need->s.present && !need->s.healthy) {
			rc->s.healthy = false;
			tp_snprintf(rc->s.reason, sizeof rc->s.reason, "%s: %s", need->desc->name, need->s.reason);
		}
	}
	run_settle(r);
}

void run_settle(struct run *r)
{
	for (unsigned d = 0; d < r->p->n_drivers; d++)
		if (r->p->drivers[d]->settle)
			r->p->drivers[d]->settle(r->p->ctx);
}
