/* SPDX-License-Identifier: BSD-2-Clause */
/* The whole run (probe/run.c) on the simulated platform (sim_platform.h):
 * simulated counters behind the platform interface, a console that captures
 * the log, and a halt that returns to the test.  Each case reads
 * the log back through tools/lib/logread.h, whose checks (every record's crc,
 * the end record's count and crc32) must pass, then looks at the records. */
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include "tests/unit/check.h"
#include "tests/unit/sim_platform.h"
#include "probe/exit_status.h"
#include "tools/lib/logread.h"
#include "probe/run.h"
#include "tools/lib/logderived.h"
#include "tests/unit/json_path.h"

/* ---- reading the log back ---------------------------------------------- */

#define MAX_RECS 256
static struct {
	int n;
	char *line[MAX_RECS];
	char type[MAX_RECS][16], name[MAX_RECS][32];
	bool end_ok, damaged;
	int problems;
} got;
/* Parses go round a ring of documents, so that the last few stay valid
 * while the next are looked at. */
#define RING 4
static struct lr_node *nodes;
static char *strs;
static struct lr_doc doc[RING];
static int ring;

static void on_record(void *ctx, const struct lr_run *run, uint32_t line, const char *text, size_t len,
		      const struct lr_node *root)
{
	(void)ctx;
	(void)run;
	(void)line;
	if (got.n == MAX_RECS)
		return;
	got.line[got.n] = strndup(text, len);
	snprintf(got.type[got.n], 16, "%s", lr_str(lr_get(root, "type")));
	snprintf(got.name[got.n], 32, "%s", lr_str(lr_get(root, "name")) ? lr_str(lr_get(root, "name")) : "");
	got.n++;
}
static void on_problem(void *ctx, const struct lr_run *run, uint32_t line, int sev, const char *msg)
{
	(void)ctx;
	(void)run;
	(void)line;
	(void)sev;
	printf("log problem: %s\n", msg);
	got.problems++;
}
static void on_end(void *ctx, const struct lr_run *run)
{
	(void)ctx;
	got.end_ok = run->end_ok;
	got.damaged = run->damaged;
}

/* The record of this type (and name, when given); NULL if none. */
static const struct lr_node *rec(const char *type, const char *name)
{
	for (int i = 0; i < got.n; i++)
		if (!strcmp(got.type[i], type) && (!name || !strcmp(got.name[i], name))) {
			struct lr_doc *d = &doc[ring = (ring + 1) % RING];
			lr_doc_init(d, nodes + 25000 * (d - doc), 25000, strs + (1u << 18) * (d - doc), 1u << 18);
			return lr_parse(d, got.line[i], strlen(got.line[i]));
		}
	return NULL;
}

static int pos(const char *type, const char *name)
{
	for (int i = 0; i < got.n; i++)
		if (!strcmp(got.type[i], type) && (!name || !strcmp(got.name[i], name)))
			return i;
	return -1;
}

static double num(const struct lr_node *r, const char *path)
{
	double v;
	return r && lr_num(path_at(r, path), &v) ? v : NAN;
}

static const char *str(const struct lr_node *r, const char *path) { const char *s = r ? lr_str(path_at(r, path)) : NULL; return s ? s : ""; }
static bool truth(const struct lr_node *r, const char *path) { const struct lr_node *n = r ? path_at(r, path) : NULL; return n && n->kind == LR_BOOL && n->b; }
/* A measured timer record: samples > 0, present and healthy left implied. */
static bool measured(const struct lr_node *t)
{
	return t && num(t, "samples") > 0 && !path_at(t, "healthy") && !path_at(t, "present");
}

/* The simulated machine: a TSC, an HPET, a PM timer and an i8254 with two
 * bare port accesses; names, the timer records' order. */
static const struct counter_driver *const machine[] = { &sim_tsc_driver, &sim_hpet_driver, &sim_pm_driver,
							 &sim_pit_driver };
