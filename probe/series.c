/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/series.h"
#include "lib/fmt.h"
#include "probe/options.h"
#include "lib/util.h"

static const char *const state_names[] = { "running", "between", "done", "stopped" };

static bool id_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-' || c == '_';
}

static bool number(const char *v, size_t n, unsigned hi, unsigned *out)
{
	unsigned x = 0;
	if (!n || n > 4)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return false;
		x = x * 10 + (unsigned)(v[i] - '0');
	}
	if (x > hi)
		return false;
	*out = x;
	return true;
}

/* One key=value line (n bytes, no line end); *seen gets a bit per key. */
static bool line(const char *l, size_t n, struct series_file *s, unsigned *seen)
{
	size_t k = 0;
	const char *v;

	while (k < n && l[k] != '=')
		k++;
	if (k == n)
		return false;
	v = l + k + 1;
	n -= k + 1;
	if (k == 2 && !tp_memcmp(l, "id", 2)) {
		if (!n || n >= sizeof s->id)
			return false;
		for (size_t i = 0; i < n; i++)
			if (!id_char(v[i]))
				return false;
		tp_memcpy(s->id, v, n);
		s->id[n] = 0;
		*seen |= 1;
	} else if (k == 2 && !tp_memcmp(l, "of", 2)) {
		if (!number(v, n, OPT_MAX_RUNS, &s->of))
			return false;
		*seen |= 2;
	} else if (k == 5 && !tp_memcmp(l, "ended", 5)) {
		if (!number(v, n, OPT_MAX_RUNS, &s->ended))
			return false;
		*seen |= 4;
	} else if (k == 5 && !tp_memcmp(l, "state", 5)) {
		unsigned i;
		for (i = 0; i < 4; i++)
			if (tp_strlen(state_names[i]) == n && !tp_memcmp(v, state_names[i], n))
				break;
		if (i == 4)
			return false;
		s->state = (enum series_state)i;
		*seen |= 8;
	} else if (k == 3 && !tp_memcmp(l, "why", 3)) {
		n = n < sizeof s->why - 1 ? n : sizeof s->why - 1;
		tp_memcpy(s->why, v, n);
		s->why[n] = 0;
	}
	return true; /* other keys: a later version's, ignored */
}

bool series_parse(const char *text, size_t len, struct series_file *s, char *why, size_t cap)
{
	unsigned seen = 0, lineno = 0;
	size_t at = 0;

	tp_memset(s, 0, sizeof *s);
	if (len > SERIES_FILE_MAX) {
		tp_snprintf(why, cap, "%u bytes, more than a series file holds", (unsigned)len);
		return false;
	}
	while (at < len) {
		size_t end = at, n;
		while (end < len && text[end] != '\n')
			end++;
		n = end - at;
		if (n && text[at + n - 1] == '\r')
			n--;
		lineno++;
		if (n && text[at] != '#' && !line(text + at, n, s, &seen)) {
			tp_snprintf(why, cap, "line %u is not a valid key=value", lineno);
			return false;
		}
		at = end + 1;
	}
	if (seen != 15) {
		tp_snprintf(why, cap, "it lacks one of id, of, ended, state");
		return false;
	}
	if (s->of < 2 || s->ended > s->of) {
		tp_snprintf(why, cap, "of=%u and ended=%u do not make a series", s->of, s->ended);
		return false;
	}
	return true;
}

size_t series_format(const struct series_file *s, char *out, size_t cap)
{
	int n = tp_snprintf(out, cap,
			    "# tickprobe: a series of boots (runs=N); delete this file to forget it\n"
			    "id=%s\nof=%u\nended=%u\nstate=%s\n%s%s%s",
			    s->id, s->of, s->ended, state_names[s->state], s->why[0] ? "why=" : "", s->why,
			    s->why[0] ? "\n" : "");
	if (n < 0)
		return 0;
	return (size_t)n < cap ? (size_t)n : cap - 1;
}

bool series_begin(const struct series_file *old, unsigned runs, const char *new_id, struct series_file *now,
		  unsigned *index, char *problem, size_t cap)
{
	*index = 0;
	problem[0] = 0;
	if (old && old->state == SERIES_RUNNING) {
		*now = *old;
		now->state = SERIES_STOPPED;
		tp_snprintf(now->why, sizeof now->why, "boot %u of %u did not reach its end (a hang, a reset or a power cut)",
			    old->ended + 1, old->of);
		tp_snprintf(problem, cap, "series %s stopped: %s; this boot is one run", old->id, now->why);
		return true;
	}
	if (old && old->state == SERIES_BETWEEN && old->ended < old->of) {
		*now = *old;
		now->state = SERIES_RUNNING;
		*index = old->ended + 1;
		return true;
	}
	if (runs < 2)
		return false;
	tp_memset(now, 0, sizeof *now);
	tp_snprintf(now->id, sizeof now->id, "%s", new_id);
	now->of = runs;
	now->state = SERIES_RUNNING;
	*index = 1;
	return true;
}

void series_finish(struct series_file *s, unsigned index, const char *state, const char *why)
{
	s->ended = index;
	s->why[0] = 0;
	if (tp_streq(state, "continues")) {
		s->state = SERIES_BETWEEN;
	} else if (tp_streq(state, "done")) {
		s->state = SERIES_DONE;
	} else {
		s->state = SERIES_STOPPED;
		tp_snprintf(s->why, sizeof s->why, "%s", why ? why : "stopped");
	}
}
