/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/options.c: presets, every option, and every way a boot line can be
 * wrong.  A bad word must give exactly one problem that names the option, and
 * leave everything else as the preset had it.
 *
 * What the presets are comes from image/presets.cfg (read from the source
 * tree, through probe/presets.c): preset=NAME must mean that file's words,
 * which the build compiled into options.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/options.h"
#include "probe/presets.h"
#include "tests/unit/check.h"

#define PRESETS_CFG "image/presets.cfg"

static struct presets shipped; /* image/presets.cfg */

/* The presets as presets.cfg defines them: the built-in values, then the
 * preset's words, nothing else (no table: no default preset under them). */
struct want {
	const char *preset;
	unsigned samples, rounds, raw, calib_ms;
};
static struct want want_default, want_quick, want_verbose;

static int is_preset(const struct options *o, const struct want *w)
{
	return !strcmp(o->preset, w->preset) && o->samples == w->samples && o->rounds == w->rounds &&
	       o->raw_samples == w->raw && o->calib_ms == w->calib_ms;
}

static void load_shipped(void)
{
	static char text[PRESETS_FILE_MAX + 1];
	FILE *f = fopen(PRESETS_CFG, "rb");
	size_t n = f ? fread(text, 1, sizeof text, f) : 0;
	struct { const char *name; struct want *w; } wanted[] = {
		{ "default", &want_default }, { "quick", &want_quick }, { "verbose", &want_verbose } };

	if (f)
		fclose(f);
	presets_init(&shipped);
	presets_parse(&shipped, text, n);
	check(COND(f) && COND(n <= PRESETS_FILE_MAX) && COND(!shipped.n_problems), "options: %s read, no problem (%s)",
	      PRESETS_CFG,
	      shipped.n_problems ? shipped.problems[0].text
	      : f                ? "none"
				 : "cannot open it: run from the source tree");
	for (size_t k = 0; k < sizeof wanted / sizeof wanted[0]; k++) {
		int i = presets_find(&shipped, wanted[k].name);
		struct options o;
		options_parse_with(&o, i >= 0 ? shipped.preset[i].options : "", NULL, 0);
		*wanted[k].w = (struct want){ wanted[k].name, o.samples, o.rounds, o.raw_samples, o.calib_ms };
		check(COND(i >= 0) && COND(!o.n_problems),
		      "options: %s has the preset %s (\"%s\"), whose words have no problem", PRESETS_CFG,
		      wanted[k].name, i >= 0 ? shipped.preset[i].options : "");
	}
	/* What the presets' descriptions promise of them (tickprobe-boot(7)). */
	check(COND(want_quick.samples < want_default.samples) && COND(want_quick.calib_ms < want_default.calib_ms) &&
		      COND(!want_default.raw) && COND(want_verbose.raw > 0) &&
		      COND(want_verbose.samples == want_default.samples),
	      "options: quick reads fewer samples (%u) in shorter windows (%u ms) than default; verbose adds %u raw costs",
	      want_quick.samples, want_quick.calib_ms, want_verbose.raw);
}

/* Everything but the problem list: what a bad word must leave alone. */
static int same_settings(const struct options *a, const struct options *b)
{
	static struct options x, y;
	memcpy(&x, a, sizeof x); /* memcpy: padding too, which options_parse zeroes */
	memcpy(&y, b, sizeof y);
	x.n_problems = y.n_problems = 0;
	memset(x.problems, 0, sizeof x.problems);
	memset(y.problems, 0, sizeof y.problems);
	return !memcmp(&x, &y, sizeof x);
}

