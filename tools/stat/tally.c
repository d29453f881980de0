/* SPDX-License-Identifier: BSD-2-Clause */
/* A dataset's values for `tickprobe stat` (tools/stat/tally.h).  Timing data
 * repeats itself: the benchmark's 1,000,000 values (tests/bench/ministat.sh)
 * are ~11,000 distinct ones, so counting them in a table that stays in the
 * cache and sorting the distinct ones beats storing and sorting all 8 MB. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/stat/keysort.h"
#include "tools/stat/tally.h"

#define FIRST_SLOTS 4096

static inline size_t slot_of(uint64_t key, size_t mask)
{
	/* Fibonacci hashing: the multiply carries the low bits, where decimal
	 * data differs, into the top ones; the table has at most 2^18 slots. */
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 46) & mask;
}

void tally_init(struct tally *t)
{
	memset(t, 0, sizeof *t);
}

void tally_free(struct tally *t)
{
	free(t->slot);
	free(t->keys);
	free(t->zneg);
	free(t->v);
	free(t->count);
	tally_init(t);
}

static int note_zero(struct tally *t, int negative)
{
	if (negative && !t->zneg) {
		t->zcap = t->zeros < 1024 ? 2048 : 2 * t->zeros;
		if (!(t->zneg = calloc(t->zcap, 1)))
			return 0;
	}
	if (t->zneg) {
		if (t->zeros == t->zcap) {
			unsigned char *nz = realloc(t->zneg, 2 * t->zcap);
			if (!nz)
				return 0;
			t->zneg = nz;
			t->zcap *= 2;
		}
		t->zneg[t->zeros] = (unsigned char)negative;
	}
	t->zeros++;
	return 1;
}

static int grow_table(struct tally *t, size_t slots)
{
	struct tally_slot *ns = calloc(slots, sizeof *ns), *old = t->slot;
	size_t i, j, old_slots = old ? t->mask + 1 : 0;

	if (!ns)
		return 0;
	for (i = 0; i < old_slots; i++) {
		if (!old[i].count)
			continue;
		for (j = slot_of(old[i].key, slots - 1); ns[j].count; j = (j + 1) & (slots - 1))
			;
		ns[j] = old[i];
	}
	free(old);
	t->slot = ns;
	t->mask = slots - 1;
	return 1;
}

static int append_key(struct tally *t, uint64_t key, uint64_t times)
{
	if (t->nkeys + times > t->cap) {
		size_t cap = t->cap ? t->cap : 1 << 17;
		uint64_t *nk;

		while (cap < t->nkeys + times)
			cap *= 2;
		if (!(nk = realloc(t->keys, cap * sizeof *nk)))
			return 0;
		t->keys = nk;
		t->cap = cap;
	}
	while (times--)
		t->keys[t->nkeys++] = key;
	return 1;
}

/* Too many distinct values for the table: every value into the array. */
static int table_to_array(struct tally *t)
{
	size_t i;

	for (i = 0; i <= t->mask; i++)
		if (t->slot[i].count && !append_key(t, t->slot[i].key, t->slot[i].count))
			return 0;
	free(t->slot);
	t->slot = NULL;
	return 1;
}

/* A key not in the table yet, at free slot i. */
static int new_key(struct tally *t, size_t i, uint64_t key, uint64_t times)
{
	t->slot[i].key = key;
	t->slot[i].count = times;
	if (++t->distinct * 2 <= t->mask + 1)
		return 1;
	if (t->distinct > TALLY_HASH_MAX)
		return table_to_array(t);
	return grow_table(t, 2 * (t->mask + 1));
}

static inline int count_key(struct tally *t, uint64_t key, uint64_t times)
{
	struct tally_slot *s = t->slot;
	size_t mask = t->mask, i = slot_of(key, mask);

	for (; s[i].count; i = (i + 1) & mask) {
		if (s[i].key == key) {
			s[i].count += times;
			return 1;
		}
	}
	return new_key(t, i, key, times);
}

