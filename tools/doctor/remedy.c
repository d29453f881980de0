/* SPDX-License-Identifier: BSD-2-Clause */
/* A remedy per cause, in the parameters the running kernel has (doctor.h,
 * kernel.h).  What each parameter does, from the kernels' sources
 * (arch/x86/kernel/tsc.c, tsc_sync.c, hpet.c of 6.1 and 6.12, and 7.1's
 * rewrite):
 *   tsc=nowatchdog   no watchdog on the TSC; the boot-time sync check stays;
 *   tsc=reliable     that, and no sync check at boot or hotplug and no
 *                    periodic TSC_ADJUST check;
 *   tsc=unstable     the TSC is marked unstable at boot;
 *   tsc=watchdog     6.3-7.0: the TSC checks the HPET and PM timer;
 *                    7.1: the watchdog checks the TSC even where the
 *                    kernel would trust it;
 *   tsc=recalibrate  6.3 on: time the TSC against the HPET or PM timer even
 *                    when CPUID leaf 0x15 gives its rate;
 *   hpet=disable     no HPET at all, so the watchdog's reference becomes the
 *                    PM timer.
 * Parameters the 2026 watchdog dropped (clocksource.verify_n_cpus, the
 * maximum-skew build option) are never offered. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tools/doctor/doctor.h"

/* The cheaper of hpet and acpi_pm among the available ones: measured now,
 * else the bare log's reads; the kernel's own order (hpet rated 250,
 * acpi_pm 200) when neither was measured. */
static const char *cheaper_fallback(const struct doctor_inputs *in)
{
	const struct host_facts *h = in->h;
	bool any = h->navailable > 0;
	bool hp_ok = !any || host_has_cs(h, "hpet");
	bool pm_ok = !any || host_has_cs(h, "acpi_pm");
	double hp = costs_of(in->costs, "hpet");
	double pm = costs_of(in->costs, "acpi_pm");
	const struct bare_verdict *v = in->bare;

	/* A clocksource of the hypervisor's or the platform's own (kvm-clock,
	 * xen, sgi_rtc) stays: it is there because it is the better one. */
	if (h->current[0] && !doctor_is_tsc(h->current) && strcmp(h->current, "hpet") && strcmp(h->current, "acpi_pm"))
		return h->current;
	if ((hp < 0 || pm < 0) && v && v->cost[1].healthy && v->cost[2].healthy) {
		hp = v->cost[1].p50_ns;
		pm = v->cost[2].p50_ns;
	}
	if (in->attr && in->attr->known && !strcmp(in->attr->clock, "hpet") && pm_ok)
		return "acpi_pm";
	if (hp_ok && pm_ok)
		return pm >= 0 && hp >= 0 && pm < hp ? "acpi_pm" : "hpet";
	return hp_ok ? "hpet" : pm_ok ? "acpi_pm" : h->current;
}

static double bare_cost(const struct bare_verdict *v, const char *counter)
{
	for (int i = 0; v && i < 4; i++)
		if (v->cost[i].measured && !strcmp(v->cost[i].name, counter))
			return v->cost[i].p50_ns;
	return -1;
}

static void gain(const struct doctor_inputs *in, const char *from, const char *to, struct conclusion *c)
{
	double a = costs_of(in->costs, from);
	double b = costs_of(in->costs, to);
	const char *cf = verdict_counter_of(from);
	const char *ct = verdict_counter_of(to);

	if (!strcmp(from, to))
		return;
	if (a > 0 && b > 0) {
		snprintf(c->gain, sizeof c->gain, "clock_gettime %.0f ns → %.0f ns, %.1f× (%s on %s)", a, b, a / b,
			 from, to);
		return;
	}
	if (a > 0 && doctor_is_tsc(to) && in->costs->raw_tsc_ns > 0) {
		snprintf(c->gain, sizeof c->gain, "clock_gettime %.0f ns on %s, against %.0f ns for the TSC read itself: "
			 "up to %.0f× (tsc is not selectable now; on it clock_gettime adds the vDSO's conversion)",
			 a, from, in->costs->raw_tsc_ns, a / in->costs->raw_tsc_ns);
		return;
	}
	if (cf && ct && bare_cost(in->bare, cf) > 0 && bare_cost(in->bare, ct) > 0)
		snprintf(c->gain, sizeof c->gain, "the hardware read %.0f ns → %.0f ns, %.1f× (the bare log's %s "
			 "and %s; clock_gettime adds the kernel's share to both)", bare_cost(in->bare, cf),
			 bare_cost(in->bare, ct), bare_cost(in->bare, cf) / bare_cost(in->bare, ct), cf, ct);
}

