/* SPDX-License-Identifier: BSD-2-Clause */
/* The doctor's reading of its stories (doctor.h): what the kernel did and
 * why in its own words, which kernel it is, what the bare-metal log and the
 * weighing of the clocks say, and so which verdict stands.  remedy.c then
 * turns the cause into parameters. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "tools/doctor/doctor.h"

static void put(struct remedy *r, int *n, const char *param, const char *fmt, va_list ap)
{
	if (*n >= DOCTOR_PARAMS)
		return;
	snprintf(r[*n].param, sizeof r[*n].param, "%s", param);
	vsnprintf(r[*n].why, sizeof r[*n].why, fmt, ap);
	(*n)++;
}

void doctor_say(struct conclusion *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nevidence >= DOCTOR_EVIDENCE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(c->evidence[c->nevidence++], sizeof c->evidence[0], fmt, ap);
	va_end(ap);
}

void doctor_add(struct conclusion *c, const char *param, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put(c->add, &c->nadd, param, fmt, ap);
	va_end(ap);
}

void doctor_remove(struct conclusion *c, const char *param, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put(c->remove, &c->nremove, param, fmt, ap);
	va_end(ap);
}

void doctor_alt(struct conclusion *c, const char *param, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put(c->alt, &c->nalt, param, fmt, ap);
	va_end(ap);
}

bool doctor_is_tsc(const char *cs)
{
	return !strcmp(cs, "tsc") || !strcmp(cs, "tsc-early");
}

static const char *at(const struct klog_event *e, char *b, size_t cap)
{
	if (e->ts >= 0)
		snprintf(b, cap, "at %.3f s ", e->ts);
	else
		b[0] = 0;
	return b;
}

static bool is_mark(const struct klog_event *e)
{
	return (e->kind == KE_WATCHDOG_UNSTABLE || e->kind == KE_FREQ_SKEW || e->kind == KE_READBACK_DELAY) &&
	       doctor_is_tsc(e->cs);
}

static bool idle_reason(const char *detail)
{
	return strstr(detail, "halts in idle") || strstr(detail, "halt in AMD C1E");
}

static void read_event(struct story *s, const struct klog_event *e)
{
	if (is_mark(e))
		s->mark = e;
	else if (e->kind == KE_CPU_SKEW && doctor_is_tsc(e->cs))
		s->cpu_skew = e;
	else if (e->kind == KE_BOOT_PARAMETER)
		s->param = e;
	else if (e->kind == KE_SYNC_FAILED)
		s->sync = e;
	else if (e->kind == KE_TSC_ADJUST)
		s->adjust = e;
	else if (e->kind == KE_READ_TIMEOUT)
		s->timeouts++;
	else if (e->kind == KE_REMOTE_TIMEOUT)
		s->remote_timeouts++;
	else if (e->kind == KE_READBACK_SKIP || e->kind == KE_LONG_READOUT)
		s->skipped++;
	else if (e->kind == KE_TSC_UNSTABLE && idle_reason(e->detail))
		s->idle = e;
	else if (e->kind == KE_TSC_UNSTABLE && !strstr(e->detail, "clocksource watchdog") &&
		 !strstr(e->detail, "check_tsc_sync_source"))
		s->other = e;
}

/* The kernel's own switch is the one that follows the cause; later ones are
 * writes to current_clocksource (a person, tickprobe os --switch). */
static void read_switches(const struct klog *k, struct story *s)
{
	const struct klog_event *cause = s->mark ? s->mark : s->cpu_skew ? s->cpu_skew : s->sync ? s->sync
				       : s->idle ? s->idle : s->param;

	for (size_t i = 0; i < k->n; i++) {
		const struct klog_event *e = &k->ev[i];
		if (e->kind != KE_SWITCHED || (cause && e < cause))
			continue;
		if (cause && s->switched && s->switched >= cause) {
			s->later_switches++;
		} else {
			s->switched = e;
			s->later_switches = 0;
		}
	}
}

