/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/options.h"
#include <stdarg.h>
#include "lib/fmt.h"
#include "lib/util.h"

/* Bounds: enough samples to fill every exact histogram bin many times, and
 * few enough that an i8254 run (3-5 us a read on real hardware) stays
 * under a few minutes even at the maximum. */
#define MAX_SAMPLES 10000000u
#define MAX_ROUNDS 100u
#define MAX_RAW 100000u

/* Values before any preset or word: what an option means when neither
 * the preset nor the command line sets it. */
#define BASE_SAMPLES 100000u
#define BASE_ROUNDS 10u
#define BASE_CALIB_MS 100u

/* What each preset means, as option words: image/presets.cfg, compiled in. */
static const struct options_preset builtin_presets[] = {
#include "presets_table.h"
};
#define BUILTIN_COUNT ((int)(sizeof builtin_presets / sizeof builtin_presets[0]))

/* Problems name the preset whose words gave them, when one did. */
void options_problem(struct options *o, const char *in_preset, const char *fmt, ...)
{
	va_list ap;
	size_t n = 0;
	if (o->n_problems >= OPT_MAX_PROBLEMS)
		return;
	if (in_preset)
		n = (size_t)tp_snprintf(o->problems[o->n_problems], sizeof o->problems[0], "preset %s: ", in_preset);
	if (n >= sizeof o->problems[0])
		n = sizeof o->problems[0] - 1;
	va_start(ap, fmt);
	tp_vsnprintf(o->problems[o->n_problems++] + n, sizeof o->problems[0] - n, fmt, ap);
	va_end(ap);
}

/* Copy the next space-separated word into buf; returns the rest. */
static const char *word(const char *s, char *buf, size_t cap)
{
	size_t n = 0;
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
		if (n + 1 < cap)
			buf[n++] = *s;
		s++;
	}
	buf[n] = 0;
	return s;
}

static bool parse_u32(const char *s, uint32_t *out, uint32_t lo, uint32_t hi)
{
	uint64_t v = 0;
	unsigned base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return false;
		v = v * base + d;
		if (v > hi)
			return false;
	}
	if (v < lo)
		return false;
	*out = (uint32_t)v;
	return true;
}

static const struct options_preset *find_preset(const struct options_preset *table, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (tp_streq(table[i].name, name))
			return &table[i];
	return NULL;
}

static void set_number(struct options *o, const char *from, const char *key, const char *val, uint32_t *dst,
		       uint32_t lo, uint32_t hi)
{
	if (!parse_u32(val, dst, lo, hi)) {
		char range[48];
		tp_snprintf(range, sizeof range, "%u..%u", lo, hi);
		options_problem(o, from, "option %s: '%s' is not a whole number in %s, default kept", key, val, range);
	}
}

static void set_counters(struct options *o, const char *list)
{
	o->n_counters = 0;
	while (*list && o->n_counters < OPT_MAX_COUNTERS) {
		size_t n = 0;
		while (*list && *list != ',') {
			if (n + 1 < sizeof o->counters[0])
				o->counters[o->n_counters][n++] = *list;
			list++;
		}
		o->counters[o->n_counters][n] = 0;
		if (n)
			o->n_counters++;
		if (*list == ',')
			list++;
	}
}

/* ---- the other CPUs --------------------------------------------------- */

#define MAX_SKEW_CYCLES 1000000000000ll /* 10^12: over 100 s at 10 GHz */
#define MAX_LATENCY_S 3600u

/* A decimal number up to hi, ending at *end (',' '-' ':' or NUL). */
static bool parse_upto(const char **s, uint64_t hi, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = *s;
	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (uint64_t)(*p - '0')) > hi)
			return false;
	*s = p;
	*out = v;
	return true;
}

/* cpus=all, cpus=N (1..256: the first N), or cpus=a,b-c (indices 0..255). */
static bool set_cpus(struct options *o, const char *val)
{
	uint8_t bits[TEAM_MAX_CPUS / 8] = { 0 };
	const char *p = val;
	uint64_t a, b;

	if (tp_streq(val, "all")) {
		o->cpus_first = 0;
		o->cpus_listed = false;
		return true;
	}
	if (parse_upto(&p, TEAM_MAX_CPUS, &a) && !*p) {
		if (!a)
			return false;
		o->cpus_first = (uint16_t)a;
		o->cpus_listed = false;
		return true;
	}
	for (p = val;;) {
		if (!parse_upto(&p, TEAM_MAX_CPUS - 1, &a))
			return false;
		b = a;
		if (*p == '-') {
			p++;
			if (!parse_upto(&p, TEAM_MAX_CPUS - 1, &b) || b < a)
				return false;
		}
		for (; a <= b; a++)
			bits[a / 8] |= (uint8_t)(1u << (a % 8));
		if (!*p)
			break;
		if (*p++ != ',')
			return false;
	}
	o->cpus_first = 0;
	o->cpus_listed = true;
	tp_memcpy(o->cpus_list, bits, sizeof bits);
	return true;
}