static void test_defaults(void)
{
	static const char *empty[] = { NULL, "", "   ", " \t\r\n " };
	struct options o;

	for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
		memset(&o, 0x5a, sizeof o);
		options_parse(&o, empty[i]);
		check(COND(is_preset(&o, &want_default)) && COND(o.serial_port == 0x3f8) && COND(o.baud == 115200) &&
			      COND(o.n_counters == 0) && COND(o.fault[0] == 0) && COND(o.n_problems == 0),
		      "options: %s command line gives the defaults (preset default, COM1 at 115200, all counters)",
		      empty[i] ? (empty[i][0] ? "a blank" : "an empty") : "a NULL");
	}
	check(COND(options_wants_counter(&o, "tsc")) && COND(options_wants_counter(&o, "anything")),
	      "options: with no counters= every counter is wanted");
}

static void test_presets(void)
{
	static const struct {
		const char *line;
		const struct want *w;
	} cases[] = {
		{ "preset=default", &want_default },
		{ "preset=quick", &want_quick },
		{ "preset=verbose", &want_verbose },
		{ "preset=quick preset=verbose", &want_verbose },
		{ "preset=verbose preset=default", &want_default },
	};
	struct options o;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		options_parse(&o, cases[i].line);
		check(COND(is_preset(&o, cases[i].w)) && COND(o.n_problems == 0),
		      "options: \"%s\" gives %s: %u samples, %u rounds, %u raw", cases[i].line, cases[i].w->preset,
		      o.samples, o.rounds, o.raw_samples);
	}

	/* The preset applies first, wherever it stands, and other words refine it. */
	options_parse(&o, "samples=500 preset=quick");
	check(COND(!strcmp(o.preset, "quick")) && COND(o.samples == 500) && COND(o.rounds == want_quick.rounds) &&
		      COND(o.calib_ms == want_quick.calib_ms) && COND(!o.n_problems),
	      "options: samples=500 before preset=quick still refines quick (samples %u, calib_ms %u)", o.samples,
	      o.calib_ms);
	options_parse(&o, "raw=5 rounds=4\tpreset=verbose calib_ms=7");
	check(COND(!strcmp(o.preset, "verbose")) && COND(o.raw_samples == 5) && COND(o.rounds == 4) &&
		      COND(o.calib_ms == 7) && COND(o.samples == want_verbose.samples) && COND(!o.n_problems),
	      "options: raw=5 rounds=4 around preset=verbose keep their values over the preset's");

	/* Every preset of the file, as typed on a command line, is its words. */
	for (int i = 0; i < shipped.count; i++) {
		struct options a, b;
		char line[64];
		snprintf(line, sizeof line, "preset=%s", shipped.preset[i].name);
		options_parse(&a, line);
		options_parse_with(&b, shipped.preset[i].options, NULL, 0);
		memcpy(b.preset, a.preset, sizeof b.preset);
		check(COND(!strcmp(a.preset, shipped.preset[i].name)) && COND(same_settings(&a, &b)) &&
			      COND(!a.n_problems),
		      "options: \"%s\" means %s's words in %s: \"%s\"", line, shipped.preset[i].name, PRESETS_CFG,
		      shipped.preset[i].options);
	}
}

/* A table of presets other than presets.cfg's: what the expansion does with
 * words that the build's checks would not let into the real one. */
