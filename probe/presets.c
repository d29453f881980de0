/* SPDX-License-Identifier: BSD-2-Clause */
/* Parsing of presets.cfg and tickprobe.env (see presets.h). */
#include "probe/presets.h"
#include <stdarg.h>
#include <stdbool.h>
#include "lib/fmt.h"
#include "lib/util.h"

#define CFG_FILE "presets.cfg"
#define ENV_FILE "tickprobe.env"
#define ENV_SIGNATURE "# GRUB Environment Block\n"
#define SHOWN_MAX 32 /* of a bad word quoted in a problem: the line stays readable */

struct span {
	const char *s, *e;
};

static bool is_blank(char ch) { return ch == ' ' || ch == '\t'; }

static bool is_name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '-' || ch == '_';
}

/* Options become a multiboot command line inside a GRUB script, unquoted:
 * this alphabet needs no quoting there, and holds every probe option. */
static bool is_option_char(char ch)
{
	return is_name_char(ch) || ch == '=' || ch == ',' || ch == '.' || ch == ':' || ch == '/' || ch == '+';
}

static struct span trim(const char *s, const char *e)
{
	while (s < e && is_blank(*s))
		s++;
	while (e > s && is_blank(e[-1]))
		e--;
	return (struct span){ s, e };
}

static size_t span_len(struct span t) { return (size_t)(t.e - t.s); }

static bool span_is(struct span t, const char *word)
{
	size_t n = tp_strlen(word);
	return span_len(t) == n && !tp_memcmp(t.s, word, n);
}

/* [s, e) for a problem's text: at most SHOWN_MAX characters, anything not
 * printable as '?', "..." when cut. */
static const char *shown(char *buf, struct span t)
{
	size_t n = 0;
	const char *c;
	for (c = t.s; c < t.e && n < SHOWN_MAX; c++) {
		char ch = *c;
		if (ch < 0x20 || ch > 0x7e)
			ch = '?';
		buf[n++] = ch;
	}
	if (c < t.e) {
		buf[n++] = '.';
		buf[n++] = '.';
		buf[n++] = '.';
	}
	buf[n] = 0;
	return buf;
}

__attribute__((format(printf, 4, 5))) static void problem(struct presets *p, const char *file, int line,
							   const char *fmt, ...)
{
	struct presets_problem *q;
	va_list ap;

	if (p->n_problems == PRESETS_MAX_PROBLEMS) {
		p->problems_beyond++;
		return;
	}
	q = &p->problems[p->n_problems++];
	q->file = file;
	q->line = line;
	va_start(ap, fmt);
	tp_vsnprintf(q->text, sizeof q->text, fmt, ap);
	va_end(ap);
}

/* Whole seconds in 0..PRESETS_TIMEOUT_MAX, or -1. */
static int seconds(struct span t)
{
	int v = 0;
	const char *c;
	if (t.s == t.e)
		return -1;
	for (c = t.s; c < t.e; c++) {
		if (*c < '0' || *c > '9')
			return -1;
		v = v * 10 + (*c - '0');
		if (v > PRESETS_TIMEOUT_MAX)
			return -1;
	}
	return v;
}

/* Why t is no preset name, or NULL when it is one. */
static const char *bad_name(struct span t)
{
	const char *c;
	if (t.s == t.e)
		return "is empty";
	for (c = t.s; c < t.e; c++)
		if (!is_name_char(*c))
			return "may hold only letters, digits, '-' and '_'";
	if (span_len(t) >= PRESET_NAME_MAX)
		return "is longer than 23 characters";
	return NULL;
}

void presets_init(struct presets *p)
{
	tp_memset(p, 0, sizeof *p);
	p->timeout = PRESETS_TIMEOUT_DEFAULT;
	p->env_timeout = -1;
}

int presets_find(const struct presets *p, const char *name)
{
	for (int i = 0; i < p->count; i++)
		if (tp_streq(p->preset[i].name, name))
			return i;
	return -1;
}

