/* SPDX-License-Identifier: BSD-2-Clause */
/* A simulated platform for the whole run (probe/platform.h) on the host:
 * the simulated counters of sim_counter.h in four devices (TSC, HPET, PM
 * timer, i8254 with two bare port accesses), two brackets with scripted
 * costs, a serial console and a screen that capture what they are given, an
 * exception hook that the simulation can call at any moment, and a halt
 * that longjmps back to the test.  Include it once, from tests/unit/test_run.c. */
#ifndef TESTS_SIM_PLATFORM_H
#define TESTS_SIM_PLATFORM_H

#include <setjmp.h>
#include <stdlib.h>
#include "tests/unit/sim_counter.h"
#include "probe/run.h"

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

#endif
