/* SPDX-License-Identifier: BSD-2-Clause */
#include "tools/lib/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/exit_codes.h"

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "tickprobe: out of memory\n");
		exit(EXIT_UNREADABLE);
	}
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = s ? strlen(s) + 1 : 0;
	return s ? memcpy(xrealloc(NULL, n), s, n) : NULL;
}