static void test_preset_table(void)
{
	static const struct options_preset table[] = {
		{ "default", "samples=200" },
		{ "quick", "samples=300 rounds=3" },
		{ "nested", "preset=quick rounds=2" },
		{ "broken", "samples=lots rounds=4" },
		{ "abcdefghijklmnopqrstuvw", "raw=1" },
	};
	static const struct options_preset no_default[] = { { "quick", "samples=300" } };
	struct options o;

	options_parse_with(&o, "", table, 5);
	check(COND(!strcmp(o.preset, "default")) && COND(o.samples == 200) && COND(o.rounds == 10) &&
		      COND(!o.n_problems),
	      "options: no preset= word: the table's default (samples %u)", o.samples);
	options_parse_with(&o, "preset=quick", table, 5);
	check(COND(!strcmp(o.preset, "quick")) && COND(o.samples == 300) && COND(o.rounds == 3) && COND(!o.n_problems),
	      "options: preset=quick: quick's words only, not default's under them");
	options_parse_with(&o, "preset=nested", table, 5);
	check(COND(o.n_problems == 1) && COND(strstr(o.problems[0], "preset nested: preset=quick inside a preset")) &&
		      COND(o.samples == 100000) && COND(o.rounds == 2),
	      "options: preset= inside a preset: a problem naming both (%s), the other words apply",
	      o.n_problems ? o.problems[0] : "none");
	options_parse_with(&o, "preset=broken rounds=6", table, 5);
	check(COND(o.n_problems == 1) && COND(strstr(o.problems[0], "preset broken: option samples: 'lots'")) &&
		      COND(o.samples == 100000) && COND(o.rounds == 6),
	      "options: a bad word in a preset names the preset (%s)", o.n_problems ? o.problems[0] : "none");
	options_parse_with(&o, "preset=abcdefghijklmnopqrstuvw", table, 5);
	check(COND(!strcmp(o.preset, "abcdefghijklmnopqrstuvw")) && COND(o.raw_samples == 1),
	      "options: a 23-character preset name is kept whole");
	options_parse_with(&o, "rounds=2", no_default, 1);
	check(COND(!strcmp(o.preset, "default")) && COND(o.samples == 100000) && COND(o.rounds == 2) &&
		      COND(!o.n_problems),
	      "options: a table without default: the built-in values, called default");
	options_parse_with(&o, "preset=quick preset=fast", no_default, 1);
	check(COND(o.n_problems == 1) && COND(strstr(o.problems[0], "'fast', using 'quick'")) && COND(o.samples == 300),
	      "options: an unknown preset after a known one keeps the known one (%s)",
	      o.n_problems ? o.problems[0] : "none");
}

/* What a menu entry boots for a preset (boot/efi.c, tools/qemu). */
static void test_menu_cmdline(void)
{
	struct preset p;
	char out[64];
	int q = presets_find(&shipped, "quick");

	for (int i = 0; i < shipped.count; i++) {
		char want[64];
		snprintf(want, sizeof want, "preset=%s", shipped.preset[i].name);
		check(COND(options_menu_cmdline(&shipped.preset[i], NULL, out, sizeof out)) && COND(!strcmp(out, want)),
		      "options: the menu entry for %s boots \"%s\"", shipped.preset[i].name, out);
	}
	if (q < 0)
		return;
	p = shipped.preset[q];
	check(COND(options_menu_cmdline(&p, "bogus=1", out, sizeof out)) && COND(!strcmp(out, "preset=quick bogus=1")),
	      "options: tp_options follow the preset: \"%s\"", out);
	int n = snprintf(p.options, sizeof p.options, " %s \t", shipped.preset[q].options);
	check(COND(n > 0) && COND((size_t)n < sizeof p.options), "options: quick's words fit with blanks around them");
	for (char *c = p.options; *c; c++)
		if (*c == ' ')
			*c = '\t';
	check(COND(options_menu_cmdline(&p, "", out, sizeof out)) && COND(!strcmp(out, "preset=quick")),
	      "options: the same words with other blanks are still the preset");
	snprintf(p.options, sizeof p.options, "samples=5000");
	check(COND(options_menu_cmdline(&p, "bogus=1", out, sizeof out)) && COND(!strcmp(out, "samples=5000 bogus=1")),
	      "options: quick with other words than this build's boots those words: \"%s\"", out);
	snprintf(p.name, sizeof p.name, "long");
	snprintf(p.options, sizeof p.options, "preset=verbose samples=1000000");
	check(COND(options_menu_cmdline(&p, NULL, out, sizeof out)) &&
		      COND(!strcmp(out, "preset=verbose samples=1000000")),
	      "options: a preset this build lacks boots its own words: \"%s\"", out);
	p.options[0] = 0;
	check(COND(options_menu_cmdline(&p, "bogus=1", out, sizeof out)) && COND(!strcmp(out, "bogus=1")),
	      "options: an empty unknown preset boots only tp_options, no leading blank");
	check(COND(options_menu_cmdline(NULL, "bogus=1", out, sizeof out)) && COND(!strcmp(out, "bogus=1")) &&
		      COND(options_menu_cmdline(NULL, NULL, out, sizeof out)) && COND(!out[0]),
	      "options: no preset: tp_options alone, or nothing");
	check(COND(!options_menu_cmdline(&shipped.preset[q], "bogus=1", out, 8)) && COND(strlen(out) == 7),
	      "options: a command line that does not fit is cut, terminated and said to be (\"%s\")", out);
}

