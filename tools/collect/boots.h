/* SPDX-License-Identifier: BSD-2-Clause */
/* Every boot the collector hears from, by its boot id: the records that
 * arrived in seq order appended to DIR/MACHINE/NNNN.log as soon as they
 * join the contiguous prefix, the others held until the gap fills.  One
 * lock covers the table, its files and its counts; the receiving threads
 * take records (boots_take), the main thread takes the events (a boot whose
 * end record was written, a boot gone silent) and settles them.
 *
 * Memory is bounded: at most BOOTS_ACTIVE_MAX boots in progress,
 * BOOTS_HELD_BOOT bytes held out of order per boot and BOOTS_HELD_TOTAL in
 * all; past a bound a record is refused as busy (the sender's next pass or
 * retry brings it again).  A finished boot is remembered (its id, its file,
 * how far it got: BOOTS_KEPT_MAX of them, the oldest forgotten first) so that
 * the copies a syslog sender's second pass brings are dropped as duplicates. */
#ifndef TOOLS_COLLECT_BOOTS_H
#define TOOLS_COLLECT_BOOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOOTS_ACTIVE_MAX 1024
#define BOOTS_HELD_BOOT (4u << 20)
#define BOOTS_HELD_TOTAL (64u << 20)
#define BOOTS_KEPT_MAX 16384
#define BOOTS_MACHINE_MAX 64 /* "52-54-00-12-34-56" is 17 */
#define BOOTS_ID_MAX 128     /* MACHINE-TSC: 34 */

enum boots_take {
	TAKE_STORED,    /* written (and any held records it let through) */
	TAKE_HELD,      /* kept until the records before it arrive */
	TAKE_DUPLICATE, /* that seq was here already */
	TAKE_MIXED,     /* the boot id is another machine's: refused */
	TAKE_PAST_END,  /* a seq after the boot's end record: refused */
	TAKE_BUSY,      /* a memory bound: refused for now */
	TAKE_FAILED,    /* the file could not be written (why: boots_error) */
};

enum boot_event_kind {
	EVENT_ENDED,      /* the end record is written: verify and import the file */
	EVENT_SILENT,     /* no end, and nothing for --incomplete-after seconds */
	EVENT_STOPPED,    /* still in progress when the collector stopped */
};

struct boot_event {
	int kind;
	char machine[BOOTS_MACHINE_MAX + 1];
	char boot[BOOTS_ID_MAX + 1];
	char *path;           /* the log (malloc'd; NULL: no record 0 yet, no file) */
	const char *file;     /* its name, "0003.log", inside path; "-" without one */
	uint64_t records;     /* in the file */
	uint64_t held;        /* held, waiting for a gap to fill */
};

struct boots_counts {
	unsigned active, complete, damaged, incomplete;
	uint64_t stored, held, duplicates, busy;
};

struct boots;
struct boots *boots_new(const char *dir, double incomplete_after);
void boots_free(struct boots *b);

/* A checked record (tools/collect/record.h) of machine's boot.  now: the
 * monotonic clock, for the silence. */
int boots_take(struct boots *b, const char *machine, const char *boot, uint64_t seq, bool is_end, const char *text,
	       size_t len, double now);
/* Whether a new record of this boot would find room (the hello's answer). */
bool boots_room(struct boots *b, const char *boot);
/* The last write error, for TAKE_FAILED: copied into why. */
void boots_error(struct boots *b, char *why, size_t cap);

/* The next event (the main thread's): true with *ev filled (ev->path is
 * the caller's to free).  stopping: every boot still in progress becomes an
 * EVENT_STOPPED. */
bool boots_next_event(struct boots *b, double now, bool stopping, struct boot_event *ev);
/* What the main thread made of an EVENT_ENDED boot: complete or damaged. */
void boots_settle(struct boots *b, const char *boot, bool complete);
void boots_counts(struct boots *b, struct boots_counts *c);

#endif
