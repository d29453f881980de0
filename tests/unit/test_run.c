/* SPDX-License-Identifier: BSD-2-Clause */
/* The whole run (probe/run.c) on a simulated platform: simulated counters
 * (tests/unit/sim_counter.h) behind the platform interface, a console that
 * captures the log, and a halt that returns to the test.  Each case reads
 * the log back through probe/logread.h, whose checks (every record's crc,
 * the end record's count and crc32) must pass, then looks at the records. */
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include "tests/unit/check.h"
#include "tests/unit/sim_counter.h"
#include "probe/exit_status.h"
#include "probe/logread.h"
#include "probe/run.h"

/* ---- the simulated platform ------------------------------------------- */

enum { S_TSC, S_HPET, S_HPET64, S_PM, S_PIT, S_INB40, S_PORT80, S_N };

static struct {
	jmp_buf out;
	struct sim_counter ctr[S_N];
	bool absent[S_N];
	void *allocs[64];
	int n_allocs;
	char *log, *screen;
	size_t log_len, screen_len;
	platform_exception_fn hook;
	void *hook_ctx;
	const char *end_status;
	unsigned exit_code;
	int ends;
	struct tsc_claims claims;
	uint64_t bomb_after;      /* S_PIT's read raises #UD after this many reads (0: never) */
	bool bomb_in_hpet_setup;  /* the HPET's setup raises #GP */
	uint64_t a_base, b_base;  /* the brackets' costs */
	bool a_jitters;           /* bracket A's per-round minimum moves */
	uint64_t a_calls;
	unsigned n_brackets;
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
	if (sim.n_allocs == 64)
		return NULL;
	return sim.allocs[sim.n_allocs++] = calloc(1, bytes);
}

static unsigned sim_consoles(void *ctx, uint16_t port, uint32_t baud, struct console *out, unsigned max)
{
	(void)ctx, (void)baud;
	unsigned n = 0;
	if (port && n < max)
		out[n++] = (struct console){ "serial", serial_out, NULL, true, true };
	if (n < max)
		out[n++] = (struct console){ "screen", screen_out, NULL, false, true };
	return n;
}

static void sim_set_hook(void *ctx, platform_exception_fn hook, void *hook_ctx)
{
	(void)ctx;
	sim.hook = hook, sim.hook_ctx = hook_ctx;
}

static void raise_exception(uint64_t vector, const char *name)
{
	struct platform_exception e = { .vector = vector, .rip = 0x1234, .name = name };
	sim.hook(sim.hook_ctx, &e);
}

static void sim_fault(void *ctx, const char *kind)
{
	(void)ctx;
	if (!strcmp(kind, "gp"))
		raise_exception(13, "#GP general protection");
	else
		raise_exception(14, "#PF page fault");
}

static void sim_machine(void *ctx, struct log *l, char *line, size_t cap)
{
	(void)ctx;
	struct json *j = log_begin(l, "machine");
	json_str(j, "cpu_vendor", "simulated");
	json_null(j, "memory_mib");
	log_end(l);
	snprintf(line, cap, "CPU: simulated\n");
}

static int no_memory(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx, (void)addr, (void)buf, (void)len;
	return -1;
}

static void sim_claims(void *ctx, struct tsc_claims *c) { (void)ctx, *c = sim.claims; }
static void sim_end(void *ctx, const char *status, unsigned code) { (void)ctx, sim.end_status = status, sim.exit_code = code, sim.ends++; }
__attribute__((noreturn)) static void sim_halt(void *ctx) { (void)ctx, longjmp(sim.out, 1); }

/* Bracket A: per-round minima that move when a_jitters; bracket B: still. */
static uint64_t bracket_a(counter_read_fn fn, const struct counter *c)
{
	fn(c);
	return sim.a_base + (sim.a_jitters ? sim.a_calls++ / 100 % 3 : 0);
}

static uint64_t bracket_b(counter_read_fn fn, const struct counter *c)
{
	fn(c);
	return sim.b_base;
}

static uint64_t bomb_read(const struct counter *c)
{
	struct sim_counter *s = (struct sim_counter *)(uintptr_t)c;
	if (sim.bomb_after && s->reads >= sim.bomb_after)
		raise_exception(6, "#UD invalid opcode");
	return sim_read(c);
}

static void setup_range(int from, int n, const struct counter **d, struct counter_state *s)
{
	for (int i = 0; i < n; i++) {
		d[i] = &sim.ctr[from + i].c;
		counter_state_init(&s[i]);
		if (sim.absent[from + i]) {
			s[i].present = false;
			snprintf(s[i].reason, sizeof s[i].reason, "simulated: %s is not there", sim.ctr[from + i].c.name);
		}
	}
}