static const char *nowatchdog_why(const struct kernel_facts *kf)
{
	if (kf->wd == WD_GEN_2026)
		return "no watchdog on the TSC: nothing can mark it for its reference's faults, but the 2026 "
		       "watchdog's check between the CPUs' TSCs then stops too (the boot-time sync check stays)";
	return "no watchdog on the TSC: its reference's faults can no longer mark it; the boot-time sync "
	       "check (tsc_sync.c) still runs";
}

/* Before 5.4 (commit 63ec58b44fcc, carried into the stable kernels of late
 * 2019) tsc=reliable and tsc=nowatchdog did not hold tsc-early: a mark of
 * tsc-early with either on the command line shows a kernel without it. */
static bool early_unheld(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	if (!s->mark || strcmp(s->mark->cs, "tsc-early") || in->kf->early_covered)
		return false;
	if (!s->reliable_on_cmdline && !s->nowatchdog_on_cmdline) {
		doctor_say(c, "The mark fell on tsc-early: before Linux 5.4 (commit 63ec58b44fcc, also in the stable "
			      "kernels of late 2019) tsc=reliable and tsc=nowatchdog did not hold tsc-early; %s.",
			   in->kf->version_known ? "check that this kernel has that commit" : "this kernel's version "
			   "is not known");
		return false;
	}
	snprintf(c->cause, sizeof c->cause, "kernel-fix");
	snprintf(c->summary, sizeof c->summary, "The TSC is reliable here, and %s is already on the command line, "
		 "yet the watchdog marked tsc-early: this kernel lacks the fix that made those parameters hold "
		 "tsc-early (Linux 5.4, commit 63ec58b44fcc, also in the stable kernels of late 2019). A kernel "
		 "with it keeps the TSC; no parameter does here.", s->reliable_on_cmdline ? "tsc=reliable" :
		 "tsc=nowatchdog");
	return true;
}

/* The weighing named the mark's reference: that clock drifts, not the TSC. */
static void reference_drift(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	const struct clock_attribution *a = in->attr;
	const char *ref = s->mark->ref;
	bool pm_agrees = !strcmp(ref, "hpet") && strstr(a->agree, "PM timer");

	snprintf(c->cause, sizeof c->cause, "reference-drift");
	if (pm_agrees) {
		doctor_add(c, "hpet=disable", "the HPET is the clock that is off (%.0f ppm %s): without it the watchdog "
			   "checks the TSC against the PM timer, which agrees with the TSC, so the TSC stays and is "
			   "still watched; the HPET then serves for nothing, neither clocksource nor timer",
			   fabs(a->ppm), a->ppm > 0 ? "fast" : "slow");
		doctor_alt(c, "tsc=nowatchdog", "%s", nowatchdog_why(in->kf));
	} else {
		doctor_add(c, "tsc=nowatchdog", "'%s' is the clock that is off, and no other reference can take its "
			   "place: %s", ref, nowatchdog_why(in->kf));
	}
	if (!strcmp(in->h->current, ref))
		doctor_say(c, "The kernel now keeps time with '%s', the clock that drifts: every interval it measures "
			      "is %.0f ppm off until the change.", ref, fabs(a->ppm));
	snprintf(c->summary, sizeof c->summary, "The TSC is reliable; the watchdog's reference, '%s', is the clock "
		 "that is off (%s %.0f ppm %s, weighed against the others), and the kernel blamed the TSC for it. %s",
		 ref, a->label, fabs(a->ppm), a->ppm > 0 ? "fast" : "slow", pm_agrees ? "Take the HPET away "
		 "(hpet=disable): the watchdog then checks the TSC against the PM timer, and the TSC stays." :
		 "Keep the watchdog off the TSC (tsc=nowatchdog).");
}