static void read_story(const struct doctor_inputs *in, struct story *s)
{
	const struct host_facts *h = in->h;

	memset(s, 0, sizeof *s);
	s->using_tsc = doctor_is_tsc(h->current);
	for (size_t i = 0; i < in->k->n; i++)
		read_event(s, &in->k->ev[i]);
	read_switches(in->k, s);
	s->param_on_cmdline = strstr(h->p_tsc, "unstable") != NULL;
	s->reliable_on_cmdline = strstr(h->p_tsc, "reliable") != NULL;
	s->nowatchdog_on_cmdline = strstr(h->p_tsc, "nowatchdog") != NULL;
	s->forced = h->p_clocksource[0] && !doctor_is_tsc(h->p_clocksource);
	s->ref_wrong = s->mark && s->mark->kind != KE_READBACK_DELAY && in->attr && in->attr->known &&
		       in->attr->clock[0] && !strcmp(in->attr->clock, s->mark->ref);
}

/* The kernel's skew of a mark, in its own numbers. */
static void skew_evidence(const struct klog_event *e, struct conclusion *c)
{
	double ppm;

	if (!klog_skew_ppm(e, &ppm)) {
		if (e->ref[0])
			doctor_say(c, "The kernel did not print the two intervals (this wording gives raw counts "
				      "only): its skew in ppm is not known.");
		return;
	}
	doctor_say(c, "The kernel's own skew: '%s' counted %.0f ns while '%s' counted %.0f ns, %+.1f ppm "
		      "(the kernel allows about 500 ppm%s).", e->cs, e->cs_ns, e->ref, e->wd_ns, ppm,
		   e->kind == KE_FREQ_SKEW ? ": 488 ppm when both clocks are calibrated, 3,906 ppm otherwise, "
					     "plus the reference's readout time" : "");
	if (e->wd_ns < 0.25e9 || e->wd_ns > 1e9)
		doctor_say(c, "The reference's interval was %.0f ns, not the watchdog's 0.5 s: the two clocks were "
			      "compared across a pause or a jump (a stopped virtual machine, a long SMI), so the "
			      "difference is a step, not a rate.", e->wd_ns);
}

static void mark_evidence(const struct story *s, struct conclusion *c)
{
	const struct klog_event *m = s->mark;
	char b[32];

	if (!m)
		return;
	if (m->kind == KE_READBACK_DELAY) {
		doctor_say(c, "%sthe watchdog on CPU%d marked '%s' unstable because its own read of '%s' was "
			      "delayed: \"%s\".", at(m, b, sizeof b), m->cpu, m->cs, m->ref, m->line);
		return;
	}
	doctor_say(c, "%sthe watchdog%s marked '%s' unstable (%s) against '%s': \"%s\".", at(m, b, sizeof b),
		   m->kind == KE_FREQ_SKEW ? " (the 2026 one, on the boot CPU)" : "", m->cs, m->detail,
		   m->ref[0] ? m->ref : "(its reference line is missing)", m->line);
	skew_evidence(m, c);
}

static void cpu_skew_evidence(const struct klog_event *e, struct conclusion *c)
{
	char b[32];

	if (e->cpu < 0) {
		doctor_say(c, "%sthe watchdog marked '%s' unstable for inter CPU skew; the line naming the CPUs is "
			      "missing.", at(e, b, sizeof b), e->cs);
		return;
	}
	doctor_say(c, "%sthe watchdog marked '%s' unstable for inter CPU skew: CPU%d read %llu after CPU%d had "
		      "read %llu, so CPU%d's TSC lags CPU%d's by at least %llu cycles.", at(e, b, sizeof b), e->cs,
		   e->cpu, e->cycles[0], e->cpu2, e->cycles[1], e->cpu, e->cpu2, e->cycles[1] - e->cycles[0]);
}

static void read_trouble(const struct story *s, struct conclusion *c)
{
	char b[32];

	if (s->timeouts)
		doctor_say(c, "The watchdog's reference read took over its 50 us bound %d time%s (\"... read timed "
			      "out\"): it retried, and marks nothing for that.", s->timeouts, s->timeouts == 1 ? "" : "s");
	if (s->remote_timeouts)
		doctor_say(c, "Another CPU did not answer the inter-CPU check in time (\"Watchdog remote CPU ... read "
			      "timed out\"): checked again later, no mark.");
	if (s->skipped)
		doctor_say(c, "The watchdog skipped its test %d time%s because its own reads were slow (\"read-back "
			      "delay ... skipped\" or \"Long readout interval\"): SMIs or a busy host hold the reads up.",
			   s->skipped, s->skipped == 1 ? "" : "s");
	if (s->adjust)
		doctor_say(c, "%sthe firmware wrote the TSC_ADJUST register: \"%s\".", at(s->adjust, b, sizeof b),
			   s->adjust->line);
}

