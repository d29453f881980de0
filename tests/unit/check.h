/* SPDX-License-Identifier: BSD-2-Clause */
/* A tiny test harness: every check prints "PASS: name" or "FAIL: name: why",
 * tests/run.sh counts those lines, and main() returns non-zero on any failure.
 * Include it once per test program.
 *
 * A check of several conditions names the one that failed: write each as
 * COND(x) and join them with &&.  && stops at the first false one, COND keeps
 * its text, and check() prints it after the name:
 *
 *	check(COND(rc == 0) && COND(n == 3), "parse: three names (%d)", n);
 *	FAIL: parse: three names (2) [false: n == 3]
 *
 * tests/lint/shape.py (its "conditions" step) finds a check that joins
 * conditions without COND. */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>
#include <stdarg.h>

static struct {
	int passed;
	int failed;
	const char *first_false; /* COND's text, kept until check() prints it */
} check_state;

/* ok, and the text of the first condition that was false since the last
 * check(). */
static inline int check_cond(int ok, const char *text)
{
	if (!ok && !check_state.first_false)
		check_state.first_false = text;
	return ok;
}

#define COND(x) check_cond(!!(x), #x)

__attribute__((format(printf, 2, 3)))
static void check(int ok, const char *fmt, ...)
{
	va_list ap;
	printf(ok ? "PASS: " : "FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!ok && check_state.first_false)
		printf(" [false: %s]", check_state.first_false);
	printf("\n");
	check_state.first_false = NULL;
	if (ok)
		check_state.passed++;
	else
		check_state.failed++;
}

/* Return this from main(). */
static int check_done(void)
{
	printf("%d passed, %d failed\n", check_state.passed, check_state.failed);
	return check_state.failed ? 1 : 0;
}

#endif