static void tsc_dev(void *x, const struct acpi_info *a, const struct counter **d, struct counter_state *s) { (void)x, (void)a, setup_range(S_TSC, 1, d, s); }
static void hpet_dev(void *x, const struct acpi_info *a, const struct counter **d, struct counter_state *s)
{
	(void)x, (void)a;
	if (sim.bomb_in_hpet_setup)
		raise_exception(13, "#GP general protection");
	setup_range(S_HPET, 2, d, s);
}
static void pm_dev(void *x, const struct acpi_info *a, const struct counter **d, struct counter_state *s) { (void)x, (void)a, setup_range(S_PM, 1, d, s); }
static void pit_dev(void *x, const struct acpi_info *a, const struct counter **d, struct counter_state *s) { (void)x, (void)a, setup_range(S_PIT, 3, d, s); }

static const struct platform_counter tsc_c[] = { { .name = "tsc" } };
static const struct platform_counter hpet_c[] = { { .name = "hpet", .calibrates = "hpet" }, { .name = "hpet64", .rate_from = "hpet" } };
static const struct platform_counter pm_c[] = { { .name = "acpi-fast", .calibrates = "pm_timer" } };
static const struct platform_counter pit_c[] = {
	{ .name = "i8254", .calibrates = "pit" }, { .name = "i8254-inb40", .needs = "i8254", .disturbs = true }, { .name = "port80" },
};
static const struct platform_device devices[] = {
	{ "TSC", tsc_c, 1, tsc_dev, NULL }, { "HPET", hpet_c, 2, hpet_dev, NULL },
	{ "PM timer", pm_c, 1, pm_dev, NULL }, { "i8254", pit_c, 3, pit_dev, NULL },
};
static const struct platform_bracket brackets[] = { { "A", bracket_a }, { "B", bracket_b } };
static const char *const names[S_N] = { "tsc", "hpet", "hpet64", "acpi-fast", "i8254", "i8254-inb40", "port80" };

static void sim_reset(void)
{
	free(sim.log), free(sim.screen);
	memset(&sim, 0, sizeof sim);
	sim_now = 0;
	sim_counter_init(&sim.ctr[S_TSC], "tsc", SIM_RATE, 64, SIM_TSC_HZ);
	sim.ctr[S_TSC].c.nominal_hz = 0, sim.ctr[S_TSC].c.tsc_based = true, sim.ctr[S_TSC].read_cost = 20;
	sim_counter_init(&sim.ctr[S_HPET], "hpet", SIM_RATE, 32, 14318180);
	sim_counter_init(&sim.ctr[S_HPET64], "hpet64", SIM_RATE, 64, 14318180);
	sim_counter_init(&sim.ctr[S_PM], "acpi-fast", SIM_RATE, 24, 3579545);
	sim.ctr[S_PM].read_cost = 700;
	sim_counter_init(&sim.ctr[S_PIT], "i8254", SIM_RATE, 16, 1193182);
	sim.ctr[S_PIT].down = true, sim.ctr[S_PIT].c.read = bomb_read, sim.ctr[S_PIT].read_cost = 2000;
	sim_counter_init(&sim.ctr[S_INB40], "i8254-inb40", SIM_CONST, 0, 0);
	sim_counter_init(&sim.ctr[S_PORT80], "port80", SIM_CONST, 0, 0);
	for (int i = S_INB40; i <= S_PORT80; i++)
		sim.ctr[i].c.is_counter = false, sim.ctr[i].c.mask = 0, sim.ctr[i].read_cost = 500;
	sim.a_base = 40, sim.b_base = 60, sim.n_brackets = 2;
}

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
	(void)ctx, (void)run, (void)line;
	if (got.n == MAX_RECS)
		return;
	got.line[got.n] = strndup(text, len);
	snprintf(got.type[got.n], 16, "%s", lr_str(lr_get(root, "type")));
	snprintf(got.name[got.n], 32, "%s", lr_str(lr_get(root, "name")) ? lr_str(lr_get(root, "name")) : "");
	got.n++;
}
static void on_problem(void *ctx, const struct lr_run *run, uint32_t line, int sev, const char *msg)
{
	(void)ctx, (void)run, (void)line, (void)sev;
	printf("log problem: %s\n", msg);
	got.problems++;
}
static void on_end(void *ctx, const struct lr_run *run) { (void)ctx, got.end_ok = run->end_ok, got.damaged = run->damaged; }

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

