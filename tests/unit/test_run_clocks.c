/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's handling of the clocks that do not calibrate the TSC
 * (probe/run_clocks.c), on the simulated platform (sim_platform.h): an APIC-like
 * timer with no nominal rate, a 1 Hz register timed edge to edge (the RTC),
 * a counter only some machines have (a paravirtual clock), a device that
 * must be prepared before its reads, and a simulated APERF/MPERF.  The log
 * is read back through tools/lib/logread.h and its records looked at. */
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include "tests/unit/check.h"
#include "tests/unit/sim_platform.h"
#include "probe/exit_status.h"
#include "tools/lib/logread.h"
#include "probe/run.h"

/* The machine: a TSC, an HPET (32 bits only), an APIC-like timer that
 * needs its prepare, an RTC with its whole-time read, and a paravirtual
 * clock that is absent. */
static const struct counter_driver *const machine[] = { &sim_tsc_driver, &sim_hpet32_driver, &sim_apic_driver,
							 &sim_rtc_driver, &sim_kvm_driver };

/* ---- the log read back --------------------------------------------------- */

#define MAX_RECS 64
static struct {
	int n;
	char *line[MAX_RECS];
	char type[MAX_RECS][16], name[MAX_RECS][32];
	bool end_ok;
} got;
/* Parses go round a ring of documents, so that a record looked up stays
 * valid while the next few are. */
#define RING 4
#define RING_NODES 100000
#define RING_STRS (1u << 20)
static struct lr_doc doc[RING];
static int ring;
static struct lr_node *nodes;
static char *strs;

static void on_record(void *ctx, const struct lr_run *run, uint32_t line, const char *text, size_t len,
		      const struct lr_node *root)
{
	const char *name = lr_str(lr_get(root, "name"));

	(void)ctx;
	(void)run;
	(void)line;
	if (got.n == MAX_RECS)
		return;
	snprintf(got.type[got.n], sizeof got.type[0], "%s", lr_str(lr_get(root, "type")));
	snprintf(got.name[got.n], sizeof got.name[0], "%s", name ? name : "");
	got.line[got.n++] = strndup(text, len);
}
static void on_problem(void *ctx, const struct lr_run *run, uint32_t line, int sev, const char *msg)
{
	(void)ctx;
	(void)run;
	(void)line;
	(void)sev;
	printf("log problem: %s\n", msg);
}

static void on_end(void *ctx, const struct lr_run *run)
{
	(void)ctx;
	got.end_ok = run->end_ok && !run->damaged;
}

/* The timer record of this name, or the first record of this type. */
static const struct lr_node *rec(const char *type, const char *name)
{
	for (int i = 0; i < got.n; i++)
		if (!strcmp(got.type[i], type) && (!name || !strcmp(got.name[i], name))) {
			struct lr_doc *d = &doc[ring = (ring + 1) % RING];
			lr_doc_init(d, nodes + RING_NODES * (d - doc), RING_NODES, strs + RING_STRS * (d - doc), RING_STRS);
			return lr_parse(d, got.line[i], strlen(got.line[i]));
		}
	return NULL;
}
static double num(const struct lr_node *r, const char *path)
{
	double v;
	return r && lr_num(lr_path(r, path), &v) ? v : NAN;
}
static bool is_null(const struct lr_node *r, const char *path)
{
	const struct lr_node *n = r ? lr_path(r, path) : NULL;
	return n && n->kind == LR_NULL;
}
static const char *str(const struct lr_node *r, const char *path)
{
	const char *s = r ? lr_str(lr_path(r, path)) : NULL;
	return s ? s : "";
}

static void run(const char *cmdline, bool core)
{
	static struct platform p;
	static char buf[LR_LINE_MAX + 1];
	static struct logread lr;
	struct lr_sink sink = { .record = on_record, .problem = on_problem, .run_end = on_end };
	struct lr_node *rnodes = malloc(100000 * sizeof *rnodes);
	char *rstrs = malloc(1u << 20);

	for (int i = 0; i < got.n; i++)
		free(got.line[i]);
	memset(&got, 0, sizeof got);
	sim.has_aperf_mperf = core;
	sim_platform(&p, cmdline, machine, sizeof machine / sizeof machine[0]);
	p.brackets = sim_flat_bracket;
	p.n_brackets = 1;
	p.clock.core_clock_none = core ? NULL : "none: simulated CPU without APERF/MPERF";
	sim_boot(&p);
	lr_init(&lr, buf, sizeof buf, rnodes, 100000, rstrs, 1u << 20, &sink);
	lr_feed(&lr, sim.log, sim.log_len);
	lr_finish(&lr);
	free(rnodes);
	free(rstrs);
}

#define OPTS "samples=1000 rounds=10 calib_ms=20 "

