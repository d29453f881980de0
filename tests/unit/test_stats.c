/* SPDX-License-Identifier: BSD-2-Clause */
/* tools/lib/stats.c: the t table, ministat's published numbers, precision on
 * large values, and the sort on big and awkward inputs. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "tools/lib/stats.h"
#include "tests/unit/check.h"
#include "tests/unit/xorshift.h"

static int same_g(double v, const char *want) /* printed as ministat prints it */
{
	char buf[64];
	snprintf(buf, sizeof buf, "%g", v);
	if (strcmp(buf, want))
		printf("  got %s want %s\n", buf, want);
	return !strcmp(buf, want);
}

static int same_8g(double v, const char *want)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%.8g", v);
	if (strcmp(buf, want))
		printf("  got %s want %s\n", buf, want);
	return !strcmp(buf, want);
}

static void test_table(void)
{
	int c95 = stats_conf_index(95), c995 = stats_conf_index(99.5);
	int ok = 1, c, df;

	check(COND(c95 == 2) && COND(c995 == 5) && COND(stats_conf_index(80) == 0) && COND(stats_conf_index(97) == -1),
	      "confidence levels index as ministat's -c");
	check(stats_student_t(c95, 1) == 12.706, "t(df=1, 95%%) = 12.706");
	check(stats_student_t(c995, 1) == 318.313, "t(df=1, \"99.5%%\") = 318.313 (two-sided 99.8%%)");
	check(COND(stats_student_t(c95, 101) == 1.960) && COND(stats_student_t(c95, 100000) == 1.960),
	      "t(inf, 95%%) = 1.960 above df 100");
	check(stats_student_t(c995, 1000) == 3.090, "t(inf, \"99.5%%\") = 3.090");
	check(COND(stats_student_t(0, 8) == 1.397) && COND(stats_student_t(c95, 8) == 2.306) &&
		      COND(stats_student_t(c95, 100) == 1.984),
	      "t(8, 80%%) 1.397, t(8, 95%%) 2.306, t(100, 95%%) 1.984");
	/* Every column falls with df and stays above the normal limit; every
	 * row rises with the confidence level. */
	for (c = 0; c < STATS_NCONF; c++)
		for (df = 1; df <= 100; df++) {
			double t = stats_student_t(c, df);
			if (t < stats_student_t(c, df + 1) || t <= stats_student_t(c, 101) - 1e-9 ||
			    (c && t <= stats_student_t(c - 1, df)))
				ok = 0;
		}
	check(ok, "t table monotone in df and in confidence");
}

static struct stats of(double *v, size_t n)
{
	struct stats s;
	stats_compute(v, n, &s);
	return s;
}

static void test_case05(void)
{
	/* tests/data/ministat/case05_netbenches_xeon_large_values_precision: values near 1.16e7, sd near 4..7. */
	double x[] = { 11628439, 11628452, 11628437, 11628446, 11628450 };
	double p[] = { 11628451, 11628450, 11628442, 11628452, 11628448 };
	struct stats a = of(x, 5), b = of(p, 5);
	struct stats_diff d;

	check(COND(same_8g(a.sd, "6.6105976")) && COND(same_8g(b.sd, "3.9749214")),
	      "case05: two-pass sd 6.6105976 and 3.9749214");
	check(COND(same_8g(a.median, "11628446")) && COND(same_8g(a.mean, "11628445")) && COND(a.min == 11628437) &&
		      COND(a.max == 11628452),
	      "case05: median, avg, min, max");
	stats_compare(&a, &b, stats_conf_index(95), &d);
	check(!d.significant, "case05: no difference proven at 95%%");
}

static void test_case01(void)
{
	/* FreeBSD's iguana/chameleon man page example, -c 80. */
	double ig[] = { 50, 200, 150, 400, 750, 400, 150 };
	double ch[] = { 150, 400, 720, 500, 930 };
	struct stats a = of(ig, 7), b = of(ch, 5);
	struct stats_diff d;

	check(COND(a.median == 200) && COND(b.median == 500) && COND(a.mean == 300) && COND(b.mean == 540) &&
		      COND(same_8g(a.sd, "238.04761")) && COND(same_8g(b.sd, "299.08193")),
	      "iguana/chameleon summaries");
	stats_compare(&a, &b, stats_conf_index(95), &d);
	check(!d.significant, "iguana/chameleon: no difference at 95%%");
	stats_compare(&a, &b, stats_conf_index(80), &d);
	check(COND(d.significant) && COND(same_g(d.diff, "240")) && COND(same_g(d.err, "212.215")) &&
		      COND(same_g(d.pct, "80")) && COND(same_g(d.pooled_sd, "264.159")),
	      "iguana/chameleon at 80%%: 240 +/- 212.215, 80%%, pooled s 264.159");
	/* Current formula, worked by hand: t=1.372, vd=89450, vx=56666.67,
	 * sqrt((4*89450 + 6*56666.67*540^2/300^2) * 12/(5*7*10)) = 223.69, *1.372/300 = 1.0230.
	 * (The 2012 formula, e/avg_x, printed 70.7384.) */
	check(same_g(d.pct_err, "102.3"), "iguana/chameleon at 80%%: relative half-width 102.3%% (current formula)");
}

