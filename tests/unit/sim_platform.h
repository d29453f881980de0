/* SPDX-License-Identifier: BSD-2-Clause */
/* The one simulated platform of the unit tests that run the whole probe
 * (probe/platform.h) on the host: tests/unit/test_run.c and
 * tests/unit/test_run_clocks.c.
 *
 * Its counters are sim_counter.h's, each described by a const struct
 * counter_desc and owned by a const struct counter_driver, as the image's
 * drivers are (drivers/drivers.c); a test picks the drivers its machine has
 * and hands them to sim_platform().  Around them: brackets with scripted
 * costs, a serial console and a screen that capture what they are given, an
 * exception hook that the simulation can call at any moment, a simulated
 * APERF/MPERF, and a halt that longjmps back to the test (sim_boot).
 *
 * Include it once, from the test's file: its state is the one struct sim. */
#ifndef TESTS_SIM_PLATFORM_H
#define TESTS_SIM_PLATFORM_H

#include <setjmp.h>
#include <stdlib.h>
#include "tests/unit/sim_counter.h"
#include "probe/run.h"

/* Every simulated counter, in the order sim_descs has them. */
enum {
	S_TSC, S_HPET, S_HPET64, S_PM, S_PIT, S_INB40, S_PORT80, /* test_run.c's machine */
	S_APIC, S_RTC, S_RTCTIME, S_KVM,                         /* the clocks that are not calibrators */
	S_N
};

static struct {
	jmp_buf out;
	struct sim_counter ctr[S_N];
	bool absent[S_N];         /* attach says "simulated: NAME is not there" */
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
	bool bomb_in_hpet_setup;  /* the HPET's attach raises #GP */
	uint64_t a_base, b_base;  /* the brackets' costs */
	bool a_jitters;           /* bracket A's per-round minimum moves */
	uint64_t a_calls;
	unsigned n_brackets;      /* 2: A and B; 1: B alone */
	int prepared, settled;    /* the APIC's prepare and settle calls */
	bool apic_ready;          /* prepared since the last settle */
	uint64_t apic_unready_reads;
	bool has_aperf_mperf;     /* the CPU offers them (sim_platform reads it) */
	bool frozen_mperf;
	bool kvm_failed;          /* kvm absent by a failure, not by design */
	struct options opt;       /* the cmdline, parsed as an entry path does */
	struct boot_facts facts;  /* what the boot knows (a test may add to it after sim_platform) */
} sim;

static void append(char **buf, size_t *len, const char *s, size_t n)
{
	*buf = realloc(*buf, *len + n + 1);
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = 0;
}

static void serial_out(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	append(&sim.log, &sim.log_len, s, n);
}

static void screen_out(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	append(&sim.screen, &sim.screen_len, s, n);
}

static void *sim_alloc(void *ctx, size_t bytes)
{
	(void)ctx;
	if (sim.n_allocs == 64)
		return NULL;
	return sim.allocs[sim.n_allocs++] = calloc(1, bytes);
}

