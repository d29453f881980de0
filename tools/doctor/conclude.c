/* SPDX-License-Identifier: BSD-2-Clause */
/* The doctor's reasoning (doctor.h).  Which kernel parameters exist where:
 * `tsc=reliable` (no watchdog on the TSC, no boot-time sync check) and
 * `tsc=unstable` in every kernel from 4.19 on; `clocksource=NAME` always.
 * `tsc=reliable` is recommended only on a bare-metal log's `reliable`. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "tools/doctor/doctor.h"

struct story {
	bool using_tsc;
	const struct klog_event *mark;     /* the watchdog's mark of tsc or tsc-early */
	const struct klog_event *param;    /* "Marking TSC unstable due to boot parameter" */
	const struct klog_event *sync;     /* tsc_sync.c's failure */
	const struct klog_event *other;    /* another "Marking TSC unstable due to …" */
	const struct klog_event *switched; /* the first switch after the cause, else the last */
	int later_switches;                /* switches after that one */
	bool param_on_cmdline;             /* tsc=unstable in /proc/cmdline */
	bool forced;                       /* clocksource= names another clocksource */
};

static void say(struct conclusion *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct conclusion *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nevidence >= DOCTOR_EVIDENCE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(c->evidence[c->nevidence++], sizeof c->evidence[0], fmt, ap);
	va_end(ap);
}

static const char *at(const struct klog_event *e, char *b, size_t cap)
{
	if (e->ts >= 0)
		snprintf(b, cap, "at %.3f s ", e->ts);
	else
		b[0] = 0;
	return b;
}

static bool is_tsc(const char *cs)
{
	return !strcmp(cs, "tsc") || !strcmp(cs, "tsc-early");
}

static void read_story(const struct doctor_inputs *in, struct story *s)
{
	const struct klog *k = in->k;

	memset(s, 0, sizeof *s);
	s->using_tsc = is_tsc(in->h->current);
	for (size_t i = 0; i < k->n; i++) {
		const struct klog_event *e = &k->ev[i];
		if ((e->kind == KE_WATCHDOG_UNSTABLE || e->kind == KE_READBACK_DELAY) && is_tsc(e->cs))
			s->mark = e;
		else if (e->kind == KE_BOOT_PARAMETER)
			s->param = e;
		else if (e->kind == KE_SYNC_FAILED)
			s->sync = e;
		else if (e->kind == KE_TSC_UNSTABLE && !strstr(e->detail, "clocksource watchdog") &&
			 !strstr(e->detail, "check_tsc_sync_source"))
			s->other = e;
	}
	/* The kernel's own switch is the one that follows the mark; later ones
	 * are writes to current_clocksource (a person, tickprobe os --switch). */
	for (size_t i = 0; i < k->n; i++) {
		const struct klog_event *e = &k->ev[i], *cause = s->mark ? s->mark : s->sync ? s->sync : s->param;
		if (e->kind != KE_SWITCHED)
			continue;
		if (cause && e < cause)
			continue;
		if (cause && s->switched && s->switched >= cause)
			s->later_switches++;
		else
			s->switched = e, s->later_switches = 0;
	}
	s->param_on_cmdline = strstr(in->h->p_tsc, "unstable") != NULL;
	s->forced = in->h->p_clocksource[0] && !is_tsc(in->h->p_clocksource);
}

