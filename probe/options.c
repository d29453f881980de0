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

void options_parse(struct options *o, const char *cmdline)
{
	char w[160] = { 0 }; /* tp_memcmp may look past a short word's NUL */
	const char *s;

	tp_memset(o, 0, sizeof *o);
	apply_preset(o, &presets[0]);
	o->serial_port = 0x3f8;
	o->baud = 115200;
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
			if (tp_streq(val, "gp") || tp_streq(val, "pf"))
				tp_snprintf(o->fault, sizeof o->fault, "%s", val);
			else
				problem(o, "option fault: '%s' is not gp or pf, ignored", val);
		} else if (tp_streq(w, "stuck")) {
			if (tp_strlen(val) < sizeof o->stuck)
				tp_snprintf(o->stuck, sizeof o->stuck, "%s", val);
			else
				problem(o, "option stuck: '%s' is not a counter name, ignored", val);
		} else
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