static unsigned sim_consoles(void *ctx, uint16_t port, uint32_t baud, struct console *out, unsigned max)
{
	(void)ctx;
	(void)baud;
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
	sim.hook = hook;
	sim.hook_ctx = hook_ctx;
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

static void sim_machine(void *ctx, struct machine_facts *m)
{
	(void)ctx;
	memset(m, 0, sizeof *m);
	snprintf(m->vendor, sizeof m->vendor, "simulated");
	m->firmware = true;
}

static int no_memory(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	(void)addr;
	(void)buf;
	(void)len;
	return -1;
}

static void sim_claims(void *ctx, struct tsc_claims *c)
{
	(void)ctx;
	*c = sim.claims;
}

static void sim_end(void *ctx, const char *status, unsigned code)
{
	(void)ctx;
	sim.end_status = status;
	sim.exit_code = code;
	sim.ends++;
}

__attribute__((noreturn)) static void sim_halt(void *ctx)
{
	(void)ctx;
	longjmp(sim.out, 1);
}

/* The core runs at 1.25 times the 1 GHz TSC; MPERF counts the TSC. */
static bool sim_aperf_mperf(uint64_t *aperf, uint64_t *mperf)
{
	*aperf = sim_now + sim_now / 4;
	*mperf = sim.frozen_mperf ? 777 : sim_now;
	return true;
}

/* ---- brackets ------------------------------------------------------------ */

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

static const struct platform_bracket sim_brackets[] = { { "A", bracket_a }, { "B", bracket_b } };

/* The empty read costs 50 cycles inside the bracket, every other read 130:
 * 80 cycles once the overhead is subtracted. */
static uint64_t bracket_flat(counter_read_fn fn, const struct counter *c)
{
	fn(c);
	return !strcmp(c->desc->name, "empty") ? 50 : 130;
}

static const struct platform_bracket sim_flat_bracket[] = { { "sim", bracket_flat } };

/* ---- the counters and their drivers -------------------------------------- */

static uint64_t bomb_read(const struct counter *c)
{
	struct sim_counter *s = (struct sim_counter *)(uintptr_t)c;
	if (sim.bomb_after && s->reads >= sim.bomb_after)
		raise_exception(6, "#UD invalid opcode");
	return sim_read(c);
}

/* The APIC timer counts only once prepared: a read outside that is noted. */
static uint64_t apic_read(const struct counter *c)
{
	if (!sim.apic_ready)
		sim.apic_unready_reads++;
	return sim_read(c);
}

static void apic_prepare(void *ctx)
{
	(void)ctx;
	sim.prepared++;
	sim.apic_ready = true;
}

static void apic_settle(void *ctx)
{
	(void)ctx;
	sim.settled++;
	sim.apic_ready = false;
}

/* What a simulated counter is: its name, width and nominal rate, the read
 * sim_reset gives it, and the run's flags, as an image driver's desc. */
static const struct counter_desc sim_descs[S_N] = {
	[S_TSC] = { .name = "tsc", .read = sim_read, .width = 64, .tsc_based = true, .is_counter = true },
	[S_HPET] = { .name = "hpet", .read = sim_read, .width = 32, .nominal_hz = 14318180, .is_counter = true,
		     .calibrates = "hpet" },
	[S_HPET64] = { .name = "hpet64", .read = sim_read, .width = 64, .nominal_hz = 14318180, .is_counter = true,
		       .rate_from = "hpet" },
	[S_PM] = { .name = "acpi-fast", .read = sim_read, .width = 24, .nominal_hz = 3579545, .is_counter = true,
		   .calibrates = "pm_timer" },
	[S_PIT] = { .name = "i8254", .read = bomb_read, .width = 16, .nominal_hz = 1193182, .is_counter = true,
		    .calibrates = "pit" },
	[S_INB40] = { .name = "i8254-inb40", .read = sim_read, .needs = "i8254", .disturbs = true },
	[S_PORT80] = { .name = "port80", .read = sim_read },
	/* A 25 MHz crystal that CPUID does not name: nominal 0. */
	[S_APIC] = { .name = "apic", .read = apic_read, .width = 32, .is_counter = true, .rated = true,
		     .disturbs = true, .prepare = apic_prepare },
	/* The seconds: an 8-bit value that changes once a second. */
	[S_RTC] = { .name = "rtc", .read = sim_read, .width = 8, .nominal_hz = 1, .rated = true },
	[S_RTCTIME] = { .name = "rtc-time", .read = sim_read, .width = 48, .nominal_hz = 1, .rate_from = "rtc",
			.needs = "rtc", .samples_div = 10 },
	[S_KVM] = { .name = "kvm", .read = sim_read, .width = 64, .nominal_hz = 1000000000, .is_counter = true,
		    .rated = true },
};

/* Counters from..from+n-1, present unless sim.absent says otherwise. */
static void sim_attach(int from, int n, const struct counter **c, struct counter_state *s)
{
	for (int i = 0; i < n; i++) {
		c[i] = &sim.ctr[from + i].c;
		counter_state_init(&s[i]);
		if (sim.absent[from + i]) {
			s[i].present = false;
			snprintf(s[i].reason, sizeof s[i].reason, "simulated: %s is not there",
				 sim.ctr[from + i].c.desc->name);
		}
	}
}

#define SIM_ATTACH(dev, from, n)                                                                   \
	static void dev##_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s) \
	{                                                                                          \
		(void)env;                                                                         \
		sim_attach(from, n, c, s);                                                         \
	}
SIM_ATTACH(sim_tsc, S_TSC, 1)
SIM_ATTACH(sim_pm, S_PM, 1)
SIM_ATTACH(sim_pit, S_PIT, 3)
SIM_ATTACH(sim_apic, S_APIC, 1)
SIM_ATTACH(sim_rtc, S_RTC, 2)

static void sim_hpet_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	(void)env;
	if (sim.bomb_in_hpet_setup)
		raise_exception(13, "#GP general protection");
	sim_attach(S_HPET, 2, c, s);
}

static void sim_hpet32_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	(void)env;
	sim_attach(S_HPET, 1, c, s);
}

/* Absent: by design (no hypervisor), or by a failure when kvm_failed. */
static void sim_kvm_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	(void)env;
	sim_attach(S_KVM, 1, c, s);
	s[0].present = false;
	s[0].by_design = !sim.kvm_failed;
	snprintf(s[0].reason, sizeof s[0].reason, sim.kvm_failed ? "simulated: the page stayed empty" : "simulated: no hypervisor");
}

