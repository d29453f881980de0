/* SPDX-License-Identifier: BSD-2-Clause */
/* The report's leaf helpers: escaping everything a log says, printing
 * values, colours and counter keys.  The page's frame is page.c. */
#include <string.h>
#include "tools/report/html.h"
#include "tools/lib/textsafe.h"

/* HTML's five specials as entities: enough for text and for an attribute
 * in double quotes alike. */
static void html_char(FILE *o, char c)
{
	switch (c) {
	case '&': fputs("&amp;", o); break;
	case '<': fputs("&lt;", o); break;
	case '>': fputs("&gt;", o); break;
	case '"': fputs("&quot;", o); break;
	case '\'': fputs("&#39;", o); break;
	default: fputc(c, o); break;
	}
}

void rp_esc_n(FILE *o, const char *str, size_t n)
{
	char esc[TS_ESC_MAX];
	size_t i = 0;

	while (i < n) {
		size_t k = ts_plain(str + i, n - i);
		for (size_t j = i; j < i + k; j++)
			html_char(o, str[j]);
		i += k;
		if (i < n) {
			i += ts_escape(str + i, n - i, TS_TEXT, esc);
			fputs(esc, o);
		}
	}
}

void rp_url_path(FILE *o, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p))
			fputc(*p, o);
		else
			fprintf(o, "%%%02X", *p);
	}
}

void rp_esc(FILE *o, const char *s)
{
	if (s)
		rp_esc_n(o, s, strlen(s));
}

void rp_value(FILE *o, const struct lr_node *n, const char *none)
{
	char b[64];
	const struct lr_node *m;
	if (!n || n->kind == LR_NULL) {
		fputs(none, o);
		return;
	}
	switch (n->kind) {
	case LR_BOOL:
		fputs(n->b ? "yes" : "no", o);
		break;
	case LR_NUM:
		rp_esc(o, fmt_num(b, sizeof b, n, -1));
		break;
	case LR_STR:
		rp_esc_n(o, n->str, n->len);
		break;
	case LR_ARR:
		if (!n->len)
			fputs("none", o);
		for (m = n->child; m; m = m->next) {
			if (m->kind == LR_ARR) { /* [[value, count], …] pairs stay pairs */
				fputs("[", o);
				rp_value(o, m, "null");
				fputs("]", o);
			} else {
				rp_value(o, m, "null");
			}
			if (m->next)
				fputs(", ", o);
		}
		break;
	case LR_OBJ:
		for (m = n->child; m; m = m->next) {
			rp_esc(o, m->key);
			fputs(": ", o);
			if (m->kind == LR_ARR || m->kind == LR_OBJ) {
				fputs("(", o);
				rp_value(o, m, "null");
				fputs(")", o);
			} else {
				rp_value(o, m, "null");
			}
			if (m->next)
				fputs("; ", o);
		}
		break;
	}
}

void rp_num(FILE *o, const struct lr_node *n, int decimals)
{
	char b[64];
	double v;
	if (!lr_num(n, &v))
		fputs("&ndash;", o);
	else
		rp_esc(o, fmt_num(b, sizeof b, n, decimals));
}

void rp_hex(FILE *o, const struct lr_node *n, const char *none)
{
	uint64_t u;
	if (lr_uint(n, &u))
		fprintf(o, "0x%llx", (unsigned long long)u);
	else
		fputs(none, o);
}

int rp_true(const struct ld_bool *b)
{
	return b->state == LD_SET && b->v;
}

/* Eight colours that stay apart for the common kinds of colour blindness
 * (Okabe and Ito's set, with black swapped for a dark grey-blue). */
const char *rp_colour(size_t i)
{
	static const char *const pal[8] = { "#0072b2", "#d55e00", "#009e73", "#cc79a7",
					     "#e69f00", "#56b4e9", "#7a5195", "#3d3d3d" };
	return pal[i % 8];
}

void rp_swatch(FILE *o, size_t i)
{
	fprintf(o, "<span class=\"nw\"><span class=\"sw\" style=\"background:%s\"></span>[%zu]</span>",
		rp_colour(i), i + 1);
}

void rp_key_label(FILE *o, const char *key)
{
	if (!strncmp(key, "os:", 3)) {
		rp_esc(o, key + 3);
		fputs(" <span class=\"dim\">(OS call)</span>", o);
	} else {
		rp_esc(o, key);
	}
}
