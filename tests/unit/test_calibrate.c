/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/calibrate.c against simulated counters on a fake 1 GHz TSC: the
 * calibration finds the TSC's true rate within its stated error, picks the
 * calibrator with the smallest error, falls back to CPUID's word only when no
 * counter works, and the frequency check catches a counter that is not at its
 * nominal rate. */
#include <math.h>
#include <stdlib.h>
#include "tests/unit/check.h"
#include "tests/unit/sim_counter.h"
#include "probe/calibrate.h"

static struct sim_counter hpet, pm, pit;
static struct calibrator cal[3];
static int said;
static char last_said[160];

static void say(void *ctx, const char *line)
{
	(void)ctx;
	said++;
	snprintf(last_said, sizeof last_said, "%s", line);
}

static void setup(void)
{
	sim_counter_init(&hpet, "hpet", SIM_RATE, 32, 14318180);
	sim_counter_init(&pm, "acpi-fast", SIM_RATE, 24, 3579545);
	sim_counter_init(&pit, "i8254", SIM_RATE, 16, 1193182);
	pit.down = true;
	hpet.st.healthy = pm.st.healthy = pit.st.healthy = true;
	cal[0] = (struct calibrator){ .c = &hpet.c, .s = &hpet.st, .source = "hpet" };
	cal[1] = (struct calibrator){ .c = &pm.c, .s = &pm.st, .source = "pm_timer" };
	cal[2] = (struct calibrator){ .c = &pit.c, .s = &pit.st, .source = "pit" };
	said = 0;
	last_said[0] = 0;
}

static double off_ppm(double hz) { return (hz / (double)SIM_TSC_HZ - 1.0) * 1e6; }

static void test_choice(void)
{
	struct probe_clock pc;
	struct tsc_claims none = { 0, 0, 0 };
	struct tsc_choice t;
	double best = 1e9;

	sim_clock(&pc);
	setup();
	t = tsc_calibrate(cal, 3, &none, &pc, 100, say, NULL);
	for (int k = 0; k < 3; k++) {
		double hz = (double)cal[k].c->nominal_hz / cal[k].rate.ticks_per_cycle;
		check(COND(cal[k].ok) && COND(fabs(off_ppm(hz)) <= cal[k].rate.err_ppm),
		      "calibrate: %s gives %.1f Hz, %.3f ppm off the true 1 GHz, within its %.3f ppm", cal[k].source,
		      hz, off_ppm(hz), cal[k].rate.err_ppm);
		if (cal[k].rate.err_ppm < best)
			best = cal[k].rate.err_ppm;
	}
	check(COND(t.reference) && COND(t.err_ppm == best) && COND(t.reference->rate.err_ppm == best) &&
		      COND(!strcmp(t.source, t.reference->source)),
	      "calibrate: the calibrator with the smallest error is chosen (%s, %.3f ppm)", t.source, t.err_ppm);
	check(fabs(off_ppm(t.hz)) <= t.err_ppm, "calibrate: the chosen %.1f Hz is within its error of the truth", t.hz);
	check(said == 0, "calibrate: nothing to say when every counter works");
}

static void test_failures(void)
{
	struct probe_clock pc;
	struct tsc_claims claims = { 24000000ull * 125 / 2, 2600000000ull, 0 };
	struct tsc_claims hv_only = { 0, 2600000000ull, 2596000000ull };
	struct tsc_claims none = { 0, 0, 0 };
	struct tsc_choice t;

	sim_clock(&pc);
	setup();
	hpet.st.healthy = false;
	pm.stop_at = 1; /* frozen from the start: no tick in the window */
	pc.max_wait_loops = 100000; /* 0.1 s of 1 us reads: past the 20 ms window */
	t = tsc_calibrate(cal, 3, &claims, &pc, 20, say, NULL);
	check(COND(!cal[0].ok) && COND(!cal[1].ok) && COND(cal[2].ok) && COND(t.reference == &cal[2]) &&
		      COND(said == 1) && COND(strstr(last_said, "acpi-fast")) && COND(strstr(last_said, "wait bound")),
	      "calibrate: an unhealthy counter is skipped, a stopped one said (\"%s\"), the PIT used", last_said);

	setup();
	hpet.st.healthy = pm.st.healthy = pit.st.healthy = false;
	t = tsc_calibrate(cal, 3, &claims, &pc, 20, say, NULL);
	check(COND(t.hz == 1500000000.0) && COND(t.err_ppm < 0) && COND(!strcmp(t.source, "cpuid15")) &&
		      COND(!t.reference),
	      "calibrate: no counter works: CPUID 0x15's word, error unknown (%s %.0f Hz)", t.source, t.hz);
	t = tsc_calibrate(cal, 3, &hv_only, &pc, 20, say, NULL);
	check(COND(!strcmp(t.source, "hypervisor")) && COND(t.hz == 2596000000.0),
	      "calibrate: then the hypervisor leaf before CPUID 0x16");
	t = tsc_calibrate(cal, 3, &none, &pc, 20, say, NULL);
	check(COND(t.hz == 0) && COND(!strcmp(t.source, "none")),
	      "calibrate: nothing at all: no frequency, source none");
}