static const char *const names[] = { "tsc", "hpet", "hpet64", "acpi-fast", "i8254", "i8254-inb40", "port80" };
#define N_NAMES (int)(sizeof names / sizeof names[0])

/* What the platform says of the network console (probe/platform.h): both
 * NULL but in test_net. */
static struct {
	const char *url, *problem;
} net_in;

/* Boots the simulated machine with these options; the log is then in got. */
static void run(const char *cmdline)
{
	static struct platform p;
	static char buf[LR_LINE_MAX + 1];
	static struct logread lr;
	struct lr_sink sink = { .record = on_record, .problem = on_problem, .run_end = on_end };
	struct lr_node *rnodes = malloc(200000 * sizeof *rnodes);
	char *rstrs = malloc(1u << 20);

	for (int i = 0; i < got.n; i++)
		free(got.line[i]);
	memset(&got, 0, sizeof got);
	sim_platform(&p, cmdline, machine, sizeof machine / sizeof machine[0]);
	sim.facts.net = net_in.url;
	sim.facts.net_problem = net_in.problem;
	sim_boot(&p);
	lr_init(&lr, buf, sizeof buf, rnodes, 200000, rstrs, 1u << 20, &sink);
	lr_feed(&lr, sim.log, sim.log_len);
	lr_finish(&lr);
	free(rnodes);
	free(rstrs);
}

#define OPTS "serial=0x3f8 samples=1000 rounds=10 calib_ms=20 "

/* ---- the cases ----------------------------------------------------------- */

static void test_whole_run(void)
{
	static const char *const order[] = { "begin", "machine", "acpi", "tsc", "overhead", "plan" };
	bool ok = true;
	int k = 0;

	sim_reset();
	run(OPTS "raw=150");
	check(COND(got.end_ok) && COND(!got.damaged) && COND(!got.problems) && COND(sim.ends == 1),
	      "run: the log reads back whole (%d records, every crc, end count and crc32)", got.n);
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		ok &= k < got.n && !strcmp(got.type[k++], order[i]);
	for (int i = 0; i < N_NAMES; i++) {
		ok &= k < got.n && !strcmp(got.type[k], "timer") && !strcmp(got.name[k], names[i]);
		k++;
		ok &= k < got.n && !strcmp(got.type[k], "samples") && !strcmp(got.name[k], names[i]);
		k++;
	}
	ok &= k == got.n - 1 && !strcmp(got.type[k], "end");
	check(ok, "run: records in order: begin machine acpi tsc overhead plan, then timer and samples of each counter in table order, end");
	check(COND(!strcmp(str(rec("end", NULL), "status"), "ok")) && COND(sim.exit_code == EXIT_CODE_OK),
	      "run: status ok, exit code 0x%x", sim.exit_code);
	ok = true;
	for (int i = 0; i < N_NAMES; i++)
		ok &= measured(rec("timer", names[i]));
	check(ok, "run: every simulated counter is healthy and measured");
	check(fabs(num(rec("tsc", NULL), "hz") - 1e9) <= num(rec("tsc", NULL), "error_ppm") * 1e3 + 1,
	      "run: the TSC calibrates to the simulated 1 GHz (%.0f Hz from %s)", num(rec("tsc", NULL), "hz"),
	      str(rec("tsc", NULL), "source"));
	check(COND(num(rec("timer", "hpet64"), "freq.measured_hz") > 0) &&
		      COND(isnan(num(rec("timer", "tsc"), "freq.ppm"))) &&
		      COND(num(rec("timer", "i8254-inb40"), "width") != num(rec("timer", "i8254-inb40"), "width")),
	      "run: hpet64 gets its rate from the HPET's calibration; the TSC and a port access get none");
	check(COND(strstr(sim.screen, "counter ")) && COND(strstr(sim.screen, "run ended, status ok")) &&
		      COND(!strstr(sim.screen, "{\"type\"")),
	      "run: the screen gets the text and the table, never a record");
}