static void test_each_option(void)
{
	struct options o;

	options_parse(&o, "samples=12345");
	check(COND(o.samples == 12345) && COND(!o.n_problems), "options: samples=12345");
	options_parse(&o, "samples=0x100");
	check(COND(o.samples == 256) && COND(!o.n_problems), "options: samples=0x100 is hexadecimal 256");
	options_parse(&o, "samples=100 rounds=1");
	check(COND(o.samples == 100) && COND(o.rounds == 1) && COND(!o.n_problems),
	      "options: samples=100 rounds=1, the lower bounds");
	options_parse(&o, "samples=10000000 rounds=100");
	check(COND(o.samples == 10000000) && COND(o.rounds == 100) && COND(!o.n_problems),
	      "options: samples=10000000 rounds=100, the upper bounds");
	options_parse(&o, "rounds=7");
	check(COND(o.rounds == 7) && COND(!o.n_problems), "options: rounds=7");
	options_parse(&o, "raw=123");
	check(COND(o.raw_samples == 123) && COND(!o.n_problems), "options: raw=123");
	options_parse(&o, "raw=0 preset=verbose");
	check(COND(o.raw_samples == 0) && COND(!o.n_problems), "options: raw=0 switches verbose's raw samples off");
	options_parse(&o, "calib_ms=5");
	check(COND(o.calib_ms == 5) && COND(!o.n_problems), "options: calib_ms=5");
	options_parse(&o, "baud=9600");
	check(COND(o.baud == 9600) && COND(!o.n_problems), "options: baud=9600");
	options_parse(&o, "preset=quick");
	check(!o.slow_rates_off, "options: the 1 Hz counters' rates are timed unless asked");
	options_parse(&o, "slow_rates=off");
	check(COND(o.slow_rates_off) && COND(!o.n_problems), "options: slow_rates=off");
	options_parse(&o, "slow_rates=off slow_rates=on");
	check(COND(!o.slow_rates_off) && COND(!o.n_problems), "options: slow_rates=on after off: the last word wins");
	options_parse(&o, "slow_rates=no");
	check(COND(!o.slow_rates_off) && COND(o.n_problems == 1) && COND(strstr(o.problems[0], "slow_rates")),
	      "options: slow_rates=no is one problem naming the option (%s)", o.n_problems ? o.problems[0] : "none");
	options_parse(&o, "serial=0x2f8");
	check(COND(o.serial_port == 0x2f8) && COND(!o.n_problems), "options: serial=0x2f8");
	options_parse(&o, "serial=0X3E8");
	check(COND(o.serial_port == 0x3e8) && COND(!o.n_problems), "options: serial=0X3E8 (upper-case hex)");
	options_parse(&o, "serial=760");
	check(COND(o.serial_port == 760) && COND(!o.n_problems), "options: serial=760 (decimal)");
	options_parse(&o, "serial=none");
	check(COND(o.serial_port == 0) && COND(!o.n_problems), "options: serial=none turns serial output off");
	options_parse(&o, "fault=gp");
	check(COND(!strcmp(o.fault, "gp")) && COND(!o.n_problems), "options: fault=gp");
	options_parse(&o, "fault=pf");
	check(COND(!strcmp(o.fault, "pf")) && COND(!o.n_problems), "options: fault=pf");
	options_parse(&o, "\r\nsamples=2000\n\trounds=20\r\n");
	check(COND(o.samples == 2000) && COND(o.rounds == 20) && COND(!o.n_problems),
	      "options: tabs, CR and LF separate words");
}