/* 5.14-7.0: the watchdog's own reads of its reference were held up. */
static void reference_delay(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	char took[48] = "was too slow";

	if (s->mark->has_value)
		snprintf(took, sizeof took, "took %.0f ns", s->mark->value);
	snprintf(c->cause, sizeof c->cause, "reference-delay");
	doctor_add(c, "tsc=nowatchdog", "the watchdog marked the TSC because its own read of '%s' %s, not for "
		   "any skew: SMIs, a busy hypervisor or a remote socket hold such reads up; the TSC itself is sound "
		   "(the bare-metal log); %s", s->mark->ref, took, nowatchdog_why(in->kf));
	snprintf(c->summary, sizeof c->summary, "The TSC is reliable; the kernel marked it because the watchdog's "
		 "read of '%s' was too slow, not because the TSC moved. Keep the watchdog off the TSC "
		 "(tsc=nowatchdog); the SMIs themselves still cost every CPU their time: a firmware setting or "
		 "update that makes them rarer is the lasting fix.", s->mark->ref);
}

/* A mark whose reference no weighing has named. */
static void unexplained_mark(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	const char *ref = s->mark->ref[0] ? s->mark->ref : "its reference";

	snprintf(c->cause, sizeof c->cause, "watchdog-unstable");
	if (!strcmp(ref, "refined-jiffies") || !strcmp(ref, "jiffies"))
		doctor_say(c, "So what failed was the reference: %s counts timer interrupts, and lost or late ones (a "
			      "long SMI, interrupts held off, a hypervisor that did not run the vCPU) make a good TSC "
			      "look skewed.", ref);
	else
		doctor_say(c, "So what failed was the watchdog's reference, not the TSC: a delayed %s read (an SMI, a "
			      "busy host, a hypervisor that stopped the vCPU between the two reads) or a %s that "
			      "drifted since boot makes a good TSC look skewed.", ref, ref);
	doctor_add(c, "tsc=nowatchdog", "the bare-metal log shows the TSC sound, so the mark was the reference's "
		   "doing: %s", nowatchdog_why(in->kf));
	if (in->kf->wd != WD_GEN_2026 && !s->reliable_on_cmdline)
		doctor_alt(c, "tsc=reliable", "also skips the boot-time sync check and the periodic TSC_ADJUST "
			   "check: only where, as here, a bare-metal log shows every CPU's TSC in step");
	snprintf(c->summary, sizeof c->summary, "The TSC is reliable here, but the watchdog marked it against "
		 "'%s': keep the watchdog off the TSC (tsc=nowatchdog) and switch to tsc.", ref);
}

static void runtime_cpu_skew(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	const struct klog_event *e = s->cpu_skew;

	c->exit_status = DOCTOR_HARDWARE;
	snprintf(c->cause, sizeof c->cause, "cpu-offset");
	snprintf(c->clocksource, sizeof c->clocksource, "%s",
		 doctor_is_tsc(in->h->current) ? cheaper_fallback(in) : in->h->current);
	if (s->reliable_on_cmdline)
		doctor_remove(c, "tsc=reliable", "it would stop the checks that caught the CPUs' TSCs drifting apart");
	if (s->nowatchdog_on_cmdline)
		doctor_remove(c, "tsc=nowatchdog", "it would stop the watchdog whose inter-CPU check caught the drift");
	snprintf(c->summary, sizeof c->summary, "The kernel's watchdog saw CPU%d's TSC lag CPU%d's by at least %llu "
		 "cycles while it ran: the TSCs drift apart, the fault the 2026 watchdog was written to catch "
		 "(firmware moving a TSC to hide the time of its SMIs).%s Keep the TSC off; a firmware (BIOS) "
		 "update, or a report to the vendor, is the fix.", e->cpu, e->cpu2, e->cycles[1] - e->cycles[0],
		 in->bare ? " The bare-metal run, brief and at boot, found them in step: it cannot refute a drift "
			    "that grows over hours." : "");
}

