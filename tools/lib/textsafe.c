/* SPDX-License-Identifier: BSD-2-Clause */
#include "tools/lib/textsafe.h"
#include <stdint.h>
#include <string.h>

/* The well-formed UTF-8 sequence at s (at most n bytes): its length (2 to
 * 4) with its code point in *cp, or 0.  Overlong forms, surrogates and
 * values above U+10FFFF are not well-formed. */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char lo = 0x80;
	unsigned char hi = 0xbf;
	size_t len;
	uint32_t v;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		v = s[0] & 0x1fu;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		v = s[0] & 0x0fu;
		lo = s[0] == 0xe0 ? 0xa0 : 0x80;
		hi = s[0] == 0xed ? 0x9f : 0xbf;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		v = s[0] & 0x07u;
		lo = s[0] == 0xf0 ? 0x90 : 0x80;
		hi = s[0] == 0xf4 ? 0x8f : 0xbf;
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3fu);
	}
	*cp = v;
	return len;
}

/* A character that steers a terminal or the order of what is shown. */
static bool escaped_char(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* The bytes of the plain unit at s: 1 for printable ASCII, the length of a
 * shown UTF-8 character, 0 when s[0] starts something to escape. */
static size_t plain_unit(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len;

	if (s[0] >= 0x20 && s[0] < 0x7f)
		return 1;
	if (s[0] < 0x80)
		return 0;
	len = utf8_seq(s, n, &cp);
	return len && !escaped_char(cp) ? len : 0;
}

size_t ts_plain(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	size_t k;

	while (i < n && (k = plain_unit(u + i, n - i)))
		i += k;
	return i;
}

size_t ts_escape(const char *s, size_t n, enum ts_style style, char out[TS_ESC_MAX])
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp;
	size_t len = u[0] >= 0x80 ? utf8_seq(u, n, &cp) : 0;

	if (len) {
		snprintf(out, TS_ESC_MAX, "\\u%04x", (unsigned)cp);
		return len;
	}
	snprintf(out, TS_ESC_MAX, style == TS_JSON ? "\\u%04x" : "\\x%02x", (unsigned)u[0]);
	return 1;
}

/* The piece of text that shows the unit at s[i]: the bytes themselves, or
 * their escape in esc.  Returns how many bytes of s it covers. */
static size_t piece_at(const char *s, size_t n, size_t i, enum ts_style style, char esc[TS_ESC_MAX],
		       const char **piece, size_t *len)
{
	size_t k = plain_unit((const unsigned char *)s + i, n - i);

	if (k) {
		*piece = s + i;
		*len = k;
		return k;
	}
	k = ts_escape(s + i, n - i, style, esc);
	*piece = esc;
	*len = strlen(esc);
	return k;
}

void ts_write(FILE *o, const char *s, size_t n)
{
	char esc[TS_ESC_MAX];
	const char *piece;
	size_t len;

	for (size_t i = 0; i < n;) {
		i += piece_at(s, n, i, TS_TEXT, esc, &piece, &len);
		fwrite(piece, 1, len, o);
	}
}

void ts_puts(FILE *o, const char *s)
{
	if (s)
		ts_write(o, s, strlen(s));
}

const char *ts_strn(char *buf, size_t cap, const char *s, size_t n)
{
	char esc[TS_ESC_MAX];
	const char *piece;
	size_t total = 0;
	size_t used = 0;
	size_t limit;
	size_t len;

	if (!s)
		return NULL;
	for (size_t i = 0; i < n;) {
		i += piece_at(s, n, i, TS_TEXT, esc, &piece, &len);
		total += len;
	}
	/* Cut: whole pieces up to where "..." still fits after them. */
	limit = total < cap ? cap - 1 : cap - 4;
	for (size_t i = 0; i < n;) {
		i += piece_at(s, n, i, TS_TEXT, esc, &piece, &len);
		if (used + len > limit)
			break;
		memcpy(buf + used, piece, len);
		used += len;
	}
	if (total >= cap) {
		memcpy(buf + used, "...", 3);
		used += 3;
	}
	buf[used] = 0;
	return buf;
}

const char *ts_str(char *buf, size_t cap, const char *s)
{
	return s ? ts_strn(buf, cap, s, strlen(s)) : NULL;
}

/* The first characters of a cell that a spreadsheet reads as a formula. */
static bool formula_start(char c)
{
	return c && strchr("=+-@\t\r", c);
}

void ts_csv_cell(FILE *o, const char *s)
{
	char esc[TS_ESC_MAX];
	const char *piece;
	size_t n = s ? strlen(s) : 0;
	size_t len;

	fputc('"', o);
	if (n && formula_start(s[0]))
		fputc('\'', o);
	for (size_t i = 0; i < n;) {
		i += piece_at(s, n, i, TS_TEXT, esc, &piece, &len);
		for (size_t j = 0; j < len; j++) {
			if (piece[j] == '"')
				fputc('"', o);
			fputc(piece[j], o);
		}
	}
	fputc('"', o);
}

void ts_json_copy(FILE *o, const char *json, size_t n)
{
	char esc[TS_ESC_MAX];
	const char *piece;
	size_t len;

	for (size_t i = 0; i < n;) {
		if (json[i] == '\t' || json[i] == '\n' || json[i] == '\r') {
			fputc(json[i++], o);
			continue;
		}
		i += piece_at(json, n, i, TS_JSON, esc, &piece, &len);
		fwrite(piece, 1, len, o);
	}
}