/* tsc_skew=CPU:CYCLES, CYCLES signed. */
static bool set_tsc_skew(struct options *o, const char *val)
{
	const char *p = val;
	uint64_t cpu, cycles;
	bool minus;

	if (!parse_upto(&p, TEAM_MAX_CPUS - 1, &cpu) || *p++ != ':')
		return false;
	minus = *p == '-';
	p += minus || *p == '+';
	if (!parse_upto(&p, MAX_SKEW_CYCLES, &cycles) || *p)
		return false;
	o->tsc_skew_set = true;
	o->tsc_skew_cpu = (uint16_t)cpu;
	o->tsc_skew_cycles = minus ? -(int64_t)cycles : (int64_t)cycles;
	return true;
}

/* One of the options above; false when key is none of them. */
static bool smp_option(struct options *o, const char *from, const char *key, const char *val)
{
	uint32_t v;

	if (tp_streq(key, "smp")) {
		if (tp_streq(val, "off") || tp_streq(val, "on"))
			o->smp_off = tp_streq(val, "off");
		else
			options_problem(o, from, "option smp: '%s' is not on or off, ignored", val);
	} else if (tp_streq(key, "cpus")) {
		if (!set_cpus(o, val))
			options_problem(o, from, "option cpus: '%s' is not all, a count 1..%u or a list of indices 0..%u "
				   "(a,b-c), all kept", val, TEAM_MAX_CPUS, TEAM_MAX_CPUS - 1);
	} else if (tp_streq(key, "ghost_cpu")) {
		if (parse_u32(val, &v, 0, 0xfffffffeu)) {
			o->ghost_cpu_set = true;
			o->ghost_cpu = v;
		} else
			options_problem(o, from, "option ghost_cpu: '%s' is not an APIC ID 0..0xfffffffe, ignored", val);
	} else if (tp_streq(key, "tsc_sync")) {
		if (tp_streq(val, "matrix") || tp_streq(val, "bsp"))
			tp_snprintf(o->tsc_sync, sizeof o->tsc_sync, "%s", val);
		else
			options_problem(o, from, "option tsc_sync: '%s' is not matrix or bsp, bsp kept", val);
	} else if (tp_streq(key, "tsc_skew")) {
		if (!set_tsc_skew(o, val))
			options_problem(o, from, "option tsc_skew: '%s' is not CPU:CYCLES (CPU 0..%u, |CYCLES| <= 10^12), ignored",
				val, TEAM_MAX_CPUS - 1);
	} else if (tp_streq(key, "latency"))
		set_number(o, from, key, val, &o->latency_s, 0, MAX_LATENCY_S);
	else
		return false;
	return true;
}

const char *options_after_name(enum options_after a)
{
	return a == OPT_AFTER_REBOOT ? "reboot" : a == OPT_AFTER_POWEROFF ? "poweroff" : "halt";
}

/* after=, after_s=, runs=; false when key is none of them. */
static bool after_option(struct options *o, const char *from, const char *key, const char *val)
{
	if (tp_streq(key, "after")) {
		if (tp_streq(val, "halt"))
			o->after = OPT_AFTER_HALT;
		else if (tp_streq(val, "reboot"))
			o->after = OPT_AFTER_REBOOT;
		else if (tp_streq(val, "poweroff"))
			o->after = OPT_AFTER_POWEROFF;
		else
			options_problem(o, from, "option after: '%s' is not halt, reboot or poweroff, halt kept", val);
	} else if (tp_streq(key, "after_s"))
		set_number(o, from, key, val, &o->after_s, 0, OPT_MAX_AFTER_S);
	else if (tp_streq(key, "runs"))
		set_number(o, from, key, val, &o->runs, 1, OPT_MAX_RUNS);
	else
		return false;
	return true;
}

/* Every name=value word of line but preset=, in order; from names the
 * preset the line is the words of, NULL for the command line. */