static void reliable_changes(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	if (s->param || s->param_on_cmdline) {
		snprintf(c->cause, sizeof c->cause, "boot-parameter");
		doctor_remove(c, "tsc=unstable", "it switches the TSC off at boot, before any check; the bare-metal "
			      "log shows it sound");
	}
	if (s->forced) {
		char p[64];
		snprintf(c->cause, sizeof c->cause, "boot-parameter");
		snprintf(p, sizeof p, "clocksource=%s", in->h->p_clocksource);
		doctor_remove(c, p, "it makes the kernel prefer %s over a TSC the bare-metal log shows sound",
			      in->h->p_clocksource);
	}
	if (early_unheld(in, s, c))
		return;
	if (s->mark && s->mark->kind == KE_READBACK_DELAY)
		reference_delay(in, s, c);
	else if (s->mark && s->ref_wrong)
		reference_drift(in, s, c);
	else if (s->mark)
		unexplained_mark(in, s, c);
	else if (s->idle) {
		c->exit_status = DOCTOR_NOTHING;
		snprintf(c->clocksource, sizeof c->clocksource, "%s", in->h->current);
		snprintf(c->cause, sizeof c->cause, "halts-in-idle");
		snprintf(c->summary, sizeof c->summary, "The kernel found the TSC stopping in idle (\"%s\"), yet the "
			 "bare-metal log's CPU says its TSC is invariant: the two saw different CPUID (a hypervisor's "
			 "CPU model, a firmware setting). Nothing to change until they agree; keep %s.",
			 s->idle->detail, in->h->current);
	} else if (s->sync) {
		snprintf(c->cause, sizeof c->cause, "sync-failed");
		doctor_add(c, "tsc=reliable", "the kernel's boot check saw a warp that the bare-metal measurement, with "
			   "its uncertainty, does not; only tsc=reliable skips that check (it also stops the watchdog "
			   "and the periodic TSC_ADJUST check on the TSC)");
	}
}

static void stale_params(const struct doctor_inputs *in, struct conclusion *c)
{
	if (in->kf->wd == WD_GEN_2026 && strstr(in->h->cmdline, "clocksource.verify_n_cpus="))
		doctor_remove(c, "clocksource.verify_n_cpus", "the watchdog rewritten in 2026 has no such parameter: "
			      "this kernel ignores it");
	if (strstr(in->h->p_tsc, "watchdog") && !strstr(in->h->p_tsc, "nowatchdog"))
		doctor_say(c, "tsc=watchdog on this kernel means %s.", in->kf->tsc_watchdog == TSCWD_ENFORCE ?
			   "\"enforce the clocksource watchdog on the TSC\" (7.1's meaning)" :
			   in->kf->tsc_watchdog == TSCWD_TSC_AS_WATCHDOG ? "\"use the TSC as the watchdog of the HPET "
			   "and PM timer\" (6.3 to 7.0)" : in->kf->tsc_watchdog == TSCWD_ABSENT ? "nothing: it came in "
			   "6.3" : "what its version gives it, which is not known");
}

void remedy_reliable(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	snprintf(c->clocksource, sizeof c->clocksource, "tsc");
	if (s->cpu_skew) {
		runtime_cpu_skew(in, s, c);
		stale_params(in, c);
		return;
	}
	if (s->using_tsc) {
		snprintf(c->cause, sizeof c->cause, "none");
		snprintf(c->summary, sizeof c->summary, "Nothing to change: the kernel uses %s and the hardware "
			 "says the TSC is reliable.%s", in->h->current, s->adjust ? " The firmware does write "
			 "TSC_ADJUST, and the kernel puts the values back: a firmware update, or a report to the "
			 "vendor, would stop those writes; tsc=reliable would stop the kernel's check of them." : "");
		stale_params(in, c);
		c->exit_status = c->nremove ? DOCTOR_CHANGE : DOCTOR_NOTHING;
		return;
	}
	c->exit_status = DOCTOR_CHANGE;
	reliable_changes(in, s, c);
	if (!c->nadd && !c->nremove && strcmp(c->cause, "kernel-fix") && strcmp(c->cause, "halts-in-idle")) {
		snprintf(c->cause, sizeof c->cause, "kernel-choice");
		doctor_add(c, "clocksource=tsc", "nothing in the log says why the kernel left the TSC, and the "
			   "bare-metal log shows it sound");
	}
	if (!c->summary[0])
		snprintf(c->summary, sizeof c->summary, "The TSC is reliable here, but the kernel uses %s: switch to "
			 "tsc.", in->h->current);
	stale_params(in, c);
	if (c->nadd || c->nremove)
		gain(in, in->h->current, "tsc", c);
}