static void timeout_line(struct presets *p, int line, struct span value)
{
	char a[SHOWN_MAX + 4];
	int t = seconds(value);

	if (t < 0)
		problem(p, CFG_FILE, line, "timeout '%s' is not whole seconds from 0 to %d", shown(a, value),
			PRESETS_TIMEOUT_MAX);
	else if (p->timeout_line)
		problem(p, CFG_FILE, line, "a second timeout (the first is on line %d): ignored", p->timeout_line);
	else {
		p->timeout = t;
		p->timeout_line = line;
	}
}

/* The options as words joined by single spaces into out; false (with a
 * problem) when a byte is outside the alphabet or they do not fit. */
static bool copy_options(struct presets *p, int line, const char *name, struct span value, char *out)
{
	size_t n = 0;
	for (const char *c = value.s; c < value.e; c++) {
		if (is_blank(*c) && is_blank(c[-1])) /* value is trimmed: c[-1] is inside it */
			continue;
		if (!is_blank(*c) && !is_option_char(*c)) {
			if (*c > 0x20 && *c <= 0x7e)
				problem(p, CFG_FILE, line, "options of '%s': '%c' is not allowed (letters, digits, blanks, _=,.:/+-)",
					name, *c);
			else
				problem(p, CFG_FILE, line, "options of '%s': byte 0x%02x is not allowed (letters, digits, blanks, _=,.:/+-)",
					name, (unsigned char)*c);
			return false;
		}
		if (n + 1 == PRESET_OPTIONS_MAX) {
			problem(p, CFG_FILE, line, "options of '%s' are longer than %d characters", name,
				PRESET_OPTIONS_MAX - 1);
			return false;
		}
		if (is_blank(*c))
			out[n++] = ' ';
		else
			out[n++] = *c;
	}
	out[n] = 0;
	return true;
}

static void preset_line(struct presets *p, int line, const char *s, const char *e)
{
	struct span all = trim(s, e), name, value;
	const char *colon, *why;
	char a[SHOWN_MAX + 4], key[PRESET_NAME_MAX] = { 0 };
	struct preset *slot;
	int dup;

	if (all.s == all.e || *all.s == '#')
		return;
	for (colon = all.s; colon < all.e && *colon != ':'; colon++)
		;
	if (colon == all.e) {
		problem(p, CFG_FILE, line, "no ':' in '%s' (lines are \"NAME: OPTIONS\" or \"timeout: SECONDS\")",
			shown(a, all));
		return;
	}
	name = trim(all.s, colon);
	value = trim(colon + 1, all.e);
	if ((why = bad_name(name))) {
		problem(p, CFG_FILE, line, "preset name '%s' %s", shown(a, name), why);
		return;
	}
	if (span_is(name, "timeout")) {
		timeout_line(p, line, value);
		return;
	}
	tp_memcpy(key, name.s, span_len(name));
	key[span_len(name)] = 0;
	if ((dup = presets_find(p, key)) >= 0) {
		problem(p, CFG_FILE, line, "preset '%s' again (the first is on line %d): ignored", key, p->preset[dup].line);
		return;
	}
	if (p->count == PRESETS_MAX) {
		problem(p, CFG_FILE, line, "more than %d presets: '%s' ignored", PRESETS_MAX, key);
		return;
	}
	slot = &p->preset[p->count];
	if (!copy_options(p, line, key, value, slot->options))
		return;
	tp_memcpy(slot->name, key, sizeof key);
	slot->line = line;
	p->count++;
}

void presets_parse(struct presets *p, const char *text, size_t n)
{
	const char *s = text, *end = text + n;
	int line = 1;

	while (s < end) {
		const char *e = s;
		while (e < end && *e != '\n')
			e++;
		preset_line(p, line++, s, e > s && e[-1] == '\r' ? e - 1 : e);
		s = e + 1;
	}
	if (!p->count)
		problem(p, CFG_FILE, 0, "no presets");
	else if (presets_find(p, "default") < 0)
		problem(p, CFG_FILE, 0, "no preset named 'default': the first, '%s', boots when nobody chooses",
			p->preset[0].name);
}