int tally_add(void *ctx, const double *v, const uint64_t *count, size_t n)
{
	struct tally *t = ctx;
	size_t i;
	int ok = 1;

	if (!t->slot && !t->keys && !grow_table(t, FIRST_SLOTS))
		return 0;
	for (i = 0; i < n && ok; i++) {
		double d = v[i];
		uint64_t times = count ? count[i] : 1;

		if (d == 0) { /* -0 counts as +0; its sign is kept apart */
			for (uint64_t c = 0; c < times; c++)
				if (!note_zero(t, signbit(d) != 0))
					return 0;
			d = 0.0;
		}
		if (t->slot)
			ok = count_key(t, keysort_key(d), times);
		else
			ok = append_key(t, keysort_key(d), times);
		t->n += times;
	}
	return ok;
}

/* The keys sorted in place become the values, in place (mem: n keys). */
static double *keys_to_values(void *mem, size_t n)
{
	const uint64_t *k = mem;
	double *v = mem;

	for (size_t i = 0; i < n; i++) {
		double d = keysort_value(k[i]); /* read before the store over it */
		v[i] = d;
	}
	return v;
}

static int sort_table(struct tally *t)
{
	uint64_t *k = malloc((t->distinct ? t->distinct : 1) * sizeof *k);
	uint64_t *scratch = malloc((t->distinct ? t->distinct : 1) * sizeof *scratch);
	size_t i, nk = 0;

	t->count = scratch;
	if (!k || !scratch) {
		free(k);
		return 0;
	}
	for (i = 0; i <= t->mask; i++)
		if (t->slot[i].count)
			k[nk++] = t->slot[i].key;
	keysort(k, nk, scratch);
	for (i = 0; i < nk; i++) { /* scratch becomes the counts */
		size_t j = slot_of(k[i], t->mask);
		while (t->slot[j].key != k[i] || !t->slot[j].count)
			j = (j + 1) & t->mask;
		scratch[i] = t->slot[j].count;
	}
	t->v = keys_to_values(k, nk);
	t->nv = nk;
	free(t->slot);
	t->slot = NULL;
	return 1;
}

int tally_sort(struct tally *t)
{
	uint64_t *scratch;

	if (t->slot)
		return sort_table(t);
	if (!t->keys)
		return 1; /* nothing was added */
	if (!(scratch = malloc(t->nkeys * sizeof *scratch)))
		return 0;
	keysort(t->keys, t->nkeys, scratch);
	free(scratch);
	t->v = keys_to_values(t->keys, t->nkeys);
	t->nv = t->nkeys;
	t->keys = NULL;
	return 1;
}

double tally_at(const struct tally *t, size_t pos)
{
	size_t i = pos, start = pos; /* run i holds positions [start, ...) */
	double d;

	if (t->count)
		for (i = 0, start = 0; pos - start >= t->count[i]; i++)
			start += t->count[i];
	d = t->v[i];
	if (d != 0 || !t->zneg)
		return d;
	while (!t->count && start > 0 && t->v[start - 1] == 0)
		start--; /* the array: the zeros' first position */
	return t->zneg[pos - start] ? -0.0 : d;
}

/* tools/lib/stats.c's summarise(), on the runs: the same operations in the same
 * order (a run of c equal values adds its square c times, not c times it). */
void tally_stats(const struct tally *t, struct stats *out)
{
	double ss = 0, mean;
	size_t n = t->n, i;

	memset(out, 0, sizeof *out);
	out->n = n;
	if (n == 0)
		return;
	mean = t->sum / (double)n;
	for (i = 0; i < t->nv; i++) {
		double dev = (t->v[i] - mean) * (t->v[i] - mean);
		uint64_t c = t->count ? t->count[i] : 1;
		while (c--)
			ss += dev;
	}
	out->min = tally_at(t, 0);
	out->max = tally_at(t, n - 1);
	out->median = n % 2 ? tally_at(t, n / 2)
			    : (tally_at(t, n / 2) + tally_at(t, n / 2 - 1)) / 2;
	out->mean = mean;
	out->var = n > 1 ? ss / ((double)n - 1.0) : 0;
	if (out->var < 0)
		out->var = 0;
	out->sd = sqrt(out->var);
}
