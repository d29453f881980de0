/* SPDX-License-Identifier: BSD-2-Clause */
/* The values of one `tickprobe stat` dataset, kept the cheap way for what
 * ministat prints: the sum in input order (ministat's Avg adds as it reads),
 * and the multiset in sorted order — as (value, count) pairs while there are
 * at most TALLY_HASH_MAX distinct values (a hash table, no array of the
 * values at all), as a plain sorted array past that.
 *
 * What comes out equals ministat's qsort of the values, ties included: equal
 * values are the same double except +0 and -0, and for those the signs of the
 * zeros are kept in input order, as ministat's stable sort (glibc's merge
 * sort) leaves them.  tally_stats computes what tools/lib/stats.c's
 * stats_compute does, operation for operation, so the digits are the same;
 * tests/unit/test_stat_tally.c checks both claims. */
#ifndef TOOLS_STAT_TALLY_H
#define TOOLS_STAT_TALLY_H

#include <stddef.h>
#include <stdint.h>
#include "tools/lib/stats.h"

/* 65,536 distinct values: a 2 MB table (16-byte slots, at most half full),
 * which stays in the L2 cache; a set with more goes to the array. */
#define TALLY_HASH_MAX 65536

struct tally_slot {
	uint64_t key; /* the double's order key (keysort.h) */
	uint64_t count; /* 0: the slot is free */
};

struct tally {
	size_t n;
	double sum; /* in input order, set by the caller */
	/* while counting: the table (slot != NULL) or else the array of keys */
	struct tally_slot *slot;
	size_t mask, distinct;
	uint64_t *keys;
	size_t nkeys, cap;
	/* the zeros' signs in input order (1: -0), kept once a -0 is seen */
	size_t zeros, zcap;
	unsigned char *zneg;
	/* after tally_sort: nv values ascending, each count[i] times (count
	 * NULL: once each); -0 is stored as +0, tally_at gives the sign back */
	double *v;
	uint64_t *count;
	size_t nv;
};

void tally_init(struct tally *t);
void tally_free(struct tally *t);
/* A stat_input_sink (tools/stat/input.h): ctx is a struct tally.  The sum
 * is not taken here (the reader has it in input order): set t->sum. */
int tally_add(void *ctx, const double *v, const uint64_t *count, size_t n);
/* Sorts what was added; 0 when out of memory. */
int tally_sort(struct tally *t);
/* The value at position pos (0-based) of the sorted values. */
double tally_at(const struct tally *t, size_t pos);
/* stats_compute's result for the values added (after tally_sort). */
void tally_stats(const struct tally *t, struct stats *out);

#endif
