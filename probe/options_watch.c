/* SPDX-License-Identifier: BSD-2-Clause */
/* watch=DURATION, and the test faults with a known answer: fault=drift:
 * CLOCK:PPM makes the watch see CLOCK (tsc, hpet, pm_timer or pit) run PPM
 * off its rate, fault=tsc_step:CPU:CYCLES steps CPU's TSC by CYCLES half-way
 * through the watch (with "@event" appended: during the first VM event,
 * probe/watch_event.h), fault=slow:COUNTER:N adds N `pause`s to each read of
 * COUNTER (a regression for `tickprobe compare --gate` to find).  None
 * touches the hardware: the drift scales what the watch reads of CLOCK from
 * its first sample on, the step is added to every TSC read of that CPU from
 * then on (as tsc_skew= does), since QEMU's TCG ignores writes to the TSC;
 * the pauses are the read's own. */
#include "probe/options.h"
#include "lib/fmt.h"
#include "lib/util.h"

static bool digit(char c) { return c >= '0' && c <= '9'; }

/* A signed decimal integer of at most 12 digits, the whole of s up to end. */
static bool parse_signed(const char *s, const char *end, int64_t *out)
{
	bool minus = *s == '-';
	uint64_t v = 0;
	unsigned n = 0;

	if (*s == '-' || *s == '+')
		s++;
	for (; s < end && digit(*s) && n < 13; s++, n++)
		v = v * 10 + (uint64_t)(*s - '0');
	if (!n || n > 12 || s != end)
		return false;
	*out = minus ? -(int64_t)v : (int64_t)v;
	return true;
}

bool options_duration(const char *s, uint32_t *out)
{
	const char *p = s;
	uint64_t v = 0, scale = 1;

	for (; digit(*p) && v <= OPT_MAX_WATCH_S; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (p == s)
		return false;
	if (*p == 's' || *p == 'm' || *p == 'h') {
		scale = *p == 'm' ? 60 : *p == 'h' ? 3600 : 1;
		p++;
	}
	if (*p || v * scale > OPT_MAX_WATCH_S)
		return false;
	*out = (uint32_t)(v * scale);
	return true;
}

static const char *colon(const char *s)
{
	while (*s && *s != ':')
		s++;
	return s;
}

static bool set_drift(struct options *o, const char *val)
{
	static const char *const clocks[] = { "tsc", "hpet", "pm_timer", "pit" };
	const char *c = colon(val);
	int64_t ppm;
	bool known = false;

	for (unsigned i = 0; i < sizeof clocks / sizeof clocks[0]; i++)
		known |= (size_t)(c - val) == tp_strlen(clocks[i]) && !tp_memcmp(val, clocks[i], (size_t)(c - val));
	if (!known || !*c || !parse_signed(c + 1, c + 1 + tp_strlen(c + 1), &ppm) || ppm > OPT_MAX_DRIFT_PPM ||
	    ppm < -OPT_MAX_DRIFT_PPM)
		return false;
	tp_memcpy(o->drift_clock, val, (size_t)(c - val));
	o->drift_clock[c - val] = 0;
	o->drift_ppm = (int32_t)ppm;
	return true;
}

/* CPU:CYCLES, or CPU:CYCLES@event. */
static bool set_step(struct options *o, const char *val)
{
	const char *c = colon(val), *end = c;
	int64_t cpu, cycles;

	while (*end && *end != '@')
		end++;
	if (*end && !tp_streq(end, "@event"))
		return false;
	if (!*c || !parse_signed(val, c, &cpu) || cpu < 0 || cpu >= TEAM_MAX_CPUS || !parse_signed(c + 1, end, &cycles) ||
	    cycles > 1000000000000LL || cycles < -1000000000000LL)
		return false;
	o->step_set = true;
	o->step_at_event = *end != 0;
	o->step_cpu = (uint16_t)cpu;
	o->step_cycles = cycles;
	return true;
}

static bool set_slow(struct options *o, const char *val)
{
	const char *c = colon(val);
	int64_t n;
	size_t len = (size_t)(c - val);

	if (!len || len >= sizeof o->slow_counter || !*c || !parse_signed(c + 1, c + 1 + tp_strlen(c + 1), &n) ||
	    n < 1 || n > OPT_MAX_SLOW_SPINS)
		return false;
	tp_memcpy(o->slow_counter, val, len);
	o->slow_counter[len] = 0;
	o->slow_spins = (uint32_t)n;
	return true;
}

bool options_watch_option(struct options *o, const char *from, const char *key, const char *val)
{
	if (tp_streq(key, "watch")) {
		if (!options_duration(val, &o->watch_s))
			options_problem(o, from, "option watch: '%s' is not a duration up to 24h (90, 90s, 10m, 2h), ignored",
					val);
		return true;
	}
	if (!tp_streq(key, "fault"))
		return false;
	if (!tp_memcmp(val, "drift:", 6)) {
		if (!set_drift(o, val + 6))
			options_problem(o, from, "option fault: '%s' is not drift:CLOCK:PPM (CLOCK tsc, hpet, pm_timer or "
					"pit; |PPM| <= %d), ignored", val, OPT_MAX_DRIFT_PPM);
		return true;
	}
	if (!tp_memcmp(val, "slow:", 5)) {
		if (!set_slow(o, val + 5))
			options_problem(o, from, "option fault: '%s' is not slow:COUNTER:N (N 1..%u), ignored", val,
					OPT_MAX_SLOW_SPINS);
		return true;
	}
	if (!tp_memcmp(val, "tsc_step:", 9)) {
		if (!set_step(o, val + 9))
			options_problem(o, from, "option fault: '%s' is not tsc_step:CPU:CYCLES or tsc_step:CPU:CYCLES@event "
					"(CPU 0..%u, |CYCLES| <= 10^12), ignored", val, TEAM_MAX_CPUS - 1);
		return true;
	}
	return false;
}