static void test_counters(void)
{
	struct options o;
	char line[512];
	size_t n;

	options_parse(&o, "counters=a,b,c");
	check(COND(o.n_counters == 3) && COND(!strcmp(o.counters[0], "a")) && COND(!strcmp(o.counters[1], "b")) &&
		      COND(!strcmp(o.counters[2], "c")) && COND(!o.n_problems),
	      "options: counters=a,b,c gives 3 names in order");
	check(COND(options_wants_counter(&o, "a")) && COND(options_wants_counter(&o, "b")) &&
		      COND(options_wants_counter(&o, "c")),
	      "options: every listed counter is wanted");
	check(COND(!options_wants_counter(&o, "d")) && COND(!options_wants_counter(&o, "ab")) &&
		      COND(!options_wants_counter(&o, "")) && COND(!options_wants_counter(&o, "a,b")),
	      "options: unlisted names, prefixes and the empty name are not wanted");

	options_parse(&o, "counters=hpet,,tsc,");
	check(COND(o.n_counters == 2) && COND(!strcmp(o.counters[0], "hpet")) && COND(!strcmp(o.counters[1], "tsc")),
	      "options: empty items in the list are skipped (%d names)", o.n_counters);
	options_parse(&o, "counters=hpet counters=i8254-outb43");
	check(COND(o.n_counters == 1) && COND(options_wants_counter(&o, "i8254-outb43")) &&
		      COND(!options_wants_counter(&o, "hpet")),
	      "options: a second counters= replaces the first");
	options_parse(&o, "counters=abcdefghijklmno");
	check(COND(o.n_counters == 1) && COND(options_wants_counter(&o, "abcdefghijklmno")),
	      "options: a 15-character counter name is kept whole");

	n = (size_t)snprintf(line, sizeof line, "counters=");
	for (int i = 0; i < OPT_MAX_COUNTERS + 5; i++)
		n += (size_t)snprintf(line + n, sizeof line - n, "c%d,", i);
	options_parse(&o, line);
	check(COND(o.n_counters == OPT_MAX_COUNTERS) && COND(options_wants_counter(&o, "c0")) &&
		      COND(options_wants_counter(&o, "c15")) && COND(!options_wants_counter(&o, "c16")),
	      "options: %d names keep the first %d and nothing overflows", OPT_MAX_COUNTERS + 5, OPT_MAX_COUNTERS);
}