static void test_bracket_choice(void)
{
	const struct lr_node *o;

	sim_reset();
	sim.a_jitters = true; /* A: smaller minimum, but its per-round minimum moves */
	run(OPTS "counters=tsc");
	o = rec("overhead", NULL);
	check(COND(!strcmp(str(o, "sequence"), "B")) && COND(num(o, "subtracted") == 60) &&
		      COND(num(o, "candidates.0.round_min_spread") > 0) &&
		      COND(num(o, "candidates.1.round_min_spread") == 0) && COND(num(o, "cycles.min") == 60),
	      "bracket: the still one wins over a smaller minimum that moves (%s, subtracted %.0f)", str(o, "sequence"),
	      num(o, "subtracted"));
	/* The overhead is the overhead record's subtracted (60, above), not
	 * written again in the timer record. */
	check(COND(rec("timer", "tsc")) && COND(!path_at(rec("timer", "tsc"), "overhead_cycles")) &&
		      COND(num(rec("timer", "tsc"), "cost_cycles.max") == 0) &&
		      COND(num(rec("timer", "tsc"), "samples") == 1000),
	      "bracket: its minimum is taken off every sample");
	sim_reset();
	run(OPTS "counters=tsc");
	o = rec("overhead", NULL);
	check(COND(!strcmp(str(o, "sequence"), "A")) && COND(num(o, "subtracted") == 40) &&
		      COND(num(o, "cycles.min") == 40) && COND(num(o, "samples") == 1000),
	      "bracket: equally still: the smaller minimum wins, and its histogram is the one recorded");
	sim_reset();
	sim.n_brackets = 1;
	run(OPTS "counters=tsc");
	o = rec("overhead", NULL);
	check(COND(!strcmp(str(o, "sequence"), "B")) && COND(lr_path(o, "candidates")->len == 1),
	      "bracket: a CPU with one bracket (no RDTSCP) measures that one only");
}

static void test_absent_and_stuck(void)
{
	const struct lr_node *t;

	sim_reset();
	sim.absent[S_HPET] = sim.absent[S_HPET64] = true;
	sim.ctr[S_PM].kind = SIM_CONST;
	sim.ctr[S_PM].value = 0x1234;
	run(OPTS);
	t = rec("timer", "hpet");
	check(COND(t) && COND(!truth(t, "present")) && COND(!truth(t, "healthy")) &&
		      COND(strstr(str(t, "reason"), "not there")) && COND(num(t, "samples") == 0),
	      "absent: hpet is absent with its reason (%s), nothing measured", str(t, "reason"));
	t = rec("timer", "acpi-fast");
	check(COND(t) && COND(truth(t, "present")) && COND(!truth(t, "healthy")) &&
		      COND(strstr(str(t, "reason"), "does not count")),
	      "stuck: a counter that does not move is unhealthy: %s", str(t, "reason"));
	check(COND(!strcmp(str(rec("tsc", NULL), "source"), "pit")) &&
		      COND(!lr_path(rec("tsc", NULL), "sources.hpet")) &&
		      COND(!lr_path(rec("tsc", NULL), "sources.pm_timer")),
	      "absent: the TSC is calibrated by the one calibrator left (%s)", str(rec("tsc", NULL), "source"));
	check(COND(!strcmp(str(rec("end", NULL), "status"), "ok-absent")) && COND(sim.exit_code == EXIT_CODE_OK_ABSENT),
	      "absent: status ok-absent, exit code 0x%x", sim.exit_code);
	check(COND(measured(rec("timer", "tsc"))) && COND(pos("timer", "port80") > pos("timer", "hpet")),
	      "absent: the others are measured as usual");

	sim_reset();
	run(OPTS "stuck=i8254");
	t = rec("timer", "i8254");
	check(COND(t) && COND(strstr(str(t, "reason"), "stuck at 0x1234")) &&
		      COND(strstr(sim.screen, "stuck=i8254: its reads now return a constant")),
	      "stuck=: the named counter reads a constant and fails its check");
	t = rec("timer", "i8254-inb40");
	check(COND(t) && COND(!truth(t, "healthy")) && COND(!strncmp(str(t, "reason"), "i8254: ", 7)) &&
		      COND(measured(rec("timer", "port80"))),
	      "stuck=: a port access that needs the broken PIT is not timed (%s); port80 is", str(t, "reason"));
}

