/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's counters: the table from the platform's devices, the options
 * that name counters, each device's setup, and the health checks. */
#include "probe/run.h"
#include "lib/fmt.h"
#include "lib/util.h"

struct run_counter *run_counter_named(struct run *r, const char *name)
{
	for (unsigned i = 0; name && i < r->n; i++)
		if (tp_streq(r->counters[i].info->name, name))
			return &r->counters[i];
	return NULL;
}

void run_prepare(struct run *r, const struct run_counter *rc)
{
	if (rc->info->prepare)
		rc->info->prepare(r->p->ctx);
}

bool run_counter_asked(const struct run *r, const struct run_counter *rc)
{
	for (int i = 0; i < r->opt.n_counters; i++)
		if (tp_streq(r->opt.counters[i], rc->info->name))
			return true;
	return false;
}

/* "tsc, rdtscp, ...": every counter name, for a message. */
static void list_names(const struct run *r, char *buf, size_t cap)
{
	size_t len = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < r->n && len < cap; i++)
		len += (size_t)tp_snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", r->counters[i].info->name);
}

/* The table, from the platform's devices; names only, until setup. */
static void build_table(struct run *r)
{
	const struct platform *p = r->p;

	r->n = 0;
	for (unsigned d = 0; d < p->n_devices; d++)
		for (unsigned k = 0; k < p->devices[d].n && r->n < RUN_MAX_COUNTERS; k++) {
			struct run_counter *rc = &r->counters[r->n++];
			rc->info = &p->devices[d].counters[k];
			rc->dev = &p->devices[d];
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
	const struct options *o = &r->opt;
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

void run_counters_setup(struct run *r)
{
	const struct platform *p = r->p;
	unsigned at = 0;

	for (unsigned d = 0; d < p->n_devices; d++) {
		const struct platform_device *dev = &p->devices[d];
		const struct counter *desc[RUN_MAX_COUNTERS];
		struct counter_state st[RUN_MAX_COUNTERS];
		unsigned n = dev->n;

		if (at + n > r->n)
			break;
		tp_snprintf(r->step_buf, sizeof r->step_buf, "%s setup", dev->name);
		r->step = r->step_buf;
		dev->setup(p->ctx, &r->acpi, desc, st);
		for (unsigned k = 0; k < n; k++) {
			struct run_counter *rc = &r->counters[at + k];
			rc->c = desc[k];
			rc->s = st[k];
		}
		at += n;
	}
	r->step = "counters";
	for (unsigned i = 0; i < r->n; i++) {
		struct run_counter *rc = &r->counters[i];
		if (r->opt.stuck[0] && tp_streq(r->opt.stuck, rc->info->name)) {
			rc->stuck = *rc->c;
			rc->stuck.read = stuck_read;
			rc->c = &rc->stuck;
			run_text(r, "tickprobe: stuck=%s: its reads now return a constant\n", r->opt.stuck);
		}
	}
}

/* A counter is checked when it is to be measured, and also when something
 * else needs it healthy: the TSC calibrators always, and a counter that
 * others need (the PIT for its single port accesses, which are timed only
 * on a PIT that works). */
bool run_counter_in_use(struct run *r, const struct run_counter *rc)
{
	if (rc->wanted || rc->info->calibrates)
		return true;
	for (unsigned i = 0; i < r->n; i++)
		if (r->counters[i].wanted && r->counters[i].info->needs &&
		    tp_streq(r->counters[i].info->needs, rc->info->name))
			return true;
	return false;
}

void run_counters_check(struct run *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		struct run_counter *rc = &r->counters[i];
		if (!rc->c || !run_counter_in_use(r, rc))
			continue;
		r->step = rc->info->name;
		run_prepare(r, rc);
		if (!counter_check(rc->c, &rc->s, &r->clock)) {
			if (!run_absent_by_design(r, rc)) /* those are listed under the table */
				run_text(r, "%-13s skipped: %s\n", rc->info->name, rc->s.reason);
		} else if (rc->s.note[0])
			run_text(r, "%-13s note: %s\n", rc->info->name, rc->s.note);
	}
	/* A port access whose counter is broken is not worth timing alone. */
	for (unsigned i = 0; i < r->n; i++) {
		struct run_counter *rc = &r->counters[i], *need = run_counter_named(r, rc->info->needs);
		if (need && need->s.present && !need->s.healthy) {
			rc->s.healthy = false;
			tp_snprintf(rc->s.reason, sizeof rc->s.reason, "%s: %s", need->info->name, need->s.reason);
		}
	}
	for (unsigned d = 0; d < r->p->n_devices; d++)
		if (r->p->devices[d].settle)
			r->p->devices[d].settle(r->p->ctx);
}