static void kernel_evidence(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	const struct host_facts *h = in->h;
	const struct kernel_facts *kf = in->kf;
	char b[32];

	if (kf->release[0])
		doctor_say(c, "The kernel: %s (from %s).", kf->release, kf->release_from);
	else
		doctor_say(c, "The kernel's version is not known: the log has no \"Linux version\" line, and no release "
			      "was read.");
	doctor_say(c, "Its clocksource watchdog: %s: %s.", kf->wd == WD_GEN_2026 ? "the one rewritten in 2026" :
		   kf->wd == WD_GEN_OLD ? "the one of Linux 4.19 to 7.0" : "not known", kf->wd_why);
	if (h->sysfs_ok)
		doctor_say(c, "It uses clocksource %s; available: %s%s%s%s.", h->current,
			   h->navailable > 0 ? h->available[0] : "none", h->navailable > 1 ? " " : "",
			   h->navailable > 1 ? h->available[1] : "", h->navailable > 2 ? " ..." : "");
	if (h->cmdline_ok && h->p_words[0])
		doctor_say(c, "Kernel command line: %s.", h->p_words);
	if (s->param)
		doctor_say(c, "%sthe TSC was marked unstable by the boot parameter tsc=unstable, not by any check: "
			      "\"%s\".", at(s->param, b, sizeof b), s->param->line);
	mark_evidence(s, c);
	if (s->cpu_skew)
		cpu_skew_evidence(s->cpu_skew, c);
	if (s->sync)
		doctor_say(c, "%sthe boot-time TSC sync check (tsc_sync.c) failed with CPU %d: \"%s\"%s%s.",
			   at(s->sync, b, sizeof b), s->sync->cpu, s->sync->line, s->sync->detail[0] ? "; " : "",
			   s->sync->detail);
	if (s->idle)
		doctor_say(c, "%s\"%s\": the TSC stops in deep C-states.", at(s->idle, b, sizeof b), s->idle->line);
	if (s->other)
		doctor_say(c, "%s\"%s\".", at(s->other, b, sizeof b), s->other->line);
	read_trouble(s, c);
}

static void log_evidence(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	const struct host_facts *h = in->h;
	char b[32];

	if (s->switched)
		doctor_say(c, "%sthe kernel switched to clocksource %s%s.", at(s->switched, b, sizeof b), s->switched->cs,
			   s->later_switches ? "; the later switches in the log are writes to current_clocksource "
					       "(a person, or tickprobe os --switch)" : "");
	if (klog_last(in->k, KE_CALIBRATION))
		doctor_say(c, "TSC calibration: \"%s\".", klog_last(in->k, KE_CALIBRATION)->line);
	if (klog_starts_late(in->k))
		doctor_say(c, "The kernel log starts at %.1f s: the boot's first messages were overwritten, so a "
			      "boot parameter's or the sync check's line may be missing.", in->k->first_ts);
	if (in->k->cut_line)
		doctor_say(c, "The kernel log ends in the middle of a line: it was cut short.");
	if (in->k->skipped_bytes)
		doctor_say(c, "The kernel log is longer than %llu MiB: its first %llu bytes were not read.",
			   KLOG_MAX_BYTES >> 20, in->k->skipped_bytes);
	if (in->k->dropped)
		doctor_say(c, "The kernel log holds more than %d clocksource events: the oldest %zu were let go.",
			   KLOG_MAX_EVENTS, in->k->dropped);
	doctor_say(c, "CPUID: invariant TSC %s, TSC_KNOWN_FREQ %s, hypervisor %.*s.", h->m.invariant_tsc ? "yes" : "no",
		   h->tsc_known_freq ? "yes (leaf 0x15)" : "no",
		   h->m.hypervisor[0] ? (int)strcspn(h->m.hypervisor, " ") : 4,
		   h->m.hypervisor[0] ? h->m.hypervisor : "none");
}

/* The bare log's own rate check measures the TSC against the one reference
 * Linux would watch it with; when the weighing of all the clocks names that
 * reference, the rate fault was the reference's. */