/* The TSC's timer record as the host reader (tools/lib/logderived.c) sees it
 * with the run's hz: true when cost_ns is there and is cost_cycles at that
 * rate, to 1 decimal (the writer writes the cycles only). */
static bool ns_through_reader(double hz)
{
	struct lr_node *t = (struct lr_node *)rec("timer", "tsc");
	struct derived d;
	double cyc, ns, reads, rate;
	bool ok;

	if (!measured(t) || path_at(t, "cost_ns"))
		return false;
	derived_add(&d, t, hz);
	ok = path_at(t, "cost_ns") && path_at(t, "cost_ns")->kind == LR_OBJ && lr_num(path_at(t, "cost_cycles.p50"), &cyc) &&
	     lr_num(path_at(t, "cost_ns.p50"), &ns) && fabs(ns - cyc * 1e9 / hz) <= 0.05 &&
	     lr_num(path_at(t, "cost_ns.max"), &ns) && lr_num(path_at(t, "cost_cycles.max"), &cyc) &&
	     fabs(ns - cyc * 1e9 / hz) <= 0.05;
	/* The simulated TSC read costs 0 cycles once the overhead is off, so
	 * the rate is what shows the hz was used. */
	ok &= lr_num(path_at(t, "throughput.reads"), &reads) && lr_num(path_at(t, "throughput.cycles"), &cyc) && cyc > 0 &&
	      lr_num(path_at(t, "throughput.reads_per_s"), &rate) && rate > 0 && fabs(rate - reads * hz / cyc) <= 0.05;
	if (ok)
		printf("tsc p50 %.0f cycles at %.0f Hz: %.1f ns, %.1f reads/s\n", num(t, "cost_cycles.p50"), hz,
		       num(t, "cost_ns.p50"), rate);
	derived_free(&d);
	return ok;
}

static void test_tsc_fallback(void)
{
	const struct lr_node *t;

	sim_reset();
	sim.absent[S_HPET] = sim.absent[S_HPET64] = sim.absent[S_PM] = sim.absent[S_PIT] = true;
	sim.claims = (struct tsc_claims){ .cpuid15_hz = 2400000000ull, .cpuid16_hz = 2600000000ull };
	run(OPTS);
	t = rec("tsc", NULL);
	check(COND(num(t, "hz") == 2400000000.0) && COND(!strcmp(str(t, "source"), "cpuid15")) &&
		      COND(path_at(t, "error_ppm")->kind == LR_NULL) && COND(num(t, "sources.cpuid16") == 2600000000.0),
	      "tsc: no counter calibrates: CPUID 0x15's word, with an unknown error");
	check(ns_through_reader(num(t, "hz")), "tsc: costs in ns from CPUID's frequency, through the host reader");
	sim_reset();
	sim.absent[S_HPET] = sim.absent[S_HPET64] = sim.absent[S_PM] = sim.absent[S_PIT] = true;
	run(OPTS);
	t = rec("tsc", NULL);
	check(COND(path_at(t, "hz")) && COND(path_at(t, "hz")->kind == LR_NULL) &&
		      COND(!strcmp(str(t, "source"), "none")) && COND(!ns_through_reader(0)) &&
		      COND(strstr(sim.screen, "frequency unknown")),
	      "tsc: nothing states it: hz null, no cost_ns even through the host reader, said on screen");
}

