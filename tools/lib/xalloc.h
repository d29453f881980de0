/* SPDX-License-Identifier: BSD-2-Clause */
/* Memory for the host command: a failed allocation ends the command with
 * exit status 2 and one line saying so, rather than a crash later. */
#ifndef TOOLS_LIB_XALLOC_H
#define TOOLS_LIB_XALLOC_H

#include <stddef.h>

void *xrealloc(void *p, size_t n);   /* n 0 is taken as 1 */
char *xstrdup(const char *s);        /* NULL gives NULL */

#endif