static void unreliable_params(const struct doctor_inputs *in, const struct story *s, const char *best,
			      struct conclusion *c)
{
	if (s->reliable_on_cmdline)
		doctor_remove(c, "tsc=reliable", "it tells the kernel to trust a TSC the bare-metal log shows faulty, "
			      "and stops the kernel's own checks of it");
	if (doctor_is_tsc(in->h->p_clocksource))
		doctor_remove(c, "clocksource=tsc", "it asks for a TSC the bare-metal log shows faulty");
	if (s->using_tsc)
		doctor_add(c, "tsc=unstable", "the kernel still uses the TSC, whose fault its checks missed: marked "
			   "unstable at boot, it is never chosen");
	if (strcmp(in->h->current, best) && (strcmp(best, "hpet") || in->h->p_clocksource[0]) &&
	    (doctor_is_tsc(in->h->current) || !strcmp(in->h->current, "hpet") || !strcmp(in->h->current, "acpi_pm"))) {
		char p[64];
		snprintf(p, sizeof p, "clocksource=%s", best);
		doctor_add(c, p, "%s", in->attr && !strcmp(in->attr->clock, "hpet") ? "the HPET is off as well, and "
			   "the PM timer is not" : "the cheaper of the HPET and the PM timer here");
	}
}

static void idle_alternatives(const struct story *s, struct conclusion *c)
{
	doctor_alt(c, "processor.max_cstate=1", "the TSC stops in the deep C-states (\"%s\"): held out of them, "
		   "it keeps counting; the CPUs then draw more power when idle", s->idle->detail);
	doctor_alt(c, "intel_idle.max_cstate=1", "the same for intel_idle, the idle driver of Intel CPUs");
}

/* The TSC's own fault: the one the bare log shows first, with its remedy. */
static void tsc_fault(const struct doctor_inputs *in, const struct story *s, const char *best, struct conclusion *c)
{
	const struct bare_verdict *v = in->bare;
	const char *hv = v->hypervisor[0] ? v->hypervisor : NULL;

	if (v->sync == 0) {
		snprintf(c->cause, sizeof c->cause, "cpu-offset");
		snprintf(c->summary, sizeof c->summary, "The hardware is at fault: %s. The firmware sets or moves the "
			 "CPUs' TSCs unevenly%s: a firmware (BIOS) update, or a report to the vendor, may fix that; "
			 "until then keep the TSC off and use %s.", v->reason, s->adjust ? " (the kernel caught it "
			 "writing TSC_ADJUST)" : "", best);
		if (in->kf->wd == WD_GEN_2026 && s->using_tsc)
			doctor_alt(c, "tsc=watchdog", "7.1's meaning: enforce the watchdog on the TSC, whose check "
				   "between the CPUs marks it when they drift apart, instead of switching it off now");
		return;
	}
	if (v->invariant_known && !v->invariant) {
		snprintf(c->cause, sizeof c->cause, "%s", s->idle ? "halts-in-idle" : "not-invariant");
		snprintf(c->summary, sizeof c->summary, "The hardware is at fault: %s. %s Keep the TSC off and use %s.",
			 v->reason, hv ? "Under a hypervisor that flag is the virtual CPU's: where the host's CPU has "
			 "an invariant TSC, the virtual machine's CPU model can pass it on (QEMU: invtsc), with "
			 "migration only between equal hosts." : "That is the processor's design: no firmware "
			 "update adds a feature the CPU lacks.", best);
		if (s->idle)
			idle_alternatives(s, c);
		return;
	}
	snprintf(c->cause, sizeof c->cause, "tsc-rate");
	snprintf(c->summary, sizeof c->summary, "The hardware is at fault: %s. Which of the two clocks is wrong "
		 "cannot be told from two; keep the TSC off and use %s%s.", v->reason, best,
		 in->attr && !strcmp(in->attr->clock, "cpuid15") ? " (this kernel has no tsc=recalibrate: it came "
		 "in 6.3)" : "");
}

/* The TSC is sound, the rate CPUID leaf 0x15 states for it is not, and the
 * kernel can be told to measure it. */
static bool rate_fixable(const struct doctor_inputs *in)
{
	const struct bare_verdict *v = in->bare;

	return v->sync != 0 && !(v->invariant_known && !v->invariant) && in->attr && in->attr->known &&
	       !strcmp(in->attr->clock, "cpuid15") && in->kf->recalibrate;
}

static void recalibrate(const struct doctor_inputs *in, struct conclusion *c)
{
	c->exit_status = DOCTOR_CHANGE;
	snprintf(c->cause, sizeof c->cause, "tsc-rate");
	snprintf(c->clocksource, sizeof c->clocksource, "tsc");
	doctor_add(c, "tsc=recalibrate", "CPUID leaf 0x15 states a TSC rate %.0f ppm off what the clocks measure: "
		   "with it the kernel times the TSC against the HPET or PM timer instead", fabs(in->attr->ppm));
	snprintf(c->summary, sizeof c->summary, "The TSC is sound but the rate the CPU states for it is wrong (%s): "
		 "have the kernel measure it (tsc=recalibrate).", in->bare->reason);
}