static void test_bad_options(void)
{
	/* line, the text its one problem must contain */
	static const char *bad[][2] = {
		{ "bogus=1", "bogus" },
		{ "samples=abc", "samples" },
		{ "samples=", "samples" },
		{ "samples=12x", "samples" },
		{ "samples=0x", "samples" },
		{ "samples=-5", "samples" },
		{ "samples=0", "samples" },
		{ "samples=99", "samples" },
		{ "samples=10000001", "samples" },
		{ "samples=99999999999", "samples" },
		{ "samples=184467440737095516160", "samples" },
		{ "rounds=0", "rounds" },
		{ "rounds=1000", "rounds" },
		{ "rounds=101", "rounds" },
		{ "raw=100001", "raw" },
		{ "calib_ms=0", "calib_ms" },
		{ "calib_ms=2001", "calib_ms" },
		{ "baud=0", "baud" },
		{ "baud=230400", "baud" },
		{ "justaword", "justaword" },
		{ "serial=COM1", "serial" },
		{ "serial=0", "serial" },
		{ "serial=0x10000", "serial" },
		{ "serial=", "serial" },
		{ "fault=ud", "fault" },
		{ "preset=fast", "preset" },
		{ "=5", "option" },
	};
	struct options def, o;

	options_parse(&def, NULL);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		options_parse(&o, bad[i][0]);
		check(COND(o.n_problems == 1) && COND(strstr(o.problems[0], bad[i][1])) &&
			      COND(same_settings(&o, &def)),
		      "options: \"%s\": one problem naming %s, defaults kept: \"%s\"", bad[i][0], bad[i][1],
		      o.n_problems ? o.problems[0] : "(none)");
	}
	options_parse(&o, "preset=fast");
	check(COND(strstr(o.problems[0], "fast")) && COND(!strcmp(o.preset, "default")),
	      "options: an unknown preset is named in its problem and 'default' stays");

	/* A bad word among good ones spoils only itself. */
	options_parse(&o, "preset=quick samples=lots rounds=5 serial=none");
	check(COND(o.n_problems == 1) && COND(o.samples == want_quick.samples) && COND(o.rounds == 5) &&
		      COND(o.serial_port == 0),
	      "options: samples=lots keeps quick's %u while rounds=5 and serial=none apply", want_quick.samples);
}

static void test_limits(void)
{
	static struct {
		struct options o;
		unsigned char guard[256];
	} g;
	char *line;
	size_t n = 0, cap = 8192;
	int ok = 1;

	/* Very long words are cut, reported once, and harmless. */
	line = malloc(cap);
	memset(line, 'x', 1000);
	line[1000] = 0;
	options_parse(&g.o, line);
	check(COND(g.o.n_problems == 1) && COND(strlen(g.o.problems[0]) < sizeof g.o.problems[0]) &&
		      COND(strstr(g.o.problems[0], "xxxx")),
	      "options: a 1000-byte word gives one problem, cut to fit (%zu bytes)", strlen(g.o.problems[0]));
	n = (size_t)snprintf(line, cap, "samples=");
	memset(line + n, '1', 900);
	line[n + 900] = 0;
	options_parse(&g.o, line);
	check(COND(g.o.n_problems == 1) && COND(g.o.samples == want_default.samples),
	      "options: samples= with 900 digits is rejected");
	n = (size_t)snprintf(line, cap, "counters=");
	memset(line + n, 'y', 900);
	line[n + 900] = 0;
	options_parse(&g.o, line);
	check(COND(g.o.n_counters == 1) && COND(strlen(g.o.counters[0]) < sizeof g.o.counters[0]),
	      "options: a 900-byte counter name is cut to fit");

	/* More problems than fit: the first OPT_MAX_PROBLEMS are kept, no more
	 * is written anywhere. */
	n = 0;
	for (int i = 0; i < 3 * OPT_MAX_PROBLEMS; i++)
		n += (size_t)snprintf(line + n, cap - n, "bad%d=%d ", i, i);
	memset(g.guard, 0xa5, sizeof g.guard);
	options_parse(&g.o, line);
	for (size_t i = 0; i < sizeof g.guard; i++)
		ok &= g.guard[i] == 0xa5;
	check(COND(g.o.n_problems == OPT_MAX_PROBLEMS) && COND(ok) && COND(strstr(g.o.problems[0], "bad0")) &&
		      COND(strstr(g.o.problems[OPT_MAX_PROBLEMS - 1], "bad7")),
	      "options: %d bad words keep the first %d problems, nothing written past the struct", 3 * OPT_MAX_PROBLEMS,
	      OPT_MAX_PROBLEMS);
	free(line);
}

/* The other CPUs: smp=, cpus=, the test hooks and the multi-CPU settings. */
static int wants_exactly(const struct options *o, const char *set)
{
	char want[TEAM_MAX_CPUS + 1];
	memset(want, '0', TEAM_MAX_CPUS);
	want[TEAM_MAX_CPUS] = 0;
	for (const char *p = set; *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b; a++)
			want[a] = '1';
		p = *end ? end + 1 : end;
	}
	for (unsigned i = 0; i < TEAM_MAX_CPUS + 8; i++)
		if (options_wants_cpu(o, i) != (i < TEAM_MAX_CPUS && want[i] == '1'))
			return 0;
	return 1;
}

