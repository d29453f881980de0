#include "probe/options.h"
#include <stdarg.h>
#include "probe/fmt.h"
#include "probe/util.h"

/* Bounds: enough samples to fill every exact histogram bin many times, and
 * few enough that an i8254 run (3-5 us a read on real hardware) stays
 * under a few minutes even at the maximum. */
#define MAX_SAMPLES 10000000u
#define MAX_ROUNDS 100u
#define MAX_RAW 100000u

struct preset {
	const char *name;
	uint32_t samples, rounds, raw, calib_ms;
};

static const struct preset presets[] = {
	{ "default", 100000, 10, 0, 100 },
	{ "quick", 10000, 10, 0, 20 },
	{ "verbose", 100000, 10, 10000, 100 },
};

__attribute__((format(printf, 2, 3))) static void problem(struct options *o, const char *fmt, ...)
{
	va_list ap;
	if (o->n_problems >= OPT_MAX_PROBLEMS)
		return;
	va_start(ap, fmt);
	tp_vsnprintf(o->problems[o->n_problems++], sizeof o->problems[0], fmt, ap);
	va_end(ap);
}

static void apply_preset(struct options *o, const struct preset *p)
{
	tp_snprintf(o->preset, sizeof o->preset, "%s", p->name);
	o->samples = p->samples;
	o->rounds = p->rounds;
	o->raw_samples = p->raw;
	o->calib_ms = p->calib_ms;
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
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
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

static const struct preset *find_preset(const char *name)
{
	for (unsigned i = 0; i < sizeof presets / sizeof presets[0]; i++)
		if (tp_streq(presets[i].name, name))
			return &presets[i];
	return NULL;
}

static void set_number(struct options *o, const char *key, const char *val, uint32_t *dst,
		       uint32_t lo, uint32_t hi)
{
	if (!parse_u32(val, dst, lo, hi)) {
		char range[48];
		tp_snprintf(range, sizeof range, "%u..%u", lo, hi);
		problem(o, "option %s: '%s' is not a whole number in %s, default kept", key, val, range);
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
		if (*p == '-' && (++p, !parse_upto(&p, TEAM_MAX_CPUS - 1, &b) || b < a))
			return false;
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
static bool smp_option(struct options *o, const char *key, const char *val)
{
	uint32_t v;

	if (tp_streq(key, "smp")) {
		if (tp_streq(val, "off") || tp_streq(val, "on"))
			o->smp_off = tp_streq(val, "off");
		else
			problem(o, "option smp: '%s' is not on or off, ignored", val);
	} else if (tp_streq(key, "cpus")) {
		if (!set_cpus(o, val))
			problem(o, "option cpus: '%s' is not all, a count 1..%u or a list of indices 0..%u "
				   "(a,b-c), all kept", val, TEAM_MAX_CPUS, TEAM_MAX_CPUS - 1);
	} else if (tp_streq(key, "ghost_cpu")) {
		if (parse_u32(val, &v, 0, 0xfffffffeu)) {
			o->ghost_cpu_set = true;
			o->ghost_cpu = v;
		} else
			problem(o, "option ghost_cpu: '%s' is not an APIC ID 0..0xfffffffe, ignored", val);
	} else if (tp_streq(key, "tsc_sync")) {
		if (tp_streq(val, "matrix") || tp_streq(val, "bsp"))
			tp_snprintf(o->tsc_sync, sizeof o->tsc_sync, "%s", val);
		else
			problem(o, "option tsc_sync: '%s' is not matrix or bsp, matrix kept", val);
	} else if (tp_streq(key, "tsc_skew")) {
		if (!set_tsc_skew(o, val))
			problem(o, "option tsc_skew: '%s' is not CPU:CYCLES (CPU 0..%u, |CYCLES| <= 10^12), ignored",
				val, TEAM_MAX_CPUS - 1);
	} else if (tp_streq(key, "latency"))
		set_number(o, key, val, &o->latency_s, 0, MAX_LATENCY_S);
	else
		return false;
	return true;
}

void options_parse(struct options *o, const char *cmdline)
{
	char w[160] = { 0 }; /* tp_memcmp may look past a short word's NUL */
	const char *s;

	tp_memset(o, 0, sizeof *o);
	apply_preset(o, &presets[0]);
	o->serial_port = 0x3f8;
	o->baud = 115200;
	tp_snprintf(o->tsc_sync, sizeof o->tsc_sync, "matrix");
	if (!cmdline)
		return;

	/* The preset first, wherever it stands, so that other words refine it. */
	for (s = word(cmdline, w, sizeof w); w[0]; s = word(s, w, sizeof w)) {
		if (!tp_memcmp(w, "preset=", 7)) {
			const struct preset *p = find_preset(w + 7);
			if (p)
				apply_preset(o, p);
			else
				problem(o, "option preset: unknown preset '%s', using '%s'", w + 7, o->preset);
		}
	}
	for (s = word(cmdline, w, sizeof w); w[0]; s = word(s, w, sizeof w)) {
		char *val = w;
		while (*val && *val != '=')
			val++;
		if (!*val) {
			problem(o, "option '%s': expected name=value, ignored", w);
			continue;
		}
		*val++ = 0;
		if (tp_streq(w, "preset"))
			continue;
		else if (tp_streq(w, "samples"))
			set_number(o, w, val, &o->samples, 100, MAX_SAMPLES);
		else if (tp_streq(w, "rounds"))
			set_number(o, w, val, &o->rounds, 1, MAX_ROUNDS);
		else if (tp_streq(w, "raw"))
			set_number(o, w, val, &o->raw_samples, 0, MAX_RAW);
		else if (tp_streq(w, "calib_ms"))
			set_number(o, w, val, &o->calib_ms, 1, 2000);
		else if (tp_streq(w, "baud"))
			set_number(o, w, val, &o->baud, 50, 115200);
		else if (tp_streq(w, "serial")) {
			uint32_t port;
			if (tp_streq(val, "none"))
				o->serial_port = 0;
			else if (parse_u32(val, &port, 1, 0xffff))
				o->serial_port = (uint16_t)port;
			else
				problem(o, "option serial: '%s' is not a port or 'none', default kept", val);
		} else if (tp_streq(w, "counters"))
			set_counters(o, val);
		else if (tp_streq(w, "fault")) {
			if (tp_streq(val, "gp") || tp_streq(val, "pf") || tp_streq(val, "ap-gp") || tp_streq(val, "ap-hang"))
				tp_snprintf(o->fault, sizeof o->fault, "%s", val);
			else
				problem(o, "option fault: '%s' is not gp, pf, ap-gp or ap-hang, ignored", val);
		} else if (tp_streq(w, "stuck")) {
			if (tp_strlen(val) < sizeof o->stuck)
				tp_snprintf(o->stuck, sizeof o->stuck, "%s", val);
			else
				problem(o, "option stuck: '%s' is not a counter name, ignored", val);
		} else if (!smp_option(o, w, val))
			problem(o, "unknown option '%s', ignored", w);
	}
	if (o->rounds > o->samples)
		o->rounds = o->samples;
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
