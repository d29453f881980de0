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
 * retry brings it again).  Disk is bounded per boot: a log that would grow
 * past limits.log_bytes is cut there, and says so.
 *
 * Syslog's source addresses can be forged, so a flood of datagrams must not
 * fill the table: a new boot from an address that has limits.per_source
 * boots in progress is refused, and when the table is full the boot heard
 * from least recently among those that never said hello (syslog's, or an
 * HTTP sender's that skipped it) makes room, the ones with no record 0 yet
 * first.  A boot that said hello keeps its place.  A finished boot is remembered (its id, its file,
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

struct sender;

enum boots_take {
	TAKE_STORED,    /* written (and any held records it let through) */
	TAKE_HELD,      /* kept until the records before it arrive */
	TAKE_DUPLICATE, /* that seq was here already */
	TAKE_MIXED,     /* the boot id is another machine's: refused */
	TAKE_PAST_END,  /* a seq after the boot's end record: refused */
	TAKE_BUSY,      /* a memory bound: refused for now */
	TAKE_FAILED,    /* the file could not be written (why: boots_error) */
	TAKE_CUT,       /* the boot's log reached its size limit: refused */
	TAKE_SOURCE,    /* the sender's address has its limit of boots in progress */
};

enum boot_event_kind {
	EVENT_ENDED,      /* the end record is written: verify and import the file */
	EVENT_SILENT,     /* no end, and nothing for --incomplete-after seconds */
	EVENT_STOPPED,    /* still in progress when the collector stopped */
	EVENT_CUT,        /* its log reached --max-log-bytes: what it has is final */
	EVENT_EVICTED,    /* made room for a boot that said hello (it never did) */
};

struct boot_event {
	int kind;
	char machine[BOOTS_MACHINE_MAX + 1];
	char boot[BOOTS_ID_MAX + 1];
	char file[16];        /* its log, "0003.log" in the machine's folder; "-" before record 0 */
	int fd;               /* the log, to read from its start (the caller's to close); -1: none */
	uint64_t records;     /* in the file */
	uint64_t bytes;       /* the file's length */
	uint64_t held;        /* held, waiting for a gap to fill */
};

struct boots_counts {
	unsigned active, complete, damaged, incomplete, cut;
	uint64_t stored, held, duplicates, busy, evicted, source_limited;
};

/* What the table holds to, besides its own bounds above. */
struct boots_limits {
	uint64_t log_bytes;     /* a boot's log is cut before it grows past this */
	unsigned per_source;    /* boots in progress from one address at most */
	double incomplete_after;
};

struct boots;
/* dirfd: the log directory (tools/collect/spool.h), the table's to close. */
struct boots *boots_new(int dirfd, const struct boots_limits *lim);
void boots_free(struct boots *b);

/* A checked record (tools/collect/record.h) from a checked sender
 * (tools/collect/sender.h).  now: the monotonic clock, for the silence. */
int boots_take(struct boots *b, const struct sender *s, uint64_t seq, bool is_end, const char *text, size_t len,
	       double now);
/* A hello: true when the boot has, or now got, its place in the table.  A
 * boot that said hello is never evicted to make room for another. */
bool boots_hello(struct boots *b, const struct sender *s, double now);
/* The last write error, for TAKE_FAILED: copied into why. */
void boots_error(struct boots *b, char *why, size_t cap);

/* The next event (the main thread's): true with *ev filled (ev->fd is the
 * caller's to close).  stopping: every boot still in progress becomes an
 * EVENT_STOPPED. */
bool boots_next_event(struct boots *b, double now, bool stopping, struct boot_event *ev);
/* What the main thread made of an EVENT_ENDED or EVENT_CUT boot: complete
 * or not. */
void boots_settle(struct boots *b, const char *boot, bool complete);
void boots_counts(struct boots *b, struct boots_counts *c);

#endif
