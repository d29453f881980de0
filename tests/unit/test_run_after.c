/* SPDX-License-Identifier: BSD-2-Clause */
/* What follows the run (probe/run_after.c) on the simulated platform
 * (sim_platform.h), with a simulated `after` whose plan, run, key and series
 * file are recorded: the end record's after, after_via and after_problem,
 * the countdown and the key that cancels it, the exit device left alone
 * when a reboot follows, and the series' continuation and stop.  The option
 * words themselves (after=, after_s=, runs=) are checked here too. */
#include <setjmp.h>
#include <stdlib.h>
#include "tests/unit/check.h"
#include "tests/unit/sim_platform.h"
#include "probe/exit_status.h"
#include "probe/run.h"

static struct {
	bool can_poweroff;
	int plans, runs, keys, key_at; /* key_at: the poll that sees a key (0: never) */
	enum options_after ran;
	char series_state[16], series_why[160];
	int series_ends;
	bool series_write_fails;
} fake;

static bool fake_plan(void *ctx, enum options_after what, const struct acpi_info *acpi, char *via, size_t vcap,
		      char *why, size_t wcap)
{
	(void)ctx;
	(void)acpi;
	fake.plans++;
	if (what == OPT_AFTER_POWEROFF && !fake.can_poweroff) {
		snprintf(why, wcap, "no \\_S5 package in the DSDT");
		return false;
	}
	snprintf(via, vcap, what == OPT_AFTER_REBOOT ? "sim reset" : "sim S5");
	return true;
}

static void fake_run(void *ctx, enum options_after what, const struct acpi_info *acpi,
		     void (*say)(void *say_ctx, const char *line), void *say_ctx, char *why, size_t wcap)
{
	(void)ctx;
	(void)acpi;
	fake.runs++;
	fake.ran = what;
	say(say_ctx, "sim: trying");
	snprintf(why, wcap, "the simulation cannot reset");
}

static bool fake_key(void *ctx)
{
	(void)ctx;
	return ++fake.keys == fake.key_at;
}

static bool fake_series_end(void *ctx, const char *state, const char *stop_why, char *why, size_t wcap)
{
	(void)ctx;
	fake.series_ends++;
	snprintf(fake.series_state, sizeof fake.series_state, "%s", state);
	snprintf(fake.series_why, sizeof fake.series_why, "%s", stop_why ? stop_why : "");
	if (fake.series_write_fails) {
		snprintf(why, wcap, "the volume is full");
		return false;
	}
	return true;
}

static const struct platform_after fake_after = {
	.plan = fake_plan, .run = fake_run, .key = fake_key, .max_polls_per_s = 50, .series_end = fake_series_end,
};

/* A TSC and an HPET: enough for a run to end ok. */
static const struct counter_driver *const machine[] = { &sim_tsc_driver, &sim_hpet_driver };

#define NO_S5 1       /* the fake platform cannot power off */
#define KEY 2         /* a key comes at the 70th poll of the countdown */
#define WRITE_FAILS 4 /* the series file cannot be written */

/* Boots the simulated machine; series: index/of (of 0: none). */
static void boot(const char *cmdline, unsigned index, unsigned of, unsigned flags)
{
	static struct platform p;

	sim_reset();
	memset(&fake, 0, sizeof fake);
	fake.can_poweroff = !(flags & NO_S5);
	fake.key_at = flags & KEY ? 70 : 0;
	fake.series_write_fails = flags & WRITE_FAILS;
	sim.n_brackets = 1;
	sim_platform(&p, cmdline, machine, sizeof machine / sizeof machine[0]);
	p.after = &fake_after;
	sim.facts.series = (struct platform_series){ "0000-sim", index, of };
	sim_boot(&p);
}

/* The end record's line. */
static const char *end_line(void)
{
	static char line[2048];
	const char *e = sim.log ? strstr(sim.log, "{\"type\":\"end\"") : NULL;
	size_t n = 0;
	line[0] = 0;
	if (e) {
		while (e[n] && e[n] != '\n' && n + 1 < sizeof line)
			n++;
		memcpy(line, e, n);
		line[n] = 0;
	}
	return line;
}

#define OPTS "samples=1000 rounds=10 calib_ms=20 counters=tsc "

