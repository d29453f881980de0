/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's handling of the clocks that do not calibrate the TSC
 * (probe/run_clocks.c), on a simulated platform of its own: an APIC-like
 * timer with no nominal rate, a 1 Hz register timed edge to edge (the RTC),
 * a counter only some machines have (a paravirtual clock), a device that
 * must be prepared before its reads, and a simulated APERF/MPERF.  The log
 * is read back through tools/lib/logread.h and its records looked at. */
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include "tests/unit/check.h"
#include "tests/unit/sim_counter.h"
#include "probe/exit_status.h"
#include "tools/lib/logread.h"
#include "probe/run.h"

enum { C_TSC, C_HPET, C_APIC, C_RTC, C_RTCTIME, C_KVM, C_N };

static struct {
	jmp_buf out;
	struct sim_counter ctr[C_N];
	void *allocs[64];
	int n_allocs;
	char *log, *screen;
	size_t log_len, screen_len;
	platform_exception_fn hook;
	void *hook_ctx;
	const char *end_status;
	unsigned exit_code;
	int prepared, settled;  /* the APIC's prepare and settle calls */
	bool apic_ready;        /* prepared since the last settle */
	uint64_t apic_unready_reads;
	bool frozen_mperf;
	bool kvm_failed;        /* kvm absent by a failure, not by design */
} sim;

static void append(char **buf, size_t *len, const char *s, size_t n)
{
	*buf = realloc(*buf, *len + n + 1);
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = 0;
}
static void serial_out(void *ctx, const char *s, size_t n) { (void)ctx, append(&sim.log, &sim.log_len, s, n); }
static void screen_out(void *ctx, const char *s, size_t n) { (void)ctx, append(&sim.screen, &sim.screen_len, s, n); }
static void *sim_alloc(void *ctx, size_t bytes)
{
	(void)ctx;
	return sim.n_allocs == 64 ? NULL : (sim.allocs[sim.n_allocs++] = calloc(1, bytes));
}
static unsigned sim_consoles(void *ctx, uint16_t port, uint32_t baud, struct console *out, unsigned max)
{
	(void)ctx, (void)port, (void)baud, (void)max;
	out[0] = (struct console){ "serial", serial_out, NULL, true, true };
	out[1] = (struct console){ "screen", screen_out, NULL, false, true };
	return 2;
}
static void sim_set_hook(void *ctx, platform_exception_fn hook, void *hook_ctx) { (void)ctx, sim.hook = hook, sim.hook_ctx = hook_ctx; }
static void sim_fault(void *ctx, const char *kind) { (void)ctx, (void)kind; }
static void sim_machine(void *ctx, struct log *l, char *line, size_t cap)
{
	(void)ctx;
	log_end((log_begin(l, "machine"), l));
	snprintf(line, cap, "CPU: simulated\n");
}
static int no_memory(void *ctx, uint64_t addr, void *buf, size_t len) { (void)ctx, (void)addr, (void)buf, (void)len; return -1; }
static void sim_claims(void *ctx, struct tsc_claims *c) { (void)ctx, memset(c, 0, sizeof *c); }
static void sim_end(void *ctx, const char *status, unsigned code) { (void)ctx, sim.end_status = status, sim.exit_code = code; }
__attribute__((noreturn)) static void sim_halt(void *ctx) { (void)ctx, longjmp(sim.out, 1); }

/* The core runs at 1.25 times the 1 GHz TSC; MPERF counts the TSC. */
static bool sim_aperf_mperf(uint64_t *aperf, uint64_t *mperf)
{
	*aperf = sim_now + sim_now / 4;
	*mperf = sim.frozen_mperf ? 777 : sim_now;
	return true;
}

/* The APIC timer counts only once prepared: a read outside that is noted. */
static uint64_t apic_read(const struct counter *c)
{
	if (!sim.apic_ready)
		sim.apic_unready_reads++;
	return sim_read(c);
}
static void apic_prepare(void *ctx) { (void)ctx, sim.prepared++, sim.apic_ready = true; }
static void apic_settle(void *ctx) { (void)ctx, sim.settled++, sim.apic_ready = false; }