/* A path of keys and, where a part is a number, array indices:
 * "candidates.1.round_min_spread". */
static const struct lr_node *at(const struct lr_node *r, const char *path)
{
	char part[64];

	while (r && *path) {
		size_t k = 0;
		while (path[k] && path[k] != '.' && k + 1 < sizeof part)
			part[k] = path[k], k++;
		part[k] = 0;
		r = part[0] >= '0' && part[0] <= '9' ? lr_at(r, (size_t)atoi(part)) : lr_get(r, part);
		path += k + (path[k] == '.');
	}
	return r;
}

static double num(const struct lr_node *r, const char *path)
{
	double v;
	return r && lr_num(at(r, path), &v) ? v : NAN;
}

static const char *str(const struct lr_node *r, const char *path) { const char *s = r ? lr_str(at(r, path)) : NULL; return s ? s : ""; }
static bool truth(const struct lr_node *r, const char *path) { const struct lr_node *n = r ? at(r, path) : NULL; return n && n->kind == LR_BOOL && n->b; }

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
	p = (struct platform){
		.ctx = &sim, .boot = "sim", .cmdline = cmdline, .alloc = sim_alloc, .open_consoles = sim_consoles,
		.set_exception_hook = sim_set_hook, .fault = sim_fault, .machine_record = sim_machine,
		.mem = { no_memory, NULL }, .brackets = sim.n_brackets == 2 ? brackets : brackets + 1,
		.n_brackets = sim.n_brackets, .tsc_claims = sim_claims, .devices = devices,
		.n_devices = sizeof devices / sizeof devices[0], .end = sim_end, .halt = sim_halt,
	};
	sim_clock(&p.clock);
	if (!setjmp(sim.out))
		run_probe(&p);
	for (int i = 0; i < sim.n_allocs; i++)
		free(sim.allocs[i]);
	sim.n_allocs = 0;
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
	check(got.end_ok && !got.damaged && !got.problems && sim.ends == 1,
	      "run: the log reads back whole (%d records, every crc, end count and crc32)", got.n);
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		ok &= k < got.n && !strcmp(got.type[k++], order[i]);
	for (int i = 0; i < S_N; i++) {
		ok &= k < got.n && !strcmp(got.type[k], "timer") && !strcmp(got.name[k], names[i]);
		k++;
		ok &= k < got.n && !strcmp(got.type[k], "samples") && !strcmp(got.name[k], names[i]);
		k++;
	}
	ok &= k == got.n - 1 && !strcmp(got.type[k], "end");
	check(ok, "run: records in order: begin machine acpi tsc overhead plan, then timer and samples of each counter in table order, end");
	check(!strcmp(str(rec("end", NULL), "status"), "ok") && sim.exit_code == EXIT_CODE_OK,
	      "run: status ok, exit code 0x%x", sim.exit_code);
	ok = true;
	for (int i = 0; i < S_N; i++)
		ok &= truth(rec("timer", names[i]), "healthy");
	check(ok, "run: every simulated counter is healthy and measured");
	check(fabs(num(rec("tsc", NULL), "hz") - 1e9) <= num(rec("tsc", NULL), "error_ppm") * 1e3 + 1,
	      "run: the TSC calibrates to the simulated 1 GHz (%.0f Hz from %s)", num(rec("tsc", NULL), "hz"),
	      str(rec("tsc", NULL), "source"));
	check(num(rec("timer", "hpet64"), "freq.measured_hz") > 0 && isnan(num(rec("timer", "tsc"), "freq.ppm")) &&
		      num(rec("timer", "i8254-inb40"), "width") != num(rec("timer", "i8254-inb40"), "width"),
	      "run: hpet64 gets its rate from the HPET's calibration; the TSC and a port access get none");
	check(strstr(sim.screen, "counter ") && strstr(sim.screen, "run ended, status ok") && !strstr(sim.screen, "{\"type\""),
	      "run: the screen gets the text and the table, never a record");
}

