/* SPDX-License-Identifier: BSD-2-Clause */
/* LSD radix sort of 64-bit keys (tools/stat/keysort.h): six passes of 11
 * bits instead of eight of 8 (the six histograms, 48 KB, stay in the L2
 * cache), all six counted in one read, and a pass skipped when every key has
 * the same digit there (the top digits of data of one magnitude, typically). */
#include <stdlib.h>
#include "tools/stat/keysort.h"

#define DIGIT_BITS 11
#define DIGITS 6 /* 6 * 11 >= 64 */
#define BUCKETS (1u << DIGIT_BITS)

static void insertion_sort(uint64_t *k, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t v = k[i];
		size_t j = i;
		for (; j > 0 && v < k[j - 1]; j--)
			k[j] = k[j - 1];
		k[j] = v;
	}
}

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void keysort(uint64_t *keys, size_t n, uint64_t *scratch)
{
	uint32_t (*count)[BUCKETS];
	uint64_t *src = keys, *dst = scratch, *t;
	size_t i;
	int d;

	if (n < 64) {
		insertion_sort(keys, n);
		return;
	}
	count = n <= UINT32_MAX ? calloc(DIGITS, sizeof *count) : NULL;
	if (!count) { /* 4 G keys, or no 48 KB: the library's sort will do */
		qsort(keys, n, sizeof *keys, cmp_key);
		return;
	}
	for (i = 0; i < n; i++) {
		uint64_t k = keys[i];
		for (d = 0; d < DIGITS; d++)
			count[d][(k >> (DIGIT_BITS * d)) & (BUCKETS - 1)]++;
	}
	for (d = 0; d < DIGITS; d++) {
		uint32_t pos = 0, c, *cd = count[d];
		int shift = DIGIT_BITS * d;
		unsigned b;

		if (cd[(keys[0] >> shift) & (BUCKETS - 1)] == n)
			continue; /* every key has this digit */
		for (b = 0; b < BUCKETS; b++) {
			c = cd[b];
			cd[b] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++) {
			uint64_t k = src[i];
			dst[cd[(k >> shift) & (BUCKETS - 1)]++] = k;
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != keys)
		memcpy(keys, src, n * sizeof *keys);
	free(count);
}
