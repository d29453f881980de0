/* SPDX-License-Identifier: BSD-2-Clause */
#include "tools/lib/textbuf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/xalloc.h"
#include "tools/lib/logset.h"

static void reserve(struct text *t, size_t more)
{
	if (t->len + more + 1 <= t->cap)
		return;
	t->cap = (t->len + more + 1) * 2;
	t->s = xrealloc(t->s, t->cap);
}

void text_putc(struct text *t, char c)
{
	reserve(t, 1);
	t->s[t->len++] = c;
	t->s[t->len] = 0;
}

void text_put(struct text *t, const char *s, size_t n)
{
	reserve(t, n);
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = 0;
}

void text_u64(struct text *t, uint64_t v)
{
	char b[20], *p = b + sizeof b;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	text_put(t, p, (size_t)(b + sizeof b - p));
}

void text_printf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	reserve(t, 63); /* most fit at once: one vsnprintf, not two */
	va_start(ap, fmt);
	n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->s[t->len] = 0;
		return;
	}
	if ((size_t)n >= t->cap - t->len) {
		reserve(t, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	t->len += (size_t)n;
}

void text_json_str(struct text *t, const char *s, size_t n)
{
	text_putc(t, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			text_printf(t, "\\%c", c);
		else if (c < 0x20)
			text_printf(t, "\\u%04x", c);
		else
			text_putc(t, (char)c);
	}
	text_putc(t, '"');
}

void text_json(struct text *t, const struct lr_node *n)
{
	char b[64];
	const struct lr_node *c;
	const char *num;
	switch (n->kind) {
	case LR_NULL: text_put(t, "null", 4); break;
	case LR_BOOL: text_put(t, n->b ? "true" : "false", n->b ? 4 : 5); break;
	case LR_NUM:
		num = fmt_num(b, sizeof b, n, -1);
		text_put(t, num, strlen(num));
		break;
	case LR_STR: text_json_str(t, n->str, n->len); break;
	case LR_ARR:
	case LR_OBJ:
		text_putc(t, n->kind == LR_ARR ? '[' : '{');
		for (c = n->child; c; c = c->next) {
			if (c != n->child)
				text_putc(t, ',');
			if (n->kind == LR_OBJ) {
				text_json_str(t, c->key, strlen(c->key));
				text_putc(t, ':');
			}
			text_json(t, c);
		}
		text_putc(t, n->kind == LR_ARR ? ']' : '}');
		break;
	default: text_put(t, "null", 4); break;
	}
}