static void setup(int from, int n, const struct counter **d, struct counter_state *s)
{
	for (int i = 0; i < n; i++) {
		d[i] = &sim.ctr[from + i].c;
		counter_state_init(&s[i]);
	}
}
static void tsc_dev(void *x, const struct acpi_info *a, const struct counter **d, struct counter_state *s) { (void)x, (void)a, setup(C_TSC, 1, d, s); }
static void hpet_dev(void *x, const struct acpi_info *a, const struct counter **d, struct counter_state *s) { (void)x, (void)a, setup(C_HPET, 1, d, s); }
static void apic_dev(void *x, const struct acpi_info *a, const struct counter **d, struct counter_state *s) { (void)x, (void)a, setup(C_APIC, 1, d, s); }
static void rtc_dev(void *x, const struct acpi_info *a, const struct counter **d, struct counter_state *s) { (void)x, (void)a, setup(C_RTC, 2, d, s); }
static void kvm_dev(void *x, const struct acpi_info *a, const struct counter **d, struct counter_state *s)
{
	(void)x, (void)a, setup(C_KVM, 1, d, s);
	s[0].present = false;
	s[0].by_design = !sim.kvm_failed;
	snprintf(s[0].reason, sizeof s[0].reason, sim.kvm_failed ? "simulated: the page stayed empty" : "simulated: no hypervisor");
}

static const struct platform_counter tsc_c[] = { { .name = "tsc" } };
static const struct platform_counter hpet_c[] = { { .name = "hpet", .calibrates = "hpet" } };
static const struct platform_counter apic_c[] = {
	{ .name = "apic", .rated = true, .disturbs = true, .prepare = apic_prepare },
};
static const struct platform_counter rtc_c[] = {
	{ .name = "rtc", .rated = true },
	{ .name = "rtc-time", .rate_from = "rtc", .needs = "rtc", .samples_div = 10 },
};
static const struct platform_counter kvm_c[] = { { .name = "kvm", .rated = true } };
static const struct platform_device devices[] = {
	{ "TSC", tsc_c, 1, tsc_dev, NULL },     { "HPET", hpet_c, 1, hpet_dev, NULL },
	{ "APIC", apic_c, 1, apic_dev, apic_settle }, { "RTC", rtc_c, 2, rtc_dev, NULL },
	{ "KVM", kvm_c, 1, kvm_dev, NULL },
};

/* The empty read costs 50 cycles inside the bracket, every other read 130:
 * 80 cycles once the overhead is subtracted. */
static uint64_t cost_bracket(counter_read_fn fn, const struct counter *c)
{
	fn(c);
	return !strcmp(c->name, "empty") ? 50 : 130;
}
static const struct platform_bracket brackets[] = { { "sim", cost_bracket } };