static void test_bracket_choice(void)
{
	const struct lr_node *o;

	sim_reset();
	sim.a_jitters = true; /* A: smaller minimum, but its per-round minimum moves */
	run(OPTS "counters=tsc");
	o = rec("overhead", NULL);
	check(!strcmp(str(o, "sequence"), "B") && num(o, "subtracted") == 60 && num(o, "candidates.0.round_min_spread") > 0 &&
		      num(o, "candidates.1.round_min_spread") == 0 && num(o, "cycles.min") == 60,
	      "bracket: the still one wins over a smaller minimum that moves (%s, subtracted %.0f)", str(o, "sequence"),
	      num(o, "subtracted"));
	check(num(rec("timer", "tsc"), "overhead_cycles") == 60 && num(rec("timer", "tsc"), "cost_cycles.max") == 0,
	      "bracket: its minimum is taken off every sample");
	sim_reset();
	run(OPTS "counters=tsc");
	o = rec("overhead", NULL);
	check(!strcmp(str(o, "sequence"), "A") && num(o, "subtracted") == 40 && num(o, "cycles.min") == 40 &&
		      num(o, "samples") == 1000,
	      "bracket: equally still: the smaller minimum wins, and its histogram is the one recorded");
	sim_reset();
	sim.n_brackets = 1;
	run(OPTS "counters=tsc");
	o = rec("overhead", NULL);
	check(!strcmp(str(o, "sequence"), "B") && lr_path(o, "candidates")->len == 1,
	      "bracket: a CPU with one bracket (no RDTSCP) measures that one only");
}

static void test_absent_and_stuck(void)
{
	const struct lr_node *t;

	sim_reset();
	sim.absent[S_HPET] = sim.absent[S_HPET64] = true;
	sim.ctr[S_PM].kind = SIM_CONST, sim.ctr[S_PM].value = 0x1234;
	run(OPTS);
	t = rec("timer", "hpet");
	check(t && !truth(t, "present") && !truth(t, "healthy") && strstr(str(t, "reason"), "not there") &&
		      num(t, "samples") == 0,
	      "absent: hpet is absent with its reason (%s), nothing measured", str(t, "reason"));
	t = rec("timer", "acpi-fast");
	check(t && truth(t, "present") && !truth(t, "healthy") && strstr(str(t, "reason"), "does not count"),
	      "stuck: a counter that does not move is unhealthy: %s", str(t, "reason"));
	check(!strcmp(str(rec("tsc", NULL), "source"), "pit") && !lr_path(rec("tsc", NULL), "sources.hpet") &&
		      !lr_path(rec("tsc", NULL), "sources.pm_timer"),
	      "absent: the TSC is calibrated by the one calibrator left (%s)", str(rec("tsc", NULL), "source"));
	check(!strcmp(str(rec("end", NULL), "status"), "ok-absent") && sim.exit_code == EXIT_CODE_OK_ABSENT,
	      "absent: status ok-absent, exit code 0x%x", sim.exit_code);
	check(truth(rec("timer", "tsc"), "healthy") && pos("timer", "port80") > pos("timer", "hpet"),
	      "absent: the others are measured as usual");

	sim_reset();
	run(OPTS "stuck=i8254");
	t = rec("timer", "i8254");
	check(t && strstr(str(t, "reason"), "stuck at 0x1234") && strstr(sim.screen, "stuck=i8254: its reads now return a constant"),
	      "stuck=: the named counter reads a constant and fails its check");
	t = rec("timer", "i8254-inb40");
	check(t && !truth(t, "healthy") && !strncmp(str(t, "reason"), "i8254: ", 7) && truth(rec("timer", "port80"), "healthy"),
	      "stuck=: a port access that needs the broken PIT is not timed (%s); port80 is", str(t, "reason"));
}

static void test_tsc_fallback(void)
{
	const struct lr_node *t;

	sim_reset();
	sim.absent[S_HPET] = sim.absent[S_HPET64] = sim.absent[S_PM] = sim.absent[S_PIT] = true;
	sim.claims = (struct tsc_claims){ .cpuid15_hz = 2400000000ull, .cpuid16_hz = 2600000000ull };
	run(OPTS);
	t = rec("tsc", NULL);
	check(num(t, "hz") == 2400000000.0 && !strcmp(str(t, "source"), "cpuid15") &&
		      at(t, "error_ppm")->kind == LR_NULL && num(t, "sources.cpuid16") == 2600000000.0,
	      "tsc: no counter calibrates: CPUID 0x15's word, with an unknown error");
	check(at(rec("timer", "tsc"), "cost_ns")->kind == LR_OBJ && truth(rec("timer", "tsc"), "healthy"),
	      "tsc: costs in ns from CPUID's frequency");
	sim_reset();
	sim.absent[S_HPET] = sim.absent[S_HPET64] = sim.absent[S_PM] = sim.absent[S_PIT] = true;
	run(OPTS);
	t = rec("tsc", NULL);
	check(at(t, "hz")->kind == LR_NULL && !strcmp(str(t, "source"), "none") &&
		      at(rec("timer", "tsc"), "cost_ns")->kind == LR_NULL && strstr(sim.screen, "frequency unknown"),
	      "tsc: nothing states it: hz null, cost_ns null, said on screen");
}

