/* SPDX-License-Identifier: BSD-2-Clause */
/* printf-style formatting without libc: the image has none, and the host tools
 * use the same code so that the screen text and the log agree byte for byte.
 * Supports %d %i %u %x %X %s %c %p %% with l/ll/z length, width, '0' and '-'
 * flags, precision on %s, and %.Nf for doubles (N <= 9, rounded half up). */
#ifndef LIB_FMT_H
#define LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>

/* Like vsnprintf: always NUL-terminates when cap > 0, returns the length the
 * whole output would have had. */
int tp_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap);
int tp_snprintf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A double printed with a fixed number of decimals; NaN/inf print as "nan"/"inf". */
int tp_format_fixed(char *buf, size_t cap, double v, int decimals);

#endif