static void sim_reset(void)
{
	free(sim.log), free(sim.screen);
	memset(&sim, 0, sizeof sim);
	sim_now = 0;
	sim_counter_init(&sim.ctr[C_TSC], "tsc", SIM_RATE, 64, SIM_TSC_HZ);
	sim.ctr[C_TSC].c.nominal_hz = 0, sim.ctr[C_TSC].c.tsc_based = true, sim.ctr[C_TSC].read_cost = 20;
	sim_counter_init(&sim.ctr[C_HPET], "hpet", SIM_RATE, 32, 14318180);
	/* A 25 MHz crystal that CPUID does not name: nominal 0. */
	sim_counter_init(&sim.ctr[C_APIC], "apic", SIM_RATE, 32, 25000000);
	sim.ctr[C_APIC].c.nominal_hz = 0, sim.ctr[C_APIC].down = true, sim.ctr[C_APIC].c.read = apic_read;
	sim.ctr[C_APIC].read_cost = 300;
	/* The seconds: an 8-bit value that changes once a second; a read is
	 * 100 us, so the polls between two edges stay few. */
	sim_counter_init(&sim.ctr[C_RTC], "rtc", SIM_RATE, 8, 1);
	sim_counter_init(&sim.ctr[C_RTCTIME], "rtc-time", SIM_RATE, 48, 1);
	for (int i = C_RTC; i <= C_RTCTIME; i++)
		sim.ctr[i].c.is_counter = false, sim.ctr[i].read_cost = 100000;
	sim_counter_init(&sim.ctr[C_KVM], "kvm", SIM_RATE, 64, 1000000000);
}

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

	(void)ctx, (void)run, (void)line;
	if (got.n == MAX_RECS)
		return;
	snprintf(got.type[got.n], sizeof got.type[0], "%s", lr_str(lr_get(root, "type")));
	snprintf(got.name[got.n], sizeof got.name[0], "%s", name ? name : "");
	got.line[got.n++] = strndup(text, len);
}
static void on_problem(void *ctx, const struct lr_run *run, uint32_t line, int sev, const char *msg)
{
	(void)ctx, (void)run, (void)line, (void)sev;
	printf("log problem: %s\n", msg);
}
static void on_end(void *ctx, const struct lr_run *run) { (void)ctx, got.end_ok = run->end_ok && !run->damaged; }

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
	p = (struct platform){
		.ctx = &sim, .boot = "sim", .cmdline = cmdline, .alloc = sim_alloc, .open_consoles = sim_consoles,
		.set_exception_hook = sim_set_hook, .fault = sim_fault, .machine_record = sim_machine,
		.mem = { no_memory, NULL }, .brackets = brackets, .n_brackets = 1, .tsc_claims = sim_claims,
		.devices = devices,
		.n_devices = sizeof devices / sizeof devices[0], .end = sim_end, .halt = sim_halt,
	};
	sim_clock(&p.clock);
	p.clock.aperf_mperf = core ? sim_aperf_mperf : NULL;
	p.clock.core_clock_none = core ? NULL : "none: simulated CPU without APERF/MPERF";
	if (!setjmp(sim.out))
		run_probe(&p);
	for (int i = 0; i < sim.n_allocs; i++)
		free(sim.allocs[i]);
	sim.n_allocs = 0;
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
	check(!strcmp(str(rec("end", NULL), "status"), "ok") && sim.exit_code == EXIT_CODE_OK,
	      "clocks: a counter absent by design leaves the run ok (%s)", str(rec("end", NULL), "status"));
	/* Absent by design and not asked for: no timer record, its reason in
	 * the plan's absent instead. */
	t = rec("plan", NULL);
	check(!rec("timer", "kvm") && t && lr_path(t, "absent") && lr_path(t, "absent")->kind == LR_OBJ &&
		      lr_path(t, "absent")->len == 1 && !strcmp(str(t, "absent.kvm"), "simulated: no hypervisor"),
	      "clocks: no timer record for it; the plan's absent lists it with its reason (%s)", str(t, "absent.kvm"));
	check(rec("timer", "hpet") && rec("timer", "apic") && rec("timer", "rtc") && rec("timer", "rtc-time") &&
		      rec("timer", "tsc"),
	      "clocks: every counter that is there still has its timer record");
	check(sim.screen && strstr(sim.screen, "absent by design: kvm\n") && !strstr(sim.screen, "kvm           skipped") &&
		      !strstr(sim.screen, "\nkvm "),
	      "clocks: on screen it is one name in the 'absent by design' line, not a row or a 'skipped' line");

	t = rec("timer", "apic");
	hz = num(t, "freq.measured_hz"), err = num(t, "freq.err_ppm");
	check(is_null(t, "freq.nominal_hz") && is_null(t, "freq.ppm") && fabs(hz / 25e6 - 1) * 1e6 <= err + 1,
	      "clocks: a rated counter with no nominal rate: measured %.1f Hz (+/- %.2f ppm) against the TSC, nominal and ppm null",
	      hz, err);
	check(sim.apic_unready_reads == 0 && sim.prepared >= 4 && sim.settled >= 3,
	      "clocks: the prepare hook ran before every use (check, rate, plan, measurement: %d calls, %d settles), no read unprepared (%llu)",
	      sim.prepared, sim.settled, (unsigned long long)sim.apic_unready_reads);

	t = rec("timer", "rtc");
	hz = num(t, "freq.measured_hz"), err = num(t, "freq.err_ppm");
	/* Each edge is known to within two polls of 100 us: 200 ppm a second. */
	check(num(t, "samples") > 0 && !lr_path(t, "healthy") && num(t, "freq.nominal_hz") == 1 && fabs(num(t, "freq.ppm")) <= err + 1 &&
		      err > 150 && err < 250,
	      "clocks: a 1 Hz register is timed edge to edge: %.1f ppm +/- %.2f (two 100 us polls an edge)",
	      num(t, "freq.ppm"), err);
	check(is_null(t, "delta") && num(rec("timer", "rtc-time"), "freq.ppm") == num(t, "freq.ppm"),
	      "clocks: no delta summary for it (not a counter); rtc-time has the rtc's rate (rate_from)");
	/* All 100 taken: samples_requested, equal to samples, is not written. */
	check(num(t, "samples") == 1000 && (t = rec("timer", "rtc-time")) && num(t, "samples") == 100 &&
		      !lr_path(t, "samples_requested"),
	      "clocks: samples_div 10: rtc-time takes 100 of the 1000 samples");

	t = rec("timer", "hpet");
	check(fabs(num(t, "core_clock.ratio") - 1.25) < 1e-3 && fabs(num(t, "core_clock.effective_hz") / 1.25e9 - 1) < 1e-4 &&
		      num(t, "cost_cycles.p50") == 80 && fabs(num(t, "cost_core_cycles.p50") - 100) < 0.1,
	      "core clock: APERF/MPERF around the block: ratio %.4f, %.0f Hz, p50 %.1f core cycles for %.0f TSC cycles",
	      num(t, "core_clock.ratio"), num(t, "core_clock.effective_hz"), num(t, "cost_core_cycles.p50"),
	      num(t, "cost_cycles.p50"));
	check(strstr(sim.screen, "core clock: APERF/MPERF 1.250..1.250 of the TSC") != NULL,
	      "core clock: the screen says the ratio seen");

	sim_reset();
	run(OPTS "counters=kvm,apic", true);
	check(!strcmp(str(rec("end", NULL), "status"), "ok-absent") && sim.exit_code == EXIT_CODE_OK_ABSENT &&
		      strstr(sim.screen, "\nkvm ") && strstr(sim.screen, "kvm           skipped: simulated"),
	      "clocks: named in counters=, the same absent counter makes the run ok-absent, with its row and reason");
	t = rec("timer", "kvm");
	check(t && lr_path(t, "present")->kind == LR_BOOL && !lr_true(lr_path(t, "present")) &&
		      !strcmp(str(t, "reason"), "simulated: no hypervisor") && num(t, "samples") == 0 &&
		      rec("plan", NULL) && lr_path(rec("plan", NULL), "absent") &&
		      lr_path(rec("plan", NULL), "absent")->len == 0,
	      "clocks: asked for with counters=, it gets its timer record (absent, with its reason), not the plan's absent");

	sim_reset();
	sim.kvm_failed = true;
	run(OPTS, true);
	check(!strcmp(str(rec("end", NULL), "status"), "ok-absent") && strstr(sim.screen, "kvm           skipped: simulated: the page stayed empty") &&
		      !strstr(sim.screen, "absent by design"),
	      "clocks: absent because something failed (not by design), it makes the run ok-absent even unasked");
	t = rec("timer", "kvm");
	check(t && !lr_true(lr_path(t, "present")) && !strcmp(str(t, "reason"), "simulated: the page stayed empty") &&
		      rec("plan", NULL) && !lr_path(rec("plan", NULL), "absent.kvm"),
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
	check(!lr_true(lr_path(t, "healthy")) && strstr(why, "rtc does not tick (stuck at 0x34") &&
		      strstr(why, "the bound is 1.25 s") &&
		      ((cycles >= 1250000000ull && cycles < 1260000000ull) || (reads > 1220000 && reads < 1222000)),
	      "stuck=rtc: unhealthy at the bound of 1.25 s or its polls: %s", why);
	check(!lr_true(lr_path(rec("timer", "rtc-time"), "healthy")) &&
		      !strncmp(str(rec("timer", "rtc-time"), "reason"), "rtc: ", 5),
	      "stuck=rtc: rtc-time, which needs the rtc's rate, is unhealthy too (%s)", str(rec("timer", "rtc-time"), "reason"));
	check(!strcmp(str(rec("end", NULL), "status"), "ok-absent"), "stuck=rtc: status ok-absent");
}

static void test_no_core_clock(void)
{
	const struct lr_node *t;

	sim_reset();
	run(OPTS "counters=hpet", false);
	t = rec("timer", "hpet");
	check(t && lr_path(t, "cost_cycles") && !lr_path(t, "core_clock") && !lr_path(t, "cost_core_cycles") &&
		      strstr(sim.screen, "core clock: none: simulated CPU without APERF/MPERF"),
	      "core clock: none: no core_clock, no cost_core_cycles, the reason on screen");
	sim_reset();
	sim.frozen_mperf = true;
	run(OPTS "counters=hpet", true);
	t = rec("timer", "hpet");
	check(num(t, "core_clock.mperf") == 0 && is_null(t, "core_clock.ratio") && is_null(t, "core_clock.effective_hz") &&
		      !lr_path(t, "cost_core_cycles"),
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
