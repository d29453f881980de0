/* SPDX-License-Identifier: BSD-2-Clause */
/* tools/stat/keysort.c and tally.c: the key order is the doubles' order and
 * the radix sort sorts; a tally (the counting table, and the array past
 * TALLY_HASH_MAX distinct values) gives, position for position, the values
 * a stable sort gives (ministat's glibc qsort is a stable merge sort, which
 * matters for the signs of zeros), and tally_stats gives stats_compute's
 * struct, bit for bit. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/stats.h"
#include "tools/stat/keysort.h"
#include "tools/stat/tally.h"
#include "tests/unit/check.h"
#include "tests/unit/xorshift.h"

static uint64_t rng = 0x853c49e6748fea9bull;

static uint64_t next(void) /* xorshift64*: reproducible runs */
{
	return xorshift64_star(&rng);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_keys(void)
{
	static const double order[] = { -INFINITY, -1e308, -1, -4.9e-324, -0.0, 0.0, 4.9e-324,
					1e-300, 0.5, 1, 1050.4, 1e308, INFINITY };
	size_t sizes[] = { 0, 1, 2, 63, 64, 65, 1000, 100000, 300000 }, i, bad = 0;

	for (i = 0; i + 1 < sizeof order / sizeof order[0]; i++)
		bad += !(keysort_key(order[i]) < keysort_key(order[i + 1]));
	for (i = 0; i < 100000; i++) {
		uint64_t u = next();
		double d, back;
		memcpy(&d, &u, sizeof d);
		back = keysort_value(keysort_key(d));
		bad += memcmp(&d, &back, sizeof d) != 0;
	}
	check(bad == 0, "keysort: keys order as the doubles, and give them back bit for bit");
	bad = 0;
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		for (int range = 0; range < 3; range++) {
			size_t n = sizes[i];
			uint64_t *k = malloc((n + 1) * sizeof *k), *r = malloc((n + 1) * sizeof *r);
			uint64_t *scratch = malloc((n + 1) * sizeof *scratch);
			for (size_t j = 0; j < n; j++) /* all bits, 1000 values, one high digit */
				k[j] = range == 0 ? next() : range == 1 ? next() % 1000
								      : 0x8000000000000000ull | next() % 5000;
			memcpy(r, k, n * sizeof *k);
			keysort(k, n, scratch);
			qsort(r, n, sizeof *r, cmp_u64);
			bad += n && memcmp(k, r, n * sizeof *k) != 0;
			free(k);
			free(r);
			free(scratch);
		}
	}
	check(bad == 0, "keysort: sorts as qsort, 0 to 300000 keys, wide and narrow");
}

/* ministat's comparison: zeros compare equal whatever their signs. */
static int ministat_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A stable sort (insertion into runs via merge): what ministat's qsort does. */
static void stable_sort(double *v, size_t n, double *tmp)
{
	if (n < 2)
		return;
	stable_sort(v, n / 2, tmp);
	stable_sort(v + n / 2, n - n / 2, tmp);
	size_t i = 0, j = n / 2, k = 0;
	while (i < n / 2 && j < n)
		tmp[k++] = ministat_cmp(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
	while (i < n / 2)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof *v);
}

static double random_value(int kind)
{
	switch (kind) {
	case 0: /* benchmark-like: few distinct, one decimal */
		return 1000 + (double)(next() % 100) + (double)(next() % 10) / 10;
	case 1: /* wide: mostly distinct */
		return (double)(int64_t)(next() % 2000000) - 1000000.5;
	case 2: /* zeros of both signs among small integers */
		return next() % 3 ? (double)(int64_t)(next() % 7) - 3 : (next() % 2 ? -0.0 : 0.0);
	default: /* huge and tiny */
		return ldexp((double)(next() % 1000) - 500, (int)(next() % 2000) - 1000);
	}
}

/* n values of `kind` through a tally in batches, as the reader gives them. */
static int one_set(size_t n, int kind, int *array_mode)
{
	double *v = malloc(n * sizeof *v), *s = malloc(n * sizeof *s), *tmp = malloc(n * sizeof *tmp);
	struct tally t;
	struct stats got, want;
	size_t i, bad = 0;
	int has_neg_zero = 0;

	tally_init(&t);
	for (i = 0; i < n; i++) {
		v[i] = random_value(kind);
		has_neg_zero |= v[i] == 0 && signbit(v[i]);
	}
	for (i = 0; i < n; i += 512)
		tally_add(&t, v + i, NULL, n - i < 512 ? n - i : 512);
	*array_mode = t.slot == NULL;
	t.sum = 0;
	for (i = 0; i < n; i++)
		t.sum += v[i];
	if (!tally_sort(&t))
		return 0;
	memcpy(s, v, n * sizeof *v);
	stable_sort(s, n, tmp);
	/* Every position, or (where tally_at's walk over the runs would make
	 * that slow) 3000 random ones and both ends. */
	for (size_t k = 0; k < n; k++) {
		size_t at = (double)n * (double)(t.count ? t.nv : 1) <= 5e7 || k < 2 ? k : next() % n;
		double a = tally_at(&t, k == 1 ? n - 1 : at);
		bad += memcmp(&a, &s[k == 1 ? n - 1 : at], sizeof a) != 0;
		if (k > 3000 && at != k)
			break;
	}
	tally_stats(&t, &got);
	memcpy(s, v, n * sizeof *v);
	stats_compute(s, n, &want); /* its own sort leaves -0 and +0 as it likes */
	if (has_neg_zero)
		got.min = want.min = got.max = want.max = got.median = want.median = 0;
	bad += memcmp(&got, &want, sizeof got) != 0;
	tally_free(&t);
	free(v);
	free(s);
	free(tmp);
	return bad == 0;
}

static void test_tally(void)
{
	static const char *const kind[] = { "few distinct", "mostly distinct", "signed zeros",
					    "huge and tiny" };
	size_t sizes[] = { 3, 4, 5, 17, 1000, 65536, 200001 };
	int arrays = 0, tables = 0;

	for (int k = 0; k < 4; k++) {
		int bad = 0;
		for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
			int array_mode;
			bad += !one_set(sizes[i], k, &array_mode);
			arrays += array_mode;
			tables += !array_mode;
		}
		check(bad == 0, "tally: %s, 3..200001 values: a stable sort's values, stats_compute's numbers",
		      kind[k]);
	}
	check(COND(arrays > 0) && COND(tables > 0), "tally: both the table (%d sets) and the array (%d) were taken",
	      tables, arrays);
}

/* Counted values (the line cache's repeats) count as that many. */
static void test_counts(void)
{
	struct tally t;
	double v[3] = { 2.5, 1, 2.5 }, want[5] = { 1, 1, 2.5, 2.5, 2.5 };
	uint64_t c[3] = { 1, 2, 1 };
	int ok = 1;

	tally_init(&t);
	tally_add(&t, v, NULL, 1);
	tally_add(&t, v + 1, c + 1, 2);
	tally_add(&t, v, c, 1);
	ok = tally_sort(&t) && t.n == 5;
	for (size_t i = 0; ok && i < 5; i++)
		ok = tally_at(&t, i) == want[i];
	check(ok, "tally: counted values count as that many");
	tally_free(&t);
}

int main(void)
{
	test_keys();
	test_tally();
	test_counts();
	return check_done();
}
