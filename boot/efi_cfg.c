/* Parsing of presets.cfg and tickprobe.env for the UEFI app (see efi_cfg.h). */
#include <stdbool.h>
#include "boot/efi_cfg.h"
#include "probe/util.h"

static bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; }

static bool is_name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '-' || ch == '_';
}

/* Copies [s, e) into out with surrounding blanks dropped; false if it did not fit. */
static bool copy_trimmed(char *out, size_t cap, const char *s, const char *e)
{
	size_t n;
	while (s < e && is_space(*s))
		s++;
	while (e > s && is_space(e[-1]))
		e--;
	n = (size_t)(e - s);
	if (n + 1 > cap) {
		out[0] = 0;
		return false;
	}
	tp_memcpy(out, s, n);
	out[n] = 0;
	return true;
}

static int parse_seconds(const char *s)
{
	int v = 0, digits = 0;
	while (*s >= '0' && *s <= '9' && v < 3600) {
		v = v * 10 + (*s++ - '0');
		digits++;
	}
	return digits && !*s ? v : -1;
}

void cfg_init(struct efi_cfg *c)
{
	tp_memset(c, 0, sizeof *c);
	c->timeout = CFG_TIMEOUT_DEFAULT;
	c->env_timeout = -1;
}

static void preset_line(struct efi_cfg *c, const char *s, const char *e)
{
	const char *colon, *p;
	char name[CFG_NAME_MAX], value[CFG_OPTIONS_MAX];

	while (s < e && is_space(*s))
		s++;
	if (s == e || *s == '#')
		return;
	for (colon = s; colon < e && *colon != ':'; colon++)
		;
	if (colon == e)
		return;
	for (p = s; p < colon && is_name_char(*p); p++)
		;
	if (!copy_trimmed(name, sizeof name, s, colon) || !name[0] || p != s + tp_strlen(name))
		return; /* not a NAME: line; the image build rejects such a file first */
	if (!copy_trimmed(value, sizeof value, colon + 1, e))
		return;
	if (tp_streq(name, "timeout")) {
		int t = parse_seconds(value);
		if (t >= 0)
			c->timeout = t;
		return;
	}
	if (c->count == CFG_MAX_PRESETS)
		return;
	tp_memcpy(c->preset[c->count].name, name, sizeof name);
	tp_memcpy(c->preset[c->count].options, value, sizeof value);
	c->count++;
}

void cfg_parse_presets(struct efi_cfg *c, const char *text, size_t n)
{
	const char *s = text, *end = text + n;
	while (s < end) {
		const char *e = s;
		while (e < end && *e != '\n')
			e++;
		preset_line(c, s, e);
		s = e + 1;
	}
}

/* GRUB's environment block: "# GRUB Environment Block\n", then name=value
 * lines (a backslash escapes the next byte), then '#' padding. */
static void env_line(struct efi_cfg *c, const char *s, const char *e)
{
	char name[16], value[CFG_OPTIONS_MAX];
	const char *eq;
	size_t n = 0;

	if (s == e || *s == '#')
		return;
	for (eq = s; eq < e && *eq != '='; eq++)
		;
	if (eq == e || !copy_trimmed(name, sizeof name, s, eq))
		return;
	for (s = eq + 1; s < e && n + 1 < sizeof value; s++) {
		if (*s == '\\' && s + 1 < e)
			s++;
		value[n++] = *s;
	}
	value[n] = 0;
	if (tp_streq(name, "tp_preset"))
		copy_trimmed(c->want, sizeof c->want, value, value + n);
	else if (tp_streq(name, "tp_options"))
		copy_trimmed(c->extra, sizeof c->extra, value, value + n);
	else if (tp_streq(name, "tp_timeout") && n)
		c->env_timeout = parse_seconds(value);
}

void cfg_parse_env(struct efi_cfg *c, const char *text, size_t n)
{
	static const char sig[] = "# GRUB Environment Block\n";
	const char *s = text, *end = text + n;

	if (n < sizeof sig - 1 || tp_memcmp(text, sig, sizeof sig - 1))
		return;
	s += sizeof sig - 1;
	while (s < end) {
		const char *e = s;
		while (e < end && *e != '\n') {
			if (*e == '\\' && e + 1 < end)
				e++;
			e++;
		}
		env_line(c, s, e);
		s = e + 1;
	}
}

int cfg_timeout(const struct efi_cfg *c) { return c->env_timeout >= 0 ? c->env_timeout : c->timeout; }

int cfg_default(const struct efi_cfg *c)
{
	int i;
	for (i = 0; c->want[0] && i < c->count; i++)
		if (tp_streq(c->preset[i].name, c->want))
			return i;
	for (i = 0; i < c->count; i++)
		if (tp_streq(c->preset[i].name, "default"))
			return i;
	return c->count ? 0 : -1;
}

void cfg_cmdline(const struct efi_cfg *c, int idx, char *out, size_t cap)
{
	size_t n = 0;
	const char *parts[2] = { idx >= 0 && idx < c->count ? c->preset[idx].options : "", c->extra };
	int k;

	for (k = 0; k < 2; k++) {
		const char *p = parts[k];
		if (!*p)
			continue;
		if (n && n + 1 < cap)
			out[n++] = ' ';
		while (*p && n + 1 < cap)
			out[n++] = *p++;
	}
	out[n] = 0;
}