/* One name=value line of the environment block, value already unescaped. */
static void env_var(struct presets *p, int line, struct span name, struct span value, bool cut)
{
	char a[SHOWN_MAX + 4];
	const char *why;

	if (span_is(name, "tp_preset")) {
		if (value.s == value.e)
			p->env_preset[0] = 0;
		else if ((why = bad_name(value)))
			problem(p, ENV_FILE, line, "tp_preset '%s' %s: ignored", shown(a, value), why);
		else {
			tp_memcpy(p->env_preset, value.s, span_len(value));
			p->env_preset[span_len(value)] = 0;
		}
	} else if (span_is(name, "tp_timeout")) {
		int t = seconds(value);
		if (value.s == value.e)
			p->env_timeout = -1;
		else if (t < 0)
			problem(p, ENV_FILE, line, "tp_timeout '%s' is not whole seconds from 0 to %d: ignored",
				shown(a, value), PRESETS_TIMEOUT_MAX);
		else
			p->env_timeout = t;
	} else if (span_is(name, "tp_options")) {
		if (cut)
			problem(p, ENV_FILE, line, "tp_options is longer than %d characters: ignored",
				PRESETS_ENV_OPTIONS_MAX - 1);
		else {
			tp_memcpy(p->env_options, value.s, span_len(value));
			p->env_options[span_len(value)] = 0;
		}
	}
}

/* One line of the environment block: '#' lines are comments and the padding,
 * the others NAME=VALUE with a backslash escaping the next byte. */
static void env_line(struct presets *p, int line, const char *s, const char *e)
{
	char value[PRESETS_ENV_OPTIONS_MAX], a[SHOWN_MAX + 4];
	const char *eq, *c;
	size_t k = 0;
	bool cut = false;

	if (s == e || *s == '#')
		return;
	for (eq = s; eq < e && *eq != '='; eq++)
		;
	if (eq == e) {
		problem(p, ENV_FILE, line, "'%s' is not a NAME=VALUE line", shown(a, (struct span){ s, e }));
		return;
	}
	for (c = eq + 1; c < e; c++) {
		if (*c == '\\' && c + 1 < e)
			c++;
		if (k + 1 < sizeof value)
			value[k++] = *c;
		else
			cut = true;
	}
	while (k && value[k - 1] == '\r')
		k--;
	env_var(p, line, (struct span){ s, eq }, (struct span){ value, value + k }, cut);
}

/* GRUB's environment block: the signature line, NAME=VALUE lines, then '#'
 * padding to the block's size (512 bytes here).  An escaped newline belongs
 * to its value. */
void presets_parse_env(struct presets *p, const char *text, size_t n)
{
	const size_t sig = sizeof ENV_SIGNATURE - 1;
	const char *s, *end = text + n;
	int line = 2;

	if (n < sig || tp_memcmp(text, ENV_SIGNATURE, sig)) {
		problem(p, ENV_FILE, 1, "not a GRUB environment block (it must begin \"# GRUB Environment Block\")");
		return;
	}
	s = text + sig;
	while (s < end) {
		const char *e = s;
		int first = line;
		while (e < end && *e != '\n') {
			if (*e == '\\' && e + 1 < end)
				line += *++e == '\n';
			e++;
		}
		line++;
		env_line(p, first, s, e);
		s = e + 1;
	}
	if (p->env_preset[0] && p->count && presets_find(p, p->env_preset) < 0)
		problem(p, ENV_FILE, 0, "tp_preset '%s' names no preset in presets.cfg: '%s' boots", p->env_preset,
			p->preset[presets_default(p)].name);
}

int presets_timeout(const struct presets *p) { return p->env_timeout >= 0 ? p->env_timeout : p->timeout; }

int presets_default(const struct presets *p)
{
	int i = p->env_preset[0] ? presets_find(p, p->env_preset) : -1;
	if (i < 0)
		i = presets_find(p, "default");
	return i >= 0 ? i : p->count ? 0 : -1;
}
