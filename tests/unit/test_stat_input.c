/* SPDX-License-Identifier: BSD-2-Clause */
/* tools/stat/input.c: the hand-written number parser gives strtod's double,
 * bit for bit, on edge strings, on random strings and on every word of the
 * published ministat data (tests/data/ministat).  The reader's line rules,
 * short path and line cache: tests/unit/test_stat_lines.c. */
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tools/stat/input.h"
#include "tests/unit/check.h"
#include "tests/unit/xorshift.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void) /* xorshift64*: reproducible runs */
{
	return xorshift64_star(&rng);
}

static int same_double(double a, double b)
{
	return !memcmp(&a, &b, sizeof a) || (isnan(a) && isnan(b));
}

/* 1 when stat_input_number and strtod agree on s (taken whole). */
static int agrees(const char *s)
{
	size_t n = strlen(s);
	char *buf = malloc(n + 1), *end;
	double v = 0, r;
	int ok, rok;

	memcpy(buf, s, n + 1);
	buf[n] = 'X'; /* the byte past the token is not a NUL in the reader either */
	ok = stat_input_number(buf, buf + n, &v);
	r = strtod(s, &end);
	rok = n > 0 && end == s + n;
	free(buf);
	if (ok != rok || (ok && !same_double(v, r))) {
		printf("  \"%s\": ours %d %.17g, strtod %d %.17g\n", s, ok, v, rok, r);
		return 0;
	}
	return 1;
}

static void random_number(char *s)
{
	static const char junk[] = "x .e+-#\t,0";
	int k = 0, i, n;

	if (next() % 3 == 0)
		s[k++] = "-+"[next() % 2];
	n = (int)(next() % 22);
	for (i = 0; i < n; i++)
		s[k++] = (char)('0' + (next() % 4 == 0 ? 0 : next() % 10));
	if (next() % 2) {
		s[k++] = '.';
		n = (int)(next() % 22);
		for (i = 0; i < n; i++)
			s[k++] = (char)('0' + next() % 10);
	}
	if (next() % 4 == 0) {
		s[k++] = "eE"[next() % 2];
		if (next() % 2)
			s[k++] = "-+"[next() % 2];
		n = (int)(next() % 4);
		for (i = 0; i < n; i++)
			s[k++] = (char)('0' + next() % 10);
	}
	if (next() % 16 == 0)
		s[(size_t)next() % (size_t)(k + 1)] = junk[next() % (sizeof junk - 1)];
	s[k] = '\0';
}

static void test_numbers(void)
{
	static const char *const edge[] = {
		"0", "-0", "+0", "-0.0", "0.", ".0", ".", "-", "+", "", "1e", "1e+", "1e-", "e5",
		"1050.4", "51092.4", "-51092.4", "0.1", "0.3", "2.5", "1e22", "1e23", "1e-22",
		"1e-23", "9007199254740992", "9007199254740993", "9007199254740994",
		"18014398509481985", "123456789012345678.5", "1234567890123456789",
		"12345678901234567890", "0000000000000000000000001.5", "1.000000000000000000000",
		"4.9e-324", "2.4703282292062327e-324", "1.7976931348623157e308", "1e309",
		"-1e309", "1e-400", "0x1p3", "0X10", "inf", "-Infinity", "nan", "NAN(123)",
		" 5", "5 ", "\t7", "1,5", "1_000", "3.14159265358979323846", "1e+0022",
		"1e0000000000000000000000000000001", "00000.00000e99999", "7.e3", "-.5e-3",
		"999999999999999.9", "0.000000000000001", "1234567.1234567", "12345678.12345678",
	};
	char s[128];
	int bad = 0, i;

	for (i = 0; i < (int)(sizeof edge / sizeof edge[0]); i++)
		bad += !agrees(edge[i]);
	check(bad == 0, "number: %d edge strings as strtod reads them", i);
	bad = 0;
	for (i = 0; i < 300000; i++) {
		random_number(s);
		bad += !agrees(s);
	}
	check(bad == 0, "number: 300000 random strings as strtod reads them (%d differ)", bad);
}

/* Every whitespace-separated word of every file under dir. */
static void words_of(const char *dir, int *files, int *words, int *bad)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096], w[256];

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat sb;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (stat(path, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode)) {
			words_of(path, files, words, bad);
			continue;
		}
		if (!(f = fopen(path, "r")))
			continue;
		(*files)++;
		while (fscanf(f, "%255s", w) == 1) {
			(*words)++;
			*bad += !agrees(w);
		}
		fclose(f);
	}
	closedir(d);
}

static void test_reference_data(void)
{
	int files = 0, words = 0, bad = 0;

	words_of("tests/data/ministat", &files, &words, &bad);
	check(COND(files > 0) && COND(words > 1000) && COND(bad == 0),
	      "number: every word of %d files of tests/data/ministat (%d words) as strtod reads it", files, words);
}

int main(void)
{
	test_numbers();
	test_reference_data();
	return check_done();
}