static void test_plan(void)
{
	const struct lr_node *p;
	double hz, want[2], total;
	int ids[2] = { S_HPET, S_PM };
	bool ok = true;

	sim_reset();
	sim.ctr[S_HPET].read_cost = 100000; /* 100 us a read */
	sim.ctr[S_PM].read_cost = 50000;    /* 50 us a read */
	run(OPTS "counters=hpet,acpi-fast");
	p = rec("plan", NULL);
	hz = num(rec("tsc", NULL), "hz");
	/* 256 bracketed reads timed between two TSC reads (each 10 simulated
	 * cycles), a block of 256 (7 cycles each plus 3), scaled to 1000 samples
	 * and 10000 + 16384 throughput and delta reads. */
	for (int i = 0; i < 2; i++) {
		double bracketed = 256.0 * (double)sim.ctr[ids[i]].read_cost + 10, bare = 7 * 256 + 3;
		want[i] = (bracketed * 1000 + bare * (10000 + 16384)) / 256.0 / hz;
		ok &= fabs(num(p, i ? "estimate_s.acpi-fast" : "estimate_s.hpet") - want[i]) <= 0.0005;
	}
	total = num(p, "total_s");
	check(COND(ok) && COND(fabs(total - want[0] - want[1]) <= 0.001) && COND(lr_path(p, "estimate_s")->len == 2),
	      "plan: the estimate of each counter measured follows from its read cost (%.3f s, %.3f s, total %.3f s)",
	      want[0], want[1], total);
}

static void test_unknown_names(void)
{
	const struct lr_node *b;

	sim_reset();
	run(OPTS "counters=hpte");
	b = rec("begin", NULL);
	check(COND(strstr(str(b, "option_problems.0"), "unknown counter 'hpte'")) &&
		      COND(strstr(str(b, "option_problems.0"),
				  "tsc, hpet, hpet64, acpi-fast, i8254, i8254-inb40, port80")) &&
		      COND(strstr(sim.screen, "tickprobe: option counters: unknown counter 'hpte'")),
	      "options: counters=hpte is a problem that lists the names, in the log and on screen: %s",
	      str(b, "option_problems.0"));
	check(COND(pos("timer", "tsc") > 0) && COND(pos("timer", "port80") > 0) &&
		      COND(!strcmp(str(b, "options.counters.0"), "all")),
	      "options: with no known name the default is kept: every counter is measured");
	sim_reset();
	run(OPTS "counters=hpet,hpte stuck=hpte");
	b = rec("begin", NULL);
	check(COND(pos("timer", "hpet") > 0) && COND(pos("timer", "tsc") < 0) &&
		      COND(strstr(str(b, "option_problems.0"), "'hpte'")) &&
		      COND(strstr(str(b, "option_problems.1"), "option stuck: unknown counter 'hpte'")) &&
		      COND(!strcmp(str(b, "options.counters.0"), "hpet")),
	      "options: the known names are measured, the unknown reported, stuck=hpte too");
}

