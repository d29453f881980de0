/* SPDX-License-Identifier: BSD-2-Clause */
/* The host's lines (watch_channel.h). */
#include "probe/watch_channel.h"
#include "lib/util.h"

static bool digit(char c) { return c >= '0' && c <= '9'; }

static bool name_char(char c) { return (c >= 'a' && c <= 'z') || digit(c) || c == '-' || c == '_'; }

/* "ID " or "ID" at the end: 1..WATCH_MAX_EVENTS, one digit. */
static const char *take_id(const char *s, unsigned *id)
{
	if (!digit(s[0]) || digit(s[1]) || s[0] == '0' || (unsigned)(s[0] - '0') > WATCH_MAX_EVENTS)
		return NULL;
	*id = (unsigned)(s[0] - '0');
	return s + 1;
}

/* Digits, then at most nine decimals after a point; the whole of s. */
static bool take_seconds(const char *s, double *out)
{
	double v = 0, scale = 1;
	unsigned whole = 0, decimals = 0;

	for (; digit(*s) && whole < 9; s++, whole++)
		v = v * 10 + (*s - '0');
	if (!whole)
		return false;
	if (*s == '.') {
		for (s++; digit(*s) && decimals < 9; s++, decimals++) {
			scale /= 10;
			v += (*s - '0') * scale;
		}
		if (!decimals)
			return false;
	}
	*out = v;
	return !*s;
}

bool watch_channel_parse(const char *line, struct watch_channel_msg *m)
{
	const char *p;
	unsigned n = 0;

	tp_memset(m, 0, sizeof *m);
	if (!tp_memcmp(line, "event ", 6) && (p = take_id(line + 6, &m->id)) && *p == ' ') {
		for (p++; n < WATCH_EVENT_NAME - 1 && name_char(p[n]); n++)
			m->name[n] = p[n];
		m->name[n] = 0;
		m->kind = WATCH_CHANNEL_EVENT;
		return n && !p[n];
	}
	if (!tp_memcmp(line, "done ", 5) && (p = take_id(line + 5, &m->id)) && *p == ' ') {
		m->kind = WATCH_CHANNEL_DONE;
		return take_seconds(p + 1, &m->seconds);
	}
	return false;
}

bool watch_channel_byte(struct watch_channel *c, char byte, struct watch_channel_msg *m)
{
	bool good;

	if (byte == '\r')
		return false;
	if (byte != '\n') {
		if (c->len < WATCH_CHANNEL_LINE && byte)
			c->line[c->len++] = byte;
		else
			c->spoilt = true;
		return false;
	}
	c->line[c->len] = 0;
	good = !c->spoilt && c->len && watch_channel_parse(c->line, m);
	if (!good && (c->len || c->spoilt))
		c->bad++;
	c->len = 0;
	c->spoilt = false;
	return good;
}