/* ---- the cases ----------------------------------------------------------- */

static void test_rates_and_absent(void)
{
	const struct lr_node *t;
	double hz, err;

	sim_reset();
	run(OPTS, true);
	check(got.end_ok, "clocks: the log reads back whole (%d records)", got.n);
	check(COND(!strcmp(str(rec("end", NULL), "status"), "ok")) && COND(sim.exit_code == EXIT_CODE_OK),
	      "clocks: a counter absent by design leaves the run ok (%s)", str(rec("end", NULL), "status"));
	/* Absent by design and not asked for: no timer record, its reason in
	 * the plan's absent instead. */
	t = rec("plan", NULL);
	check(COND(!rec("timer", "kvm")) && COND(t) && COND(lr_path(t, "absent")) &&
		      COND(lr_path(t, "absent")->kind == LR_OBJ) && COND(lr_path(t, "absent")->len == 1) &&
		      COND(!strcmp(str(t, "absent.kvm"), "simulated: no hypervisor")),
	      "clocks: no timer record for it; the plan's absent lists it with its reason (%s)", str(t, "absent.kvm"));
	check(COND(rec("timer", "hpet")) && COND(rec("timer", "apic")) && COND(rec("timer", "rtc")) &&
		      COND(rec("timer", "rtc-time")) && COND(rec("timer", "tsc")),
	      "clocks: every counter that is there still has its timer record");
	check(COND(sim.screen) && COND(strstr(sim.screen, "absent by design: kvm\n")) &&
		      COND(!strstr(sim.screen, "kvm           skipped")) && COND(!strstr(sim.screen, "\nkvm ")),
	      "clocks: on screen it is one name in the 'absent by design' line, not a row or a 'skipped' line");

	t = rec("timer", "apic");
	hz = num(t, "freq.measured_hz");
	err = num(t, "freq.err_ppm");
	check(COND(is_null(t, "freq.nominal_hz")) && COND(is_null(t, "freq.ppm")) &&
		      COND(fabs(hz / 25e6 - 1) * 1e6 <= err + 1),
	      "clocks: a rated counter with no nominal rate: measured %.1f Hz (+/- %.2f ppm) against the TSC, nominal and ppm null",
	      hz, err);
	check(COND(sim.apic_unready_reads == 0) && COND(sim.prepared >= 4) && COND(sim.settled >= 3),
	      "clocks: the prepare hook ran before every use (check, rate, plan, measurement: %d calls, %d settles), no read unprepared (%llu)",
	      sim.prepared, sim.settled, (unsigned long long)sim.apic_unready_reads);

	t = rec("timer", "rtc");
	hz = num(t, "freq.measured_hz");
	err = num(t, "freq.err_ppm");
	/* Each edge is known to within two polls of 100 us: 200 ppm a second. */
	check(COND(num(t, "samples") > 0) && COND(!lr_path(t, "healthy")) && COND(num(t, "freq.nominal_hz") == 1) &&
		      COND(fabs(num(t, "freq.ppm")) <= err + 1) && COND(err > 150) && COND(err < 250),
	      "clocks: a 1 Hz register is timed edge to edge: %.1f ppm +/- %.2f (two 100 us polls an edge)",
	      num(t, "freq.ppm"), err);
	check(COND(is_null(t, "delta")) && COND(num(rec("timer", "rtc-time"), "freq.ppm") == num(t, "freq.ppm")),
	      "clocks: no delta summary for it (not a counter); rtc-time has the rtc's rate (rate_from)");
	/* All 100 taken: samples_requested, equal to samples, is not written. */
	check(COND(num(t, "samples") == 1000) && COND(t = rec("timer", "rtc-time")) && COND(num(t, "samples") == 100) &&
		      COND(!lr_path(t, "samples_requested")),
	      "clocks: samples_div 10: rtc-time takes 100 of the 1000 samples");

	t = rec("timer", "hpet");
	check(COND(fabs(num(t, "core_clock.ratio") - 1.25) < 1e-3) &&
		      COND(fabs(num(t, "core_clock.effective_hz") / 1.25e9 - 1) < 1e-4) &&
		      COND(num(t, "cost_cycles.p50") == 80) && COND(fabs(num(t, "cost_core_cycles.p50") - 100) < 0.1),
	      "core clock: APERF/MPERF around the block: ratio %.4f, %.0f Hz, p50 %.1f core cycles for %.0f TSC cycles",
	      num(t, "core_clock.ratio"), num(t, "core_clock.effective_hz"), num(t, "cost_core_cycles.p50"),
	      num(t, "cost_cycles.p50"));
	check(strstr(sim.screen, "core clock: APERF/MPERF 1.250..1.250 of the TSC") != NULL,
	      "core clock: the screen says the ratio seen");

	sim_reset();
	run(OPTS "counters=kvm,apic", true);
	check(COND(!strcmp(str(rec("end", NULL), "status"), "ok-absent")) &&
		      COND(sim.exit_code == EXIT_CODE_OK_ABSENT) && COND(strstr(sim.screen, "\nkvm ")) &&
		      COND(strstr(sim.screen, "kvm           skipped: simulated")),
	      "clocks: named in counters=, the same absent counter makes the run ok-absent, with its row and reason");
	t = rec("timer", "kvm");
	check(COND(t) && COND(lr_path(t, "present")->kind == LR_BOOL) && COND(!lr_true(lr_path(t, "present"))) &&
		      COND(!strcmp(str(t, "reason"), "simulated: no hypervisor")) && COND(num(t, "samples") == 0) &&
		      COND(rec("plan", NULL)) && COND(lr_path(rec("plan", NULL), "absent")) &&
		      COND(lr_path(rec("plan", NULL), "absent")->len == 0),
	      "clocks: asked for with counters=, it gets its timer record (absent, with its reason), not the plan's absent");

	sim_reset();
	sim.kvm_failed = true;
	run(OPTS, true);
	check(COND(!strcmp(str(rec("end", NULL), "status"), "ok-absent")) &&
		      COND(strstr(sim.screen, "kvm           skipped: simulated: the page stayed empty")) &&
		      COND(!strstr(sim.screen, "absent by design")),
	      "clocks: absent because something failed (not by design), it makes the run ok-absent even unasked");
	t = rec("timer", "kvm");
	check(COND(t) && COND(!lr_true(lr_path(t, "present"))) &&
		      COND(!strcmp(str(t, "reason"), "simulated: the page stayed empty")) && COND(rec("plan", NULL)) &&
		      COND(!lr_path(rec("plan", NULL), "absent.kvm")),
	      "clocks: absent by a failure, it keeps its timer record and is not in the plan's absent");
}