static void test_frequency_check(void)
{
	struct probe_clock pc;
	struct tsc_claims none = { 0, 0, 0 };
	struct tsc_choice t;
	struct freq_check f;
	struct sim_counter fast, tsc;

	sim_clock(&pc);
	setup();
	pm.hz = 3579545 + 179; /* +50 ppm: a real crystal's error, healthy */
	pit.hz = 1193182 * 103 / 100; /* 3 % fast: not the counter it claims to be */
	t = tsc_calibrate(cal, 3, &none, &pc, 100, say, NULL);

	frequency_check(&pm.c, &pm.st, &cal[1], &t, &f);
	check(COND(f.valid) && COND(pm.st.healthy) && COND(fabs(f.ppm - 50.0) <= f.err_ppm + 0.1) && COND(!f.reference),
	      "frequency: a PM timer 50 ppm fast reads %+.2f +/- %.2f ppm and stays healthy", f.ppm, f.err_ppm);
	frequency_check(&pit.c, &pit.st, &cal[2], &t, &f);
	check(COND(f.valid) && COND(!pit.st.healthy) && COND(strstr(pit.st.reason, "counts at")) &&
		      COND(strstr(pit.st.reason, "nominal 1193182 Hz")),
	      "frequency: a PIT 3%% fast is unhealthy (\"%s\")", pit.st.reason);
	{
		struct counter_state ref = *t.reference->s;
		frequency_check(t.reference->c, &ref, t.reference, &t, &f);
	}
	check(COND(f.valid) && COND(f.reference) && COND(f.ppm == 0.0) && COND(f.err_ppm == t.err_ppm),
	      "frequency: the reference counter reads 0 ppm by construction, with its own error");

	sim_counter_init(&fast, "hpet64", SIM_RATE, 64, 14318180);
	fast.st.healthy = true;
	frequency_check(&fast.c, &fast.st, NULL, &t, &f);
	check(COND(!f.valid) && COND(fast.st.healthy), "frequency: no calibrator for the device: no check, no verdict");
	sim_counter_init(&tsc, "tsc", SIM_RATE, 64, 0);
	tsc.desc.tsc_based = true;
	frequency_check(&tsc.c, &tsc.st, &cal[0], &t, &f);
	check(!f.valid, "frequency: a TSC read has no frequency check of its own");
	t.hz = 0;
	frequency_check(&pm.c, &pm.st, &cal[1], &t, &f);
	check(!f.valid, "frequency: no TSC frequency, no check");
}

static char logbuf[1 << 16];
static size_t loglen;
static void sink(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	if (loglen + n < sizeof logbuf) {
		memcpy(logbuf + loglen, s, n);
		loglen += n;
		logbuf[loglen] = 0;
	}
}

static void test_record(void)
{
	static struct log l;
	struct tsc_claims claims = { 0, 2600000000ull, 0 };
	struct tsc_choice t = { 2600000000.0, -1, "cpuid16", NULL };

	setup();
	log_init(&l, sink, NULL);
	loglen = 0;
	record_tsc(&l, &t, cal, 3, &claims, 100, true);
	check(COND(strstr(logbuf, "\"hz\":2600000000")) && COND(strstr(logbuf, "\"source\":\"cpuid16\"")) &&
		      COND(strstr(logbuf, "\"sources\":{\"cpuid16\":2600000000}")) &&
		      COND(strstr(logbuf, "\"error_ppm\":null")) && COND(strstr(logbuf, "\"window_ms\":100")) &&
		      COND(strstr(logbuf, "\"invariant\":true")),
	      "record: a CPUID-only frequency has a null error; only the sources that spoke are listed");
	t = (struct tsc_choice){ 0, -1, "none", NULL };
	loglen = 0;
	record_tsc(&l, &t, cal, 3, &claims, 100, false);
	check(strstr(logbuf, "\"hz\":null") != NULL, "record: no frequency at all is null, never 0");
}

int main(void)
{
	test_choice();
	test_failures();
	test_frequency_check();
	test_record();
	return check_done();
}