static void cases(void)
{
	boot(OPTS, 0, 0, 0);
	check(COND(strstr(end_line(), "\"after\":\"halt\"")) && COND(!strstr(end_line(), "after_via")) &&
		      COND(!fake.plans) && COND(sim.exit_code == EXIT_CODE_OK),
	      "default: end.after halt, no plan asked, the exit code goes to the exit device (%s)", end_line());
	boot(OPTS "after=reboot", 0, 0, 0);
	check(COND(strstr(end_line(), "\"after\":\"reboot\",\"after_via\":\"sim reset\"")) && COND(fake.runs == 1) &&
		      COND(fake.ran == OPT_AFTER_REBOOT) && COND(sim.exit_code == 0),
	      "after=reboot: end names it and how; the exit device is left alone (code %u); run once", sim.exit_code);
	check(COND(strstr(sim.screen, "next: rebooting, through sim reset")) &&
		      COND(strstr(sim.screen, "could not reboot: the simulation")),
	      "after=reboot: the screen says what follows, and why it did not happen");
	boot(OPTS "after=poweroff", 0, 0, NO_S5);
	check(COND(strstr(end_line(),
			  "\"after\":\"halt\",\"after_problem\":\"poweroff asked for, but not possible: no \\\\_S5")) &&
		      COND(!fake.runs) && COND(sim.exit_code == EXIT_CODE_OK),
	      "after=poweroff where it cannot be done: end.after halt with the reason (%s)", end_line());
	boot(OPTS "after=poweroff after_s=2", 0, 0, 0);
	check(COND(strstr(end_line(), "\"after\":\"poweroff\"")) && COND(fake.keys >= 2) &&
		      COND(fake.ran == OPT_AFTER_POWEROFF) &&
		      COND(strstr(sim.screen, "powering off in 2 s - press any key to halt")) &&
		      COND(strstr(sim.screen, "powering off in 1 s")),
	      "after_s=2: two countdown lines, %d key polls, then power off", fake.keys);
	boot(OPTS "after=reboot after_s=3", 0, 0, KEY);
	check(COND(strstr(end_line(), "\"after\":\"halt\"")) && COND(strstr(end_line(), "\"after_cancelled\":true")) &&
		      COND(!fake.runs) && COND(strstr(sim.screen, "a key was pressed")),
	      "a key during the countdown: end.after halt, after_cancelled, nothing run (%s)", end_line());
}

static void series(void)
{
	boot(OPTS "runs=3 after=poweroff", 1, 3, 0);
	check(COND(strstr(sim.log, "\"series\":{\"id\":\"0000-sim\",\"index\":1,\"of\":3}")) &&
		      COND(strstr(end_line(), "\"after\":\"reboot\"")) &&
		      COND(strstr(end_line(), "\"series\":\"continues\"")) &&
		      COND(!strcmp(fake.series_state, "continues")) && COND(fake.ran == OPT_AFTER_REBOOT),
	      "series boot 1 of 3: begin.series, a reboot follows whatever after= says, the file says continues");
	boot(OPTS "runs=3 after=poweroff", 3, 3, 0);
	check(COND(strstr(end_line(), "\"after\":\"poweroff\"")) && COND(strstr(end_line(), "\"series\":\"done\"")) &&
		      COND(!strcmp(fake.series_state, "done")),
	      "series boot 3 of 3: done, then after= applies (poweroff)");
	boot(OPTS "runs=3 after=poweroff fault=gp", 2, 3, 0);
	check(COND(strstr(end_line(), "\"status\":\"failed\"")) && COND(strstr(end_line(), "\"series\":\"stopped\"")) &&
		      COND(strstr(end_line(), "\"series_stopped\":\"boot 2 of 3 ended failed\"")) &&
		      COND(strstr(end_line(), "\"after\":\"poweroff\"")) && COND(!strcmp(fake.series_state, "stopped")),
	      "a failed boot 2 of 3 stops the series (the file says why), then after= applies (%s)", end_line());
	boot(OPTS "runs=3", 1, 3, WRITE_FAILS);
	check(COND(fake.series_ends == 1) && COND(strstr(end_line(), "\"after\":\"halt\"")) &&
		      COND(strstr(end_line(), "\"after_problem\":\"the series stops: the volume is full\"")) &&
		      COND(strstr(end_line(), "\"series\":\"stopped\"")) && COND(!fake.runs),
	      "the series file cannot be written: no reboot into a boot that would not know its place (%s)",
	      end_line());
	boot(OPTS "runs=3", 0, 0, 0);
	check(strstr(sim.log, "\"series\":null,\"series_problem\":\"a series of boots needs a UEFI boot") != NULL,
	      "runs=3 without a series file: begin.series null and why");
}

static void options(void)
{
	struct options o;
	options_parse(&o, "after=poweroff after_s=30 runs=10");
	check(COND(o.after == OPT_AFTER_POWEROFF) && COND(o.after_s == 30) && COND(o.runs == 10) && COND(!o.n_problems),
	      "after=poweroff after_s=30 runs=10 parse");
	options_parse(&o, "");
	check(COND(o.after == OPT_AFTER_HALT) && COND(!o.after_s) && COND(o.runs == 1),
	      "built in: halt, no countdown, one run");
	options_parse(&o, "after=explode after_s=4000 runs=0 runs=1000");
	check(COND(o.after == OPT_AFTER_HALT) && COND(!o.after_s) && COND(o.runs == 1) && COND(o.n_problems == 4) &&
		      COND(strstr(o.problems[0], "not halt, reboot or poweroff")),
	      "bad values: each reported, defaults kept (%d problems: %s)", o.n_problems, o.problems[0]);
	check(COND(!strcmp(options_after_name(OPT_AFTER_REBOOT), "reboot")) &&
		      COND(!strcmp(options_after_name(OPT_AFTER_POWEROFF), "poweroff")),
	      "after names");
}

int main(void)
{
	options();
	cases();
	series();
	return check_done();
}