static void kernel_evidence(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	const struct host_facts *h = in->h;
	char b[32];

	if (h->sysfs_ok)
		say(c, "The kernel (%s) uses clocksource %s; available: %s%s%s%s.",
		    in->k->release[0] ? in->k->release : h->release[0] ? h->release : "?",
		    h->current, h->navailable > 0 ? h->available[0] : "none", h->navailable > 1 ? " " : "",
		    h->navailable > 1 ? h->available[1] : "", h->navailable > 2 ? " …" : "");
	if (h->cmdline_ok && h->p_words[0])
		say(c, "Kernel command line: %s.", h->p_words);
	if (s->param)
		say(c, "%sthe TSC was marked unstable by the boot parameter tsc=unstable, not by any check: "
		       "\"%s\".", at(s->param, b, sizeof b), s->param->line);
	if (s->mark && s->mark->kind == KE_WATCHDOG_UNSTABLE)
		say(c, "%sthe watchdog on CPU%d marked '%s' unstable against '%s': \"%s\"%s%s.", at(s->mark, b, sizeof b),
		    s->mark->cpu, s->mark->cs, s->mark->ref[0] ? s->mark->ref : "(its reference line is missing)",
		    s->mark->line, strstr(s->mark->detail, "skewed") ? "; " : "",
		    strstr(s->mark->detail, "skewed") ? s->mark->detail : "");
	else if (s->mark)
		say(c, "%sthe watchdog on CPU%d marked '%s' unstable because its own read of '%s' was delayed: \"%s\".",
		    at(s->mark, b, sizeof b), s->mark->cpu, s->mark->cs, s->mark->ref, s->mark->line);
	if (s->sync)
		say(c, "%sthe boot-time TSC sync check (tsc_sync.c) failed with CPU %d: \"%s\"%s%s.", at(s->sync, b, sizeof b),
		    s->sync->cpu, s->sync->line, s->sync->detail[0] ? "; " : "", s->sync->detail);
	if (s->other)
		say(c, "%s\"%s\".", at(s->other, b, sizeof b), s->other->line);
	if (s->switched)
		say(c, "%sthe kernel switched to clocksource %s%s.", at(s->switched, b, sizeof b), s->switched->cs,
		    s->later_switches ? "; the later switches in the log are writes to current_clocksource "
					"(a person, or tickprobe os --switch)" : "");
	if (klog_last(in->k, KE_CALIBRATION))
		say(c, "TSC calibration: \"%s\".", klog_last(in->k, KE_CALIBRATION)->line);
	if (klog_starts_late(in->k))
		say(c, "The kernel log starts at %.1f s: the boot's first messages were overwritten, so a boot "
		       "parameter's or the sync check's line may be missing.", in->k->first_ts);
	if (in->k->cut_line)
		say(c, "The kernel log ends in the middle of a line: it was cut short.");
	say(c, "CPUID: invariant TSC %s, TSC_KNOWN_FREQ %s, hypervisor %.*s.", h->m.invariant_tsc ? "yes" : "no",
	    h->tsc_known_freq ? "yes (leaf 0x15)" : "no", h->m.hypervisor[0] ? (int)strcspn(h->m.hypervisor, " ") : 4,
	    h->m.hypervisor[0] ? h->m.hypervisor : "none");
}

/* The cheaper of hpet and acpi_pm among the available ones: measured now,
 * else the bare log's reads; the kernel's own order (hpet rated 250,
 * acpi_pm 200) when neither was measured. */
static const char *cheaper_fallback(const struct doctor_inputs *in)
{
	const struct host_facts *h = in->h;
	bool any = h->navailable > 0, hp_ok = !any || host_has_cs(h, "hpet"), pm_ok = !any || host_has_cs(h, "acpi_pm");
	double hp = costs_of(in->costs, "hpet"), pm = costs_of(in->costs, "acpi_pm");
	const struct bare_verdict *v = in->bare;

	if ((hp < 0 || pm < 0) && v && v->cost[1].healthy && v->cost[2].healthy)
		hp = v->cost[1].p50_ns, pm = v->cost[2].p50_ns;
	if (hp_ok && pm_ok)
		return pm >= 0 && hp >= 0 && pm < hp ? "acpi_pm" : "hpet";
	return hp_ok ? "hpet" : pm_ok ? "acpi_pm" : h->current;
}

