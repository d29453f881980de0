/* SPDX-License-Identifier: BSD-2-Clause */
/* A tiny test harness: every check prints "PASS: name" or "FAIL: name: why",
 * tests/run.sh counts those lines, and main() returns non-zero on any failure.
 * Include it once per test program. */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>
#include <stdarg.h>

static int check_passed, check_failed;

__attribute__((format(printf, 2, 3)))
static void check(int ok, const char *fmt, ...)
{
	va_list ap;
	printf(ok ? "PASS: " : "FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		check_passed++;
	else
		check_failed++;
}

/* Return this from main(). */
static int check_done(void)
{
	printf("%d passed, %d failed\n", check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