static void apply_words(struct options *o, const char *line, const char *from)
{
	char w[160] = { 0 };
	const char *s;

	for (s = word(line, w, sizeof w); w[0]; s = word(s, w, sizeof w)) {
		char *val = w;
		while (*val && *val != '=')
			val++;
		if (!*val) {
			options_problem(o, from, "option '%s': expected name=value, ignored", w);
			continue;
		}
		*val++ = 0;
		if (tp_streq(w, "preset")) {
			if (from)
				options_problem(o, from, "preset=%s inside a preset, ignored", val);
			continue;
		} else if (tp_streq(w, "samples"))
			set_number(o, from, w, val, &o->samples, 100, MAX_SAMPLES);
		else if (tp_streq(w, "rounds"))
			set_number(o, from, w, val, &o->rounds, 1, MAX_ROUNDS);
		else if (tp_streq(w, "raw"))
			set_number(o, from, w, val, &o->raw_samples, 0, MAX_RAW);
		else if (tp_streq(w, "calib_ms"))
			set_number(o, from, w, val, &o->calib_ms, 1, 2000);
		else if (tp_streq(w, "slow_rates")) {
			if (tp_streq(val, "on") || tp_streq(val, "off"))
				o->slow_rates_off = tp_streq(val, "off");
			else
				options_problem(o, from, "option slow_rates: '%s' is not on or off, default kept", val);
		}
		else if (tp_streq(w, "baud"))
			set_number(o, from, w, val, &o->baud, 50, 115200);
		else if (tp_streq(w, "log")) {
			if (tp_streq(val, "file") || tp_streq(val, "none"))
				o->log_to_file = tp_streq(val, "file");
			else
				options_problem(o, from, "option log: '%s' is not file or none, default kept", val);
		}
		else if (tp_streq(w, "serial") || tp_streq(w, "events")) {
			uint16_t *to = tp_streq(w, "serial") ? &o->serial_port : &o->events_port;
			uint32_t port;
			if (tp_streq(val, "none"))
				*to = 0;
			else if (parse_u32(val, &port, 1, 0xffff))
				*to = (uint16_t)port;
			else
				options_problem(o, from, "option %s: '%s' is not a port or 'none', default kept", w, val);
		} else if (tp_streq(w, "counters"))
			set_counters(o, val);
		else if (options_watch_option(o, from, w, val))
			continue;
		else if (tp_streq(w, "fault")) {
			if (tp_streq(val, "gp") || tp_streq(val, "pf") || tp_streq(val, "ap-gp") || tp_streq(val, "ap-hang") ||
			    tp_streq(val, "ap-deaf"))
				tp_snprintf(o->fault, sizeof o->fault, "%s", val);
			else
				options_problem(o, from, "option fault: '%s' is not gp, pf, ap-gp, ap-hang, ap-deaf, "
					       "drift:CLOCK:PPM or tsc_step:CPU:CYCLES, ignored", val);
		} else if (tp_streq(w, "stuck")) {
			if (tp_strlen(val) < sizeof o->stuck)
				tp_snprintf(o->stuck, sizeof o->stuck, "%s", val);
			else
				options_problem(o, from, "option stuck: '%s' is not a counter name, ignored", val);
		} else if (!smp_option(o, from, w, val) && !after_option(o, from, w, val) &&
			   !options_net_option(o, from, w, val))
			options_problem(o, from, "unknown option '%s', ignored", w);
	}
}

void options_parse_with(struct options *o, const char *cmdline, const struct options_preset *table, int n)
{
	char w[160] = { 0 }; /* tp_memcmp may look past a short word's NUL */
	const struct options_preset *p = find_preset(table, n, "default");
	const char *s;

	tp_memset(o, 0, sizeof *o);
	o->samples = BASE_SAMPLES;
	o->rounds = BASE_ROUNDS;
	o->calib_ms = BASE_CALIB_MS;
	o->serial_port = 0x3f8;
	o->baud = 115200;
	tp_snprintf(o->tsc_sync, sizeof o->tsc_sync, "bsp");
	o->log_to_file = true;
	o->runs = 1;

	/* The preset first, wherever it stands, so that other words refine it. */
	for (s = word(cmdline ? cmdline : "", w, sizeof w); w[0]; s = word(s, w, sizeof w)) {
		if (!tp_memcmp(w, "preset=", 7)) {
			const struct options_preset *q = find_preset(table, n, w + 7);
			if (q)
				p = q;
			else
				options_problem(o, NULL, "option preset: unknown preset '%s', using '%s'", w + 7,
					p ? p->name : "default");
		}
	}
	tp_snprintf(o->preset, sizeof o->preset, "%s", p ? p->name : "default");
	if (p)
		apply_words(o, p->options, p->name);
	if (cmdline)
		apply_words(o, cmdline, NULL);
	if (o->rounds > o->samples)
		o->rounds = o->samples;
}

void options_parse(struct options *o, const char *cmdline)
{
	options_parse_with(o, cmdline, builtin_presets, BUILTIN_COUNT);
}

/* The same words in the same order, whatever blanks separate them. */
static bool same_words(const char *a, const char *b)
{
	char x[160], y[160];
	do {
		a = word(a, x, sizeof x);
		b = word(b, y, sizeof y);
		if (!tp_streq(x, y))
			return false;
	} while (x[0]);
	return true;
}

bool options_menu_cmdline(const struct preset *p, const char *more, char *out, size_t cap)
{
	const struct options_preset *built = p ? find_preset(builtin_presets, BUILTIN_COUNT, p->name) : NULL;
	const char *words = p ? p->options : "";
	const char *gap;
	int n;

	if (!more)
		more = "";
	if (built && same_words(built->options, words)) {
		n = tp_snprintf(out, cap, "preset=%s%s%s", p->name, *more ? " " : "", more);
	} else {
		gap = *words && *more ? " " : "";
		n = tp_snprintf(out, cap, "%s%s%s", words, gap, more);
	}
	return n >= 0 && (size_t)n < cap;
}

bool options_wants_counter(const struct options *o, const char *name)
{
	if (!o->n_counters)
		return true;
	for (int i = 0; i < o->n_counters; i++)
		if (tp_streq(o->counters[i], name))
			return true;
	return false;
}

bool options_wants_cpu(const struct options *o, unsigned i)
{
	if (i >= TEAM_MAX_CPUS)
		return false;
	if (o->cpus_listed)
		return o->cpus_list[i / 8] >> (i % 8) & 1;
	return !o->cpus_first || i < o->cpus_first;
}