static void test_exceptions(void)
{
	const struct lr_node *e;
	uint64_t reads;

	sim_reset();
	run(OPTS "counters=hpet fault=gp");
	e = rec("exception", NULL);
	check(COND(e) && COND(num(e, "vector") == 13) && COND(!strcmp(str(e, "step"), "hpet")) &&
		      COND(pos("timer", "hpet") >= 0) && COND(pos("exception", NULL) == pos("timer", "hpet") + 1) &&
		      COND(pos("end", NULL) == pos("exception", NULL) + 1),
	      "fault=gp with counters=hpet: the exception follows hpet's record (step %s)", str(e, "step"));
	check(COND(!strcmp(str(rec("end", NULL), "status"), "failed")) && COND(sim.exit_code == EXIT_CODE_FAILED) &&
		      COND(got.end_ok),
	      "fault: status failed, exit code 0x%x, the log whole", sim.exit_code);

	sim_reset();
	run(OPTS "fault=pf counters=port80");
	e = rec("exception", NULL);
	check(COND(e) && COND(num(e, "vector") == 14) && COND(!strcmp(str(e, "step"), "port80")),
	      "fault=pf with counters=port80: vector 14 after port80");

	/* The platform's hook called in the middle of a measurement: the
	 * simulation is deterministic, so a run without it tells how many PIT
	 * reads there are; the last 2000 are its measurement and delta reads. */
	sim_reset();
	run(OPTS);
	reads = sim.ctr[S_PIT].reads;
	sim_reset();
	sim.bomb_after = reads - 500;
	run(OPTS);
	e = rec("exception", NULL);
	check(COND(e) && COND(num(e, "vector") == 6) && COND(!strcmp(str(e, "step"), "i8254")) &&
		      COND(pos("timer", "acpi-fast") >= 0) && COND(pos("timer", "i8254") < 0) &&
		      COND(pos("exception", NULL) == pos("timer", "acpi-fast") + 1) &&
		      COND(!strcmp(str(rec("end", NULL), "status"), "failed")) && COND(got.end_ok),
	      "exception mid-run: the records before it are kept, then exception (step %s) and a failed end",
	      str(e, "step"));
	check(COND(strstr(sim.screen, "CPU exception #UD invalid opcode")) && COND(strstr(sim.screen, "during: i8254")),
	      "exception mid-run: said on screen");

	sim_reset();
	sim.bomb_in_hpet_setup = true;
	run(OPTS);
	e = rec("exception", NULL);
	check(COND(e) && COND(!strcmp(str(e, "step"), "HPET setup")) && COND(pos("acpi", NULL) >= 0) &&
		      COND(pos("tsc", NULL) < 0),
	      "exception in a device's setup: the step names the device (%s)", str(e, "step"));
}

/* begin.net and begin.net_problem: always there, null when the platform has
 * nothing to say, and the screen says the same. */
static void test_net(void)
{
	static const char url[] = "http://10.0.2.2:8514/log";
	static const char why[] = "the collector at http://10.0.2.2:8514/log refused the token (HTTP 403)";
	const struct lr_node *b, *n, *w;

	sim_reset();
	run(OPTS "counters=tsc");
	b = rec("begin", NULL);
	n = path_at(b, "net");
	w = path_at(b, "net_problem");
	check(COND(n) && COND(n->kind == LR_NULL) && COND(w) && COND(w->kind == LR_NULL) &&
		      COND(!strstr(sim.screen, "network")),
	      "net: no network console: begin has net null and net_problem null, the screen says nothing");
	sim_reset();
	net_in.url = url;
	run(OPTS "counters=tsc");
	b = rec("begin", NULL);
	w = path_at(b, "net_problem");
	check(COND(!strcmp(str(b, "net"), url)) && COND(w) && COND(w->kind == LR_NULL) &&
		      COND(strstr(sim.screen, "tickprobe: the records are also sent to http://10.0.2.2:8514/log\n")),
	      "net: a URL: begin.net is it, net_problem null, and the screen says where the records go");
	sim_reset();
	net_in.url = NULL;
	net_in.problem = why;
	run(OPTS "counters=tsc");
	b = rec("begin", NULL);
	n = path_at(b, "net");
	check(COND(n) && COND(n->kind == LR_NULL) && COND(!strcmp(str(b, "net_problem"), why)) &&
		      COND(strstr(sim.screen,
				  "tickprobe: network: the collector at http://10.0.2.2:8514/log refused the token")) &&
		      COND(pos("end", NULL) > 0),
	      "net: a problem: begin.net null, net_problem says why, so does the screen, and the run ends");
	net_in.url = net_in.problem = NULL;
}

int main(void)
{
	nodes = malloc(100000 * sizeof *nodes);
	strs = malloc(1u << 20);
	test_whole_run();
	test_bracket_choice();
	test_absent_and_stuck();
	test_tsc_fallback();
	test_plan();
	test_unknown_names();
	test_exceptions();
	test_net();
	for (int i = 0; i < got.n; i++)
		free(got.line[i]);
	free(sim.log);
	free(sim.screen);
	free(nodes);
	free(strs);
	return check_done();
}