static void gain(const struct doctor_inputs *in, const char *from, const char *to, struct conclusion *c)
{
	double a = costs_of(in->costs, from), b = costs_of(in->costs, to);
	const struct bare_verdict *v = in->bare;

	if (!strcmp(from, to))
		return;
	if (a > 0 && b > 0) {
		snprintf(c->gain, sizeof c->gain, "clock_gettime %.0f ns → %.0f ns, %.1f× (%s on %s)", a, b, a / b,
			 from, to);
		return;
	}
	if (a > 0 && is_tsc(to) && in->costs->raw_tsc_ns > 0) {
		snprintf(c->gain, sizeof c->gain, "clock_gettime %.0f ns on %s, against %.0f ns for the TSC read itself: "
			 "up to %.0f× (tsc is not selectable now; on it clock_gettime adds the vDSO's conversion)",
			 a, from, in->costs->raw_tsc_ns, a / in->costs->raw_tsc_ns);
		return;
	}
	if (v && verdict_counter_of(from) && verdict_counter_of(to)) {
		const char *cf = verdict_counter_of(from), *ct = verdict_counter_of(to);
		double x = -1, y = -1;
		for (int i = 0; i < 4; i++) {
			if (v->cost[i].measured && !strcmp(v->cost[i].name, cf))
				x = v->cost[i].p50_ns;
			if (v->cost[i].measured && !strcmp(v->cost[i].name, ct))
				y = v->cost[i].p50_ns;
		}
		if (x > 0 && y > 0)
			snprintf(c->gain, sizeof c->gain, "the hardware read %.0f ns → %.0f ns, %.1f× (the bare log's %s "
				 "and %s; clock_gettime adds the kernel's share to both)", x, y, x / y, cf, ct);
	}
}

static void add_param(struct conclusion *c, const char *p)
{
	if (c->nadd < 4)
		snprintf(c->add[c->nadd++], sizeof c->add[0], "%s", p);
}

static void remove_param(struct conclusion *c, const char *p)
{
	if (c->nremove < 4)
		snprintf(c->remove[c->nremove++], sizeof c->remove[0], "%s", p);
}

/* Why the watchdog failed on a TSC the hardware shows reliable. */
static void blame_reference(const struct story *s, struct conclusion *c)
{
	const char *ref = s->mark && s->mark->ref[0] ? s->mark->ref : "its reference";

	if (!strcmp(ref, "refined-jiffies") || !strcmp(ref, "jiffies"))
		say(c, "So what failed was the reference: %s counts timer interrupts, and lost or late ones (a "
		       "long SMI, interrupts held off, a hypervisor that did not run the vCPU) make a good TSC "
		       "look skewed.", ref);
	else
		say(c, "So what failed was the watchdog's reference read, not the TSC: a delayed %s read (an SMI, "
		       "a busy host, or a hypervisor that stopped the vCPU between the two reads) makes a good "
		       "TSC look skewed.", ref);
}

static void reliable(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	snprintf(c->clocksource, sizeof c->clocksource, "tsc");
	if (s->using_tsc) {
		snprintf(c->cause, sizeof c->cause, "none");
		snprintf(c->summary, sizeof c->summary, "Nothing to change: the kernel uses %s and the hardware "
			 "says the TSC is reliable.", in->h->current);
		return;
	}
	c->exit_status = DOCTOR_CHANGE;
	if (s->param || s->param_on_cmdline) {
		snprintf(c->cause, sizeof c->cause, "boot-parameter");
		remove_param(c, "tsc=unstable");
	}
	if (s->forced) {
		char p[64];
		snprintf(c->cause, sizeof c->cause, "boot-parameter");
		snprintf(p, sizeof p, "clocksource=%s", in->h->p_clocksource);
		remove_param(c, p);
	}
	if (s->mark || s->sync) {
		snprintf(c->cause, sizeof c->cause, "%s", s->mark ? "watchdog-unstable" : "sync-failed");
		add_param(c, "tsc=reliable");
		if (s->mark)
			blame_reference(s, c);
		else
			say(c, "The kernel's boot check saw a warp that the bare-metal measurement, with its "
			       "uncertainty, does not: tsc=reliable skips that check.");
	}
	if (!c->nadd && !c->nremove) {
		snprintf(c->cause, sizeof c->cause, "kernel-choice");
		add_param(c, "clocksource=tsc");
	}
	snprintf(c->summary, sizeof c->summary, "The TSC is reliable here, but the kernel uses %s: switch to tsc.",
		 in->h->current);
	gain(in, in->h->current, "tsc", c);
}

