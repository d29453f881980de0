/* SPDX-License-Identifier: BSD-2-Clause */
/* A growing string: the store's text columns (tools/lib/db_import.c and
 * db_decode.c) and the derived members (tools/lib/logderived.c). */
#ifndef TOOLS_LIB_TEXTBUF_H
#define TOOLS_LIB_TEXTBUF_H

#include <stddef.h>
#include <stdint.h>
#include "tools/lib/json_parse.h"

struct text {
	char *s;       /* NUL-terminated; NULL until something is added */
	size_t len, cap;
};

void text_putc(struct text *t, char c);
void text_put(struct text *t, const char *s, size_t n);
void text_u64(struct text *t, uint64_t v); /* in decimal: without printf, 10,000 logs' histograms are millions */
__attribute__((format(printf, 2, 3))) void text_printf(struct text *t, const char *fmt, ...);
/* s[0..n) as a JSON string, quoted: '"', '\\' and control bytes escaped. */
void text_json_str(struct text *t, const char *s, size_t n);
/* A parsed JSON value written back as compact JSON, numbers as written. */
void text_json(struct text *t, const struct lr_node *n);

#endif