static void test_plan(void)
{
	const struct lr_node *p;
	double hz, want[2], total;
	int ids[2] = { S_HPET, S_PM };
	bool ok = true;

	sim_reset();
	sim.ctr[S_HPET].read_cost = 100000, sim.ctr[S_PM].read_cost = 50000; /* 100 us and 50 us a read */
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
	check(ok && fabs(total - want[0] - want[1]) <= 0.001 && lr_path(p, "estimate_s")->len == 2,
	      "plan: the estimate of each counter measured follows from its read cost (%.3f s, %.3f s, total %.3f s)",
	      want[0], want[1], total);
}

static void test_unknown_names(void)
{
	const struct lr_node *b;

	sim_reset();
	run(OPTS "counters=hpte");
	b = rec("begin", NULL);
	check(strstr(str(b, "option_problems.0"), "unknown counter 'hpte'") &&
		      strstr(str(b, "option_problems.0"), "tsc, hpet, hpet64, acpi-fast, i8254, i8254-inb40, port80") &&
		      strstr(sim.screen, "tickprobe: option counters: unknown counter 'hpte'"),
	      "options: counters=hpte is a problem that lists the names, in the log and on screen: %s",
	      str(b, "option_problems.0"));
	check(pos("timer", "tsc") > 0 && pos("timer", "port80") > 0 && !strcmp(str(b, "options.counters.0"), "all"),
	      "options: with no known name the default is kept: every counter is measured");
	sim_reset();
	run(OPTS "counters=hpet,hpte stuck=hpte");
	b = rec("begin", NULL);
	check(pos("timer", "hpet") > 0 && pos("timer", "tsc") < 0 && strstr(str(b, "option_problems.0"), "'hpte'") &&
		      strstr(str(b, "option_problems.1"), "option stuck: unknown counter 'hpte'") &&
		      !strcmp(str(b, "options.counters.0"), "hpet"),
	      "options: the known names are measured, the unknown reported, stuck=hpte too");
}

static void test_exceptions(void)
{
	const struct lr_node *e;
	uint64_t reads;

	sim_reset();
	run(OPTS "counters=hpet fault=gp");
	e = rec("exception", NULL);
	check(e && num(e, "vector") == 13 && !strcmp(str(e, "step"), "hpet") && pos("timer", "hpet") >= 0 &&
		      pos("exception", NULL) == pos("timer", "hpet") + 1 && pos("end", NULL) == pos("exception", NULL) + 1,
	      "fault=gp with counters=hpet: the exception follows hpet's record (step %s)", str(e, "step"));
	check(!strcmp(str(rec("end", NULL), "status"), "failed") && sim.exit_code == EXIT_CODE_FAILED && got.end_ok,
	      "fault: status failed, exit code 0x%x, the log whole", sim.exit_code);

	sim_reset();
	run(OPTS "fault=pf counters=port80");
	e = rec("exception", NULL);
	check(e && num(e, "vector") == 14 && !strcmp(str(e, "step"), "port80"), "fault=pf with counters=port80: vector 14 after port80");

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
	check(e && num(e, "vector") == 6 && !strcmp(str(e, "step"), "i8254") && pos("timer", "acpi-fast") >= 0 &&
		      pos("timer", "i8254") < 0 && pos("exception", NULL) == pos("timer", "acpi-fast") + 1 &&
		      !strcmp(str(rec("end", NULL), "status"), "failed") && got.end_ok,
	      "exception mid-run: the records before it are kept, then exception (step %s) and a failed end",
	      str(e, "step"));
	check(strstr(sim.screen, "CPU exception #UD invalid opcode") && strstr(sim.screen, "during: i8254"),
	      "exception mid-run: said on screen");

	sim_reset();
	sim.bomb_in_hpet_setup = true;
	run(OPTS);
	e = rec("exception", NULL);
	check(e && !strcmp(str(e, "step"), "HPET setup") && pos("acpi", NULL) >= 0 && pos("tsc", NULL) < 0,
	      "exception in a device's setup: the step names the device (%s)", str(e, "step"));
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
	for (int i = 0; i < got.n; i++)
		free(got.line[i]);
	free(sim.log), free(sim.screen);
	free(nodes), free(strs);
	return check_done();
}