static const struct counter_driver sim_tsc_driver = { "TSC", &sim_descs[S_TSC], 1, sim_tsc_attach, NULL };
static const struct counter_driver sim_hpet_driver = { "HPET", &sim_descs[S_HPET], 2, sim_hpet_attach, NULL };
/* The HPET without its 64-bit read. */
static const struct counter_driver sim_hpet32_driver = { "HPET", &sim_descs[S_HPET], 1, sim_hpet32_attach, NULL };
static const struct counter_driver sim_pm_driver = { "PM timer", &sim_descs[S_PM], 1, sim_pm_attach, NULL };
/* i8254, i8254-inb40 and port80. */
static const struct counter_driver sim_pit_driver = { "i8254", &sim_descs[S_PIT], 3, sim_pit_attach, NULL };
static const struct counter_driver sim_apic_driver = { "APIC", &sim_descs[S_APIC], 1, sim_apic_attach, apic_settle };
static const struct counter_driver sim_rtc_driver = { "RTC", &sim_descs[S_RTC], 2, sim_rtc_attach, NULL };
static const struct counter_driver sim_kvm_driver = { "KVM", &sim_descs[S_KVM], 1, sim_kvm_attach, NULL };

/* ---- the machine ---------------------------------------------------------- */

/* Every counter back to its start, from its desc; the read costs are the
 * hardware's, roughly: a TSC read 20 ns, the PM timer 700 ns, the PIT 2 us,
 * a port access 500 ns, the APIC 300 ns, an RTC read 100 us (so the polls
 * between two of its edges stay few), the rest 1 us. */
static void sim_reset(void)
{
	static const uint64_t cost[S_N] = { [S_TSC] = 20, [S_PM] = 700, [S_PIT] = 2000, [S_INB40] = 500,
					    [S_PORT80] = 500, [S_APIC] = 300, [S_RTC] = 100000, [S_RTCTIME] = 100000 };

	free(sim.log);
	free(sim.screen);
	memset(&sim, 0, sizeof sim);
	sim_now = 0;
	for (int i = 0; i < S_N; i++) {
		const struct counter_desc *d = &sim_descs[i];
		struct sim_counter *s = &sim.ctr[i];
		/* A bare port access returns a constant; the rest follow the TSC,
		 * at the APIC's crystal for the APIC, which is nominally unknown. */
		bool port = !d->width;
		sim_counter_init(s, d->name, port ? SIM_CONST : SIM_RATE, d->width,
				 i == S_TSC ? SIM_TSC_HZ : i == S_APIC ? 25000000 : d->nominal_hz);
		s->c.read = d->read;
		s->c.nominal_hz = d->nominal_hz;
		s->desc.tsc_based = d->tsc_based;
		s->desc.is_counter = d->is_counter;
		s->c.mask = port ? 0 : s->c.mask;
		if (cost[i])
			s->read_cost = cost[i];
	}
	sim.ctr[S_PIT].down = sim.ctr[S_APIC].down = true;
	sim.a_base = 40;
	sim.b_base = 60;
	sim.n_brackets = 2;
}

/* The platform of a machine with these drivers, A and B for its brackets
 * (B alone when sim.n_brackets is 1), APERF/MPERF when
 * sim.has_aperf_mperf. */
static void sim_platform(struct platform *p, const char *cmdline, const struct counter_driver *const *drivers,
			 unsigned n_drivers)
{
	options_parse(&sim.opt, cmdline);
	sim.facts = (struct boot_facts){ .boot = "sim", .cmdline = cmdline, .opt = &sim.opt };
	*p = (struct platform){
		.ctx = &sim,
		.facts = &sim.facts,
		.alloc = sim_alloc,
		.open_consoles = sim_consoles,
		.set_exception_hook = sim_set_hook,
		.fault = sim_fault,
		.machine_facts = sim_machine,
		.mem = { no_memory, NULL },
		.brackets = sim.n_brackets == 2 ? sim_brackets : sim_brackets + 1,
		.n_brackets = sim.n_brackets,
		.tsc_claims = sim_claims,
		.drivers = drivers,
		.n_drivers = n_drivers,
		.end = sim_end,
		.halt = sim_halt,
	};
	sim_clock(&p->clock);
	p->clock.aperf_mperf = sim.has_aperf_mperf ? sim_aperf_mperf : NULL;
}

/* Runs the probe on p until it halts, then frees what it allocated: the
 * log is in sim.log, the screen in sim.screen. */
static void sim_boot(const struct platform *p)
{
	if (!setjmp(sim.out))
		run_probe(p);
	for (int i = 0; i < sim.n_allocs; i++)
		free(sim.allocs[i]);
	sim.n_allocs = 0;
}

#endif