static enum tsc_verdict weigh_verdict(const struct doctor_inputs *in, struct conclusion *c)
{
	const struct bare_verdict *v = in->bare;
	const struct clock_attribution *a = in->attr;
	bool rate_fails = v->rate_known && fabs(v->rate_ppm) > VERDICT_WATCHDOG_PPM + v->rate_err_ppm;
	bool other_fault = v->sync == 0 || (v->invariant_known && !v->invariant);

	if (v->tsc != TV_UNRELIABLE || !rate_fails || other_fault || !a || !a->known || !v->watchdog_ref ||
	    strcmp(a->clock, v->watchdog_ref))
		return v->tsc;
	c->tsc_wrongly_blamed = true;
	doctor_say(c, "The bare-metal log's rate check blamed the TSC (%+.1f ppm against %s), but the clocks "
		      "weighed together lay it at %s's door: the TSC is not the clock that is off.", v->rate_ppm,
		   v->watchdog_ref, a->label);
	return v->sync == 1 && v->invariant_known ? TV_RELIABLE : TV_UNKNOWN;
}

static bool has_clock(const struct clock_attribution *a, const char *name)
{
	for (int i = 0; i < a->nclocks; i++)
		if (!strcmp(a->clocks[i].name, name))
			return true;
	return false;
}

static void weigh_evidence(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	char line[400];
	double ppm;
	double seen;

	if (!in->attr)
		return;
	attribution_sentence(in->attr, line, sizeof line);
	doctor_say(c, "Which clock is wrong: %s.", line);
	if (in->bare && in->bare->watchdog_ref && !strcmp(in->attr->clock, in->bare->watchdog_ref) &&
	    !has_clock(in->attr, "cpuid15"))
		doctor_say(c, "Linux refines the TSC's rate against %s at boot when CPUID leaf 0x15 does not give it: "
			      "with %s %.0f ppm off, so is the rate Linux gives the TSC%s.", in->attr->label,
			   in->attr->label, fabs(in->attr->ppm), fabs(in->attr->ppm) > 500 ? ", beyond the 500 ppm "
			   "that NTP can correct" : "");
	if (!s->ref_wrong)
		return;
	c->tsc_wrongly_blamed = true;
	if (!klog_skew_ppm(s->mark, &ppm)) {
		doctor_say(c, "So the kernel blamed the TSC wrongly: its reference '%s' is the clock that is off.",
			   s->mark->ref);
		return;
	}
	seen = (1.0 / (1.0 + in->attr->ppm * 1e-6) - 1.0) * 1e6;
	doctor_say(c, "So the kernel blamed the TSC wrongly: it saw the TSC %+.0f ppm against '%s', and it is '%s' "
		      "that is %.0f ppm %s: the TSC against it, %+.0f ppm, %s.", ppm, s->mark->ref, s->mark->ref,
		   fabs(in->attr->ppm), in->attr->ppm > 0 ? "fast" : "slow", seen,
		   fabs(seen - ppm) <= in->attr->uncertainty_ppm ? "the kernel's figure within the weighing's "
		   "uncertainty" : "not the kernel's figure: the reference's error changed between the two");
}

void doctor_conclude(const struct doctor_inputs *in, struct conclusion *c)
{
	struct story s;

	memset(c, 0, sizeof *c);
	read_story(in, &s);
	kernel_evidence(in, &s, c);
	log_evidence(in, &s, c);
	c->verdict = TV_UNKNOWN;
	if (in->bare) {
		doctor_say(c, "Bare-metal log %s: the TSC is %s: %s.", in->bare_path, tsc_verdict_name(in->bare->tsc),
			   in->bare->reason);
		for (int i = 0; i < in->bare->nevidence; i++)
			doctor_say(c, "%s", in->bare->evidence[i]);
		c->verdict = weigh_verdict(in, c);
	} else {
		doctor_say(c, "No bare-metal log of this machine: the TSC's own behaviour is not known.");
	}
	weigh_evidence(in, &s, c);
	if (c->verdict == TV_RELIABLE)
		remedy_reliable(in, &s, c);
	else if (c->verdict == TV_UNRELIABLE)
		remedy_unreliable(in, &s, c);
	else
		remedy_unknown(in, &s, c);
	for (int i = 0; i < in->costs->n; i++)
		doctor_say(c, "clock_gettime(MONOTONIC) on %s: %.1f ns (p50, %s).", in->costs->c[i].cs,
			   in->costs->c[i].ns, in->costs->source);
}
