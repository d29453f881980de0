/* SPDX-License-Identifier: BSD-2-Clause */
#include "tools/common/json_out.h"

/* The length of the well-formed UTF-8 sequence at s (2 to 4 bytes), or 0:
 * a lead byte with its continuation bytes, no overlong forms, no
 * surrogates, nothing past U+10FFFF. */
static int utf8_len(const unsigned char *s)
{
	unsigned c = s[0], n, cp, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return (int)n;
}

void json_out_str(FILE *o, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	if (!s) {
		fputs("null", o);
		return;
	}
	fputc('"', o);
	while (*p) {
		n = *p >= 0x80 ? utf8_len(p) : 0;
		if (*p == '"' || *p == '\\') {
			fprintf(o, "\\%c", *p++);
		} else if (n > 0) {
			fwrite(p, 1, (size_t)n, o);
			p += n;
		} else if (*p < 0x20 || *p >= 0x7f) { /* control bytes, DEL, bytes outside well-formed UTF-8 */
			fprintf(o, "\\u%04x", *p++);
		} else {
			fputc(*p++, o);
		}
	}
	fputc('"', o);
}