static void unreliable(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	const char *best = cheaper_fallback(in);

	c->exit_status = DOCTOR_HARDWARE;
	snprintf(c->cause, sizeof c->cause, "hardware");
	snprintf(c->clocksource, sizeof c->clocksource, "%s", best);
	if (strstr(in->h->p_tsc, "reliable"))
		remove_param(c, "tsc=reliable");
	if (s->using_tsc)
		add_param(c, "tsc=unstable");
	if (strcmp(in->h->current, best) && (strcmp(best, "hpet") || in->h->p_clocksource[0])) {
		char p[64];
		snprintf(p, sizeof p, "clocksource=%s", best);
		add_param(c, p);
	}
	snprintf(c->summary, sizeof c->summary, "The hardware is at fault: %s. Keep the TSC off (never "
		 "tsc=reliable here) and use %s; a firmware (BIOS) update may fix the TSC.", in->bare->reason, best);
	if (!s->using_tsc && !s->mark && !s->sync && !s->param)
		say(c, "The kernel did not say why it left the TSC; the bare-metal log does.");
	else if (!s->using_tsc)
		say(c, "The kernel was right to withdraw the TSC: the bare-metal log shows the fault.");
	else
		say(c, "The kernel still uses the TSC: its checks missed what the bare-metal log shows.");
	gain(in, in->h->current, best, c);
}

static void unknown(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	snprintf(c->clocksource, sizeof c->clocksource, "%s", in->h->current);
	snprintf(c->next_step, sizeof c->next_step, "Boot tickprobe once on this machine for a bare-metal log: "
		 "`sudo tickprobe schedule --reboot` (the Debian package; it boots the probe once and comes "
		 "back), or the stick; its log lands in /boot/efi/tickprobe/logs or on the stick, where the "
		 "doctor finds it (or give --bare LOG).");
	if (!s->using_tsc && (s->param || s->param_on_cmdline || s->forced)) {
		char p[64];
		c->exit_status = DOCTOR_CHANGE;
		snprintf(c->cause, sizeof c->cause, "boot-parameter");
		snprintf(c->clocksource, sizeof c->clocksource, "tsc");
		if (s->param || s->param_on_cmdline)
			remove_param(c, "tsc=unstable");
		if (s->forced)
			snprintf(p, sizeof p, "clocksource=%s", in->h->p_clocksource), remove_param(c, p);
		snprintf(c->summary, sizeof c->summary, "The TSC was switched off by a boot parameter, not by any "
			 "check: remove it and the kernel's own checks (tsc_sync.c at boot, the watchdog after) decide.");
		gain(in, in->h->current, "tsc", c);
		return;
	}
	snprintf(c->cause, sizeof c->cause, "%s", s->mark ? "watchdog-unstable" : s->sync ? "sync-failed" : "none");
	if (s->using_tsc || (!s->mark && !s->sync && !s->other))
		snprintf(c->summary, sizeof c->summary, "Nothing to change: the kernel uses %s and reports no "
			 "trouble with the TSC.", in->h->current);
	else
		snprintf(c->summary, sizeof c->summary, "The kernel withdrew the TSC (%s), and without a bare-metal "
			 "log it cannot be told whether the TSC or the watchdog's reference failed: keep %s for now.",
			 c->cause, in->h->current);
}

void doctor_conclude(const struct doctor_inputs *in, struct conclusion *c)
{
	struct story s;

	memset(c, 0, sizeof *c);
	read_story(in, &s);
	kernel_evidence(in, &s, c);
	c->verdict = in->bare ? in->bare->tsc : TV_UNKNOWN;
	if (in->bare) {
		say(c, "Bare-metal log %s: the TSC is %s: %s.", in->bare_path, tsc_verdict_name(in->bare->tsc),
		    in->bare->reason);
		for (int i = 0; i < in->bare->nevidence; i++)
			say(c, "%s", in->bare->evidence[i]);
	} else {
		say(c, "No bare-metal log of this machine: the TSC's own behaviour is not known.");
	}
	if (c->verdict == TV_RELIABLE)
		reliable(in, &s, c);
	else if (c->verdict == TV_UNRELIABLE)
		unreliable(in, &s, c);
	else
		unknown(in, &s, c);
	for (int i = 0; i < in->costs->n; i++)
		say(c, "clock_gettime(MONOTONIC) on %s: %.1f ns (p50, %s).", in->costs->c[i].cs, in->costs->c[i].ns,
		    in->costs->source);
}