/* cpus= lines and the CPU indices each must leave wanted, no problem said. */
struct cpus_case {
	const char *cmdline, *want, *says;
};
static const struct cpus_case cpus_cases[] = {
	{ "cpus=2", "0-1", "cpus=2 is CPUs 0 and 1" },
	{ "cpus=256", "0-255", "cpus=256 is every CPU" },
	{ "cpus=1", "0", "cpus=1 is the boot CPU only" },
	{ "cpus=0,2-4,7", "0,2-4,7", "cpus=0,2-4,7 lists those indices" },
	{ "cpus=5-5", "5", "cpus=5-5 is index 5 alone (a single number is a count)" },
	{ "cpus=255,0-1", "0-1,255", "cpus=255,0-1, out of order" },
	{ "cpus=0,2 cpus=all", "0-255", "a later cpus=all replaces a list" },
	{ "cpus=3 cpus=1,1", "1", "a later list replaces a count; repeats are harmless" },
};

static void test_smp_options(void)
{
	struct options def, o;

	options_parse(&def, NULL);
	check(COND(!def.smp_off) && COND(wants_exactly(&def, "0-255")) && COND(!def.ghost_cpu_set) &&
		      COND(!strcmp(def.tsc_sync, "bsp")) && COND(!def.tsc_skew_set) && COND(def.latency_s == 0),
	      "options: by default every CPU takes part, no ghost, tsc_sync=bsp (each CPU against the boot CPU), no skew, latency=0");

	options_parse(&o, "smp=off");
	check(COND(o.smp_off) && COND(!o.n_problems), "options: smp=off");
	options_parse(&o, "smp=off smp=on");
	check(COND(!o.smp_off) && COND(!o.n_problems), "options: a later smp=on undoes smp=off");
	for (unsigned i = 0; i < sizeof cpus_cases / sizeof cpus_cases[0]; i++) {
		const struct cpus_case *k = &cpus_cases[i];
		options_parse(&o, k->cmdline);
		check(COND(wants_exactly(&o, k->want)) && COND(!o.n_problems), "options: %s", k->says);
	}
	options_parse(&o, "ghost_cpu=77");
	check(COND(o.ghost_cpu_set) && COND(o.ghost_cpu == 77) && COND(!o.n_problems), "options: ghost_cpu=77");
	options_parse(&o, "ghost_cpu=0xfffffffe");
	check(COND(o.ghost_cpu_set) && COND(o.ghost_cpu == 0xfffffffeu) && COND(!o.n_problems),
	      "options: ghost_cpu=0xfffffffe, the highest");
	options_parse(&o, "tsc_sync=bsp");
	check(COND(!strcmp(o.tsc_sync, "bsp")) && COND(!o.n_problems), "options: tsc_sync=bsp");
	options_parse(&o, "tsc_sync=bsp tsc_sync=matrix");
	check(COND(!strcmp(o.tsc_sync, "matrix")) && COND(!o.n_problems), "options: tsc_sync=matrix");
	options_parse(&o, "tsc_skew=3:-5000");
	check(COND(o.tsc_skew_set) && COND(o.tsc_skew_cpu == 3) && COND(o.tsc_skew_cycles == -5000) &&
		      COND(!o.n_problems),
	      "options: tsc_skew=3:-5000");
	options_parse(&o, "tsc_skew=255:+1000000000000");
	check(COND(o.tsc_skew_set) && COND(o.tsc_skew_cpu == 255) && COND(o.tsc_skew_cycles == 1000000000000ll) &&
		      COND(!o.n_problems),
	      "options: tsc_skew=255:+1000000000000, the largest");
	options_parse(&o, "tsc_skew=0:0");
	check(COND(o.tsc_skew_set) && COND(o.tsc_skew_cpu == 0) && COND(o.tsc_skew_cycles == 0) && COND(!o.n_problems),
	      "options: tsc_skew=0:0");
	options_parse(&o, "latency=3600");
	check(COND(o.latency_s == 3600) && COND(!o.n_problems), "options: latency=3600, the longest");
	options_parse(&o, "latency=0");
	check(COND(o.latency_s == 0) && COND(!o.n_problems), "options: latency=0");
	options_parse(&o, "fault=ap-gp");
	check(COND(!strcmp(o.fault, "ap-gp")) && COND(!o.n_problems), "options: fault=ap-gp");
	options_parse(&o, "fault=ap-hang");
	check(COND(!strcmp(o.fault, "ap-hang")) && COND(!o.n_problems),
	      "options: fault=ap-hang (fits the field whole)");
}