static void test_case03(void)
{
	/* Even N: median is the mean of the middle two; current relative formula. */
	double x[] = { 491126, 501647.5, 495473, 493374, 487672.5, 492910, 493214.5, 492543,
		       487692, 491137 };
	double p[] = { 574367, 574334, 561233.5, 563836, 575425, 559993, 569859.5, 570999,
		       568647, 566681 };
	struct stats a = of(x, 10), b = of(p, 10);
	struct stats_diff d;

	check(COND(same_8g(a.median, "492726.5")) && COND(same_8g(b.median, "569253.25")),
	      "case03: even-N medians 492726.5 and 569253.25");
	stats_compare(&a, &b, stats_conf_index(95), &d);
	check(COND(d.significant) && COND(same_g(d.diff, "75858.5")) && COND(same_g(d.err, "4530.85")) &&
		      COND(same_g(d.pct, "15.3972")) && COND(same_g(d.pct_err, "0.970619")) &&
		      COND(same_g(d.pooled_sd, "4822.13")),
	      "case03: 75858.5 +/- 4530.85, 15.3972%% +/- 0.970619%%, pooled s 4822.13");
}

static void test_from_summaries(void)
{
	/* The seeds' ACPI-fast vs HPET comparison, published as summaries only. */
	struct stats acpi = { .n = 10, .mean = 823397.8, .sd = 509.43254 };
	struct stats hpet = { .n = 10, .mean = 1503267.4, .sd = 2842.9779 };
	struct stats_diff d;

	acpi.var = acpi.sd * acpi.sd;
	hpet.var = hpet.sd * hpet.sd;
	stats_compare(&acpi, &hpet, stats_conf_index(95), &d);
	check(COND(d.significant) && COND(same_g(d.diff, "679870")) && COND(same_g(d.err, "1918.94")) &&
		      COND(same_g(d.pooled_sd, "2042.31")),
	      "ACPI-fast vs HPET: 679870 +/- 1918.94, pooled s 2042.31");
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void test_sort(void)
{
	static const char *names[] = { "random", "sorted", "reversed", "all equal", "few values",
				       "organ pipe" };
	size_t n = 1000000, i;
	double *v = malloc(n * sizeof *v), *w = malloc(n * sizeof *w);
	uint64_t r = 88172645463325252ull;
	int kind;

	for (kind = 0; kind < 6; kind++) {
		for (i = 0; i < n; i++) {
			xorshift64(&r);
			switch (kind) {
			case 0: v[i] = (double)(r % 1000000007) / 7; break;
			case 1: v[i] = (double)i; break;
			case 2: v[i] = (double)(n - i); break;
			case 3: v[i] = 42; break;
			case 4: v[i] = (double)(r % 3); break;
			default: v[i] = (double)(i < n / 2 ? i : n - i); break;
			}
		}
		memcpy(w, v, n * sizeof *v);
		stats_sort(v, n);
		qsort(w, n, sizeof *w, cmp_d);
		check(!memcmp(v, w, n * sizeof *v), "sort of 1e6 values (%s) equals qsort", names[kind]);
	}
	/* The radix path, through stats_compute_scratch: negatives, tiny and huge
	 * magnitudes, and the same summary as the in-place path. */
	{
		double *x = malloc(n * sizeof *x), *scratch = malloc(n * sizeof *x);
		struct stats s1, s2;
		for (i = 0; i < n; i++) {
			xorshift64(&r);
			v[i] = (double)(long long)(r % 2000001) - 1000000.0;
			if (i % 7 == 0)
				v[i] *= 1e-300;
			if (i % 11 == 0)
				v[i] *= 1e300;
		}
		memcpy(w, v, n * sizeof *v);
		memcpy(x, v, n * sizeof *v);
		stats_compute_scratch(v, n, scratch, &s1);
		stats_compute(x, n, &s2);
		qsort(w, n, sizeof *w, cmp_d);
		check(COND(!memcmp(v, w, n * sizeof *v)) && COND(!memcmp(x, w, n * sizeof *v)),
		      "radix and introsort of 1e6 mixed-sign values equal qsort");
		check(!memcmp(&s1, &s2, sizeof s1), "stats_compute_scratch equals stats_compute");
		stats_compute_scratch(v, 3, scratch, &s1);
		check(COND(s1.n == 3) && COND(s1.min <= s1.median) && COND(s1.median <= s1.max), "radix path, n=3");
		free(x);
		free(scratch);
	}
	for (i = 0; i < 40; i++) { /* every small size through the insertion path */
		size_t k, m = i;
		for (k = 0; k < m; k++)
			v[k] = w[k] = (double)((k * 7919) % 13);
		stats_sort(v, m);
		qsort(w, m, sizeof *w, cmp_d);
		if (memcmp(v, w, m * sizeof *v))
			break;
	}
	check(i == 40, "sort of sizes 0..39 equals qsort");
	free(v);
	free(w);
}

static void test_edges(void)
{
	struct stats s;
	double one = 5, two[] = { 4, 2 };

	stats_compute(NULL, 0, &s);
	check(COND(s.n == 0) && COND(s.mean == 0) && COND(s.sd == 0) && COND(s.median == 0), "n=0: all zero");
	stats_compute(&one, 1, &s);
	check(COND(s.n == 1) && COND(s.mean == 5) && COND(s.var == 0) && COND(s.median == 5), "n=1: var 0");
	stats_compute(two, 2, &s);
	check(COND(s.median == 3) && COND(two[0] == 2) && COND(s.var == 2), "n=2: median 3, var 2, values sorted");
}

int main(void)
{
	test_table();
	test_case01();
	test_case03();
	test_case05();
	test_from_summaries();
	test_edges();
	test_sort();
	return check_done();
}