static void test_stuck_rtc(void)
{
	const struct lr_node *t;
	const char *why;
	unsigned long long reads = 0, cycles = 0;

	sim_reset();
	run(OPTS "stuck=rtc", true);
	t = rec("timer", "rtc");
	why = str(t, "reason");
	sscanf(strstr(why, "for ") ? strstr(why, "for ") : "", "for %llu reads, %llu TSC cycles", &reads, &cycles);
	/* The bound: 1.25 s of the 1 GHz TSC, or as many polls as 1.25e9
	 * cycles hold at 1024 cycles a poll (the stuck read here takes no
	 * simulated time, so the polls' bound ends it). */
	check(COND(!lr_true(lr_path(t, "healthy"))) && COND(strstr(why, "rtc does not tick (stuck at 0x34")) &&
		      COND(strstr(why, "the bound is 1.25 s")) &&
		      COND((cycles >= 1250000000ull && cycles < 1260000000ull) || (reads > 1220000 && reads < 1222000)),
	      "stuck=rtc: unhealthy at the bound of 1.25 s or its polls: %s", why);
	check(COND(!lr_true(lr_path(rec("timer", "rtc-time"), "healthy"))) &&
		      COND(!strncmp(str(rec("timer", "rtc-time"), "reason"), "rtc: ", 5)),
	      "stuck=rtc: rtc-time, which needs the rtc's rate, is unhealthy too (%s)",
	      str(rec("timer", "rtc-time"), "reason"));
	check(!strcmp(str(rec("end", NULL), "status"), "ok-absent"), "stuck=rtc: status ok-absent");
}

static void test_no_core_clock(void)
{
	const struct lr_node *t;

	sim_reset();
	run(OPTS "counters=hpet", false);
	t = rec("timer", "hpet");
	check(COND(t) && COND(lr_path(t, "cost_cycles")) && COND(!lr_path(t, "core_clock")) &&
		      COND(!lr_path(t, "cost_core_cycles")) &&
		      COND(strstr(sim.screen, "core clock: none: simulated CPU without APERF/MPERF")),
	      "core clock: none: no core_clock, no cost_core_cycles, the reason on screen");
	sim_reset();
	sim.frozen_mperf = true;
	run(OPTS "counters=hpet", true);
	t = rec("timer", "hpet");
	check(COND(num(t, "core_clock.mperf") == 0) && COND(is_null(t, "core_clock.ratio")) &&
		      COND(is_null(t, "core_clock.effective_hz")) && COND(!lr_path(t, "cost_core_cycles")),
	      "core clock: MPERF frozen: its delta 0, ratio and frequency null, no cost in core cycles");
}

int main(void)
{
	nodes = malloc(RING * RING_NODES * sizeof *nodes);
	strs = malloc(RING * RING_STRS);
	test_rates_and_absent();
	test_stuck_rtc();
	test_no_core_clock();
	return check_done();
}