/* Each bad value: one problem that names its option, and the defaults kept. */
static void test_smp_options_bad(void)
{
	static const char *bad[][2] = {
		{ "smp=maybe", "smp" },
		{ "smp=", "smp" },
		{ "cpus=0", "cpus" },
		{ "cpus=257", "cpus" },
		{ "cpus=none", "cpus" },
		{ "cpus=", "cpus" },
		{ "cpus=1,", "cpus" },
		{ "cpus=,1", "cpus" },
		{ "cpus=3-1", "cpus" },
		{ "cpus=1-", "cpus" },
		{ "cpus=0-256", "cpus" },
		{ "cpus=1,,2", "cpus" },
		{ "cpus=0x3", "cpus" },
		{ "cpus=-2", "cpus" },
		{ "ghost_cpu=", "ghost_cpu" },
		{ "ghost_cpu=x", "ghost_cpu" },
		{ "ghost_cpu=0xffffffff", "ghost_cpu" },
		{ "ghost_cpu=4294967296", "ghost_cpu" },
		{ "tsc_sync=all", "tsc_sync" },
		{ "tsc_sync=", "tsc_sync" },
		{ "tsc_skew=1", "tsc_skew" },
		{ "tsc_skew=1:", "tsc_skew" },
		{ "tsc_skew=:5", "tsc_skew" },
		{ "tsc_skew=256:5", "tsc_skew" },
		{ "tsc_skew=1:5x", "tsc_skew" },
		{ "tsc_skew=1:1000000000001", "tsc_skew" },
		{ "tsc_skew=1:--5", "tsc_skew" },
		{ "latency=3601", "latency" },
		{ "latency=-1", "latency" },
		{ "latency=soon", "latency" },
		{ "fault=ap-ud", "fault" },
	};
	struct options def, o;

	options_parse(&def, NULL);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		options_parse(&o, bad[i][0]);
		check(COND(o.n_problems == 1) && COND(strstr(o.problems[0], bad[i][1])) &&
			      COND(same_settings(&o, &def)),
		      "options: \"%s\": one problem naming %s, defaults kept: \"%s\"", bad[i][0], bad[i][1],
		      o.n_problems ? o.problems[0] : "(none)");
	}
	/* A bad value keeps the earlier good one. */
	options_parse(&o, "cpus=2 cpus=2-1 tsc_skew=1:7 tsc_skew=1:x");
	check(COND(o.n_problems == 2) && COND(wants_exactly(&o, "0-1")) && COND(o.tsc_skew_cycles == 7),
	      "options: a bad cpus= or tsc_skew= after a good one keeps the good one");
}

int main(void)
{
	load_shipped();
	test_defaults();
	test_presets();
	test_preset_table();
	test_menu_cmdline();
	test_each_option();
	test_counters();
	test_bad_options();
	test_limits();
	test_smp_options();
	test_smp_options_bad();
	return check_done();
}
