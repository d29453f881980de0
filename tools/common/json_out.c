/* SPDX-License-Identifier: BSD-2-Clause */
#include "tools/common/json_out.h"

void json_out_str(FILE *o, const char *s)
{
	if (!s) {
		fputs("null", o);
		return;
	}
	fputc('"', o);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(o, "\\u%04x", c);
		else
			fputc(c, o);
	}
	fputc('"', o);
}