void remedy_unreliable(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	const char *best = cheaper_fallback(in);

	if (rate_fixable(in)) {
		recalibrate(in, c);
		stale_params(in, c);
		return;
	}
	c->exit_status = DOCTOR_HARDWARE;
	snprintf(c->clocksource, sizeof c->clocksource, "%s", best);
	unreliable_params(in, s, best, c);
	tsc_fault(in, s, best, c);
	if (!s->using_tsc && !s->mark && !s->sync && !s->param && !s->cpu_skew && !s->idle && !s->other)
		doctor_say(c, "The kernel did not say why it left the TSC; the bare-metal log does.");
	else if (!s->using_tsc)
		doctor_say(c, "The kernel was right to withdraw the TSC: the bare-metal log shows the fault.");
	else
		doctor_say(c, "The kernel still uses the TSC: its checks missed what the bare-metal log shows.");
	stale_params(in, c);
	gain(in, in->h->current, c->clocksource, c);
}

static void unknown_parameters(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	char p[64];

	c->exit_status = DOCTOR_CHANGE;
	snprintf(c->cause, sizeof c->cause, "boot-parameter");
	snprintf(c->clocksource, sizeof c->clocksource, "tsc");
	if (s->param || s->param_on_cmdline)
		doctor_remove(c, "tsc=unstable", "it switches the TSC off before any check: without it the kernel's "
			      "own checks decide");
	if (s->forced) {
		snprintf(p, sizeof p, "clocksource=%s", in->h->p_clocksource);
		doctor_remove(c, p, "it overrides the kernel's own choice, which its checks make");
	}
	snprintf(c->summary, sizeof c->summary, "The TSC was switched off by a boot parameter, not by any check: "
		 "remove it and the kernel's own checks (tsc_sync.c at boot, the watchdog after) decide.");
	gain(in, in->h->current, "tsc", c);
}

void remedy_unknown(const struct doctor_inputs *in, const struct story *s, struct conclusion *c)
{
	snprintf(c->clocksource, sizeof c->clocksource, "%s", in->h->current);
	snprintf(c->next_step, sizeof c->next_step, "Boot tickprobe once on this machine for a bare-metal log: "
		 "`sudo tickprobe schedule --reboot` (the Debian package; it boots the probe once and comes "
		 "back), or the stick; its log lands in /boot/efi/tickprobe/logs or on the stick, where the "
		 "doctor finds it (or give --bare LOG).");
	if (s->cpu_skew) {
		runtime_cpu_skew(in, s, c);
	} else if (!s->using_tsc && (s->param || s->param_on_cmdline || s->forced)) {
		unknown_parameters(in, s, c);
	} else if (s->idle && !s->using_tsc) {
		idle_alternatives(s, c);
		c->exit_status = DOCTOR_HARDWARE;
		snprintf(c->cause, sizeof c->cause, "halts-in-idle");
		snprintf(c->summary, sizeof c->summary, "The kernel found the TSC stopping in deep C-states (\"%s\"): "
			 "keep %s; to keep the TSC instead, hold the CPUs out of those states.", s->idle->detail,
			 in->h->current);
	} else {
		snprintf(c->cause, sizeof c->cause, "%s", !s->mark ? (s->sync ? "sync-failed" : "none") :
			 s->mark->kind == KE_READBACK_DELAY ? "reference-delay" : "watchdog-unstable");
		if (s->using_tsc || (!s->mark && !s->sync && !s->other))
			snprintf(c->summary, sizeof c->summary, "Nothing to change: the kernel uses %s and reports no "
				 "trouble with the TSC.", in->h->current);
		else
			snprintf(c->summary, sizeof c->summary, "The kernel withdrew the TSC (%s), and without a "
				 "bare-metal log it cannot be told whether the TSC or the watchdog's reference failed: "
				 "keep %s for now.", s->mark ? klog_kind_name(s->mark->kind) : s->sync ? "sync-failed" :
				 s->other->detail, in->h->current);
	}
	stale_params(in, c);
	if (c->nremove && !c->exit_status)
		c->exit_status = DOCTOR_CHANGE;
}
