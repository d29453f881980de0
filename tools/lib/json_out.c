/* SPDX-License-Identifier: BSD-2-Clause */
#include "tools/lib/json_out.h"
#include <string.h>
#include "tools/lib/textsafe.h"

void json_out_str(FILE *o, const char *s)
{
	char esc[TS_ESC_MAX];
	size_t n;
	size_t i = 0;

	if (!s) {
		fputs("null", o);
		return;
	}
	n = strlen(s);
	fputc('"', o);
	while (i < n) {
		size_t k = ts_plain(s + i, n - i);
		for (size_t j = i; j < i + k; j++) {
			if (s[j] == '"' || s[j] == '\\')
				fputc('\\', o);
			fputc(s[j], o);
		}
		i += k;
		if (i < n) {
			i += ts_escape(s + i, n - i, TS_JSON, esc);
			fputs(esc, o);
		}
	}
	fputc('"', o);
}
