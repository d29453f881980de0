/* SPDX-License-Identifier: BSD-2-Clause */
/* The per-boot table's state (boots.h), shared by its three files: the
 * table and the taking of records (boots.c), the boot's log file and the
 * records held out of order (boots_file.c), and the main thread's events
 * (boots_events.c).  Every function here expects the table's lock held.
 * Private to tools/collect. */
#ifndef TOOLS_COLLECT_BOOTS_STATE_H
#define TOOLS_COLLECT_BOOTS_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "tools/collect/boots.h"

#define BOOTS_CHAINS 8192
#define HELD_OVERHEAD 64 /* bytes a held record costs besides its text: its slot and malloc's header */
#define NO_END UINT64_MAX
#define NOTICES_MAX 64

enum boot_state {
	ST_RECEIVING,  /* in progress */
	ST_ENDED,      /* the end record is written; the main thread has it */
	ST_COMPLETE,
	ST_DAMAGED,
	ST_INCOMPLETE, /* went silent without its end, or was evicted */
	ST_CUT,        /* its log reached limits.log_bytes */
};

struct held {
	uint64_t seq;
	size_t len;
	char *text;
};

struct boot {
	char id[BOOTS_ID_MAX + 1], machine[BOOTS_MACHINE_MAX + 1];
	char file[16];         /* "0003.log"; empty until record 0 arrives */
	int fd;                /* the log while the boot is in progress; -1 */
	uint32_t source;       /* the address it was first heard from */
	int state;
	int ended_kind;        /* EVENT_ENDED or EVENT_CUT, for the ended list */
	bool greeted;          /* said hello: never evicted */
	bool stop_reported;
	uint64_t next_seq;     /* records in the file */
	uint64_t end_seq;      /* the end record's seq, once one arrived; NO_END before */
	off_t bytes;           /* the file's length: a failed write is cut back to it */
	struct held *held;     /* by seq, highest first: the next one is at the end */
	size_t nheld, capheld, held_bytes;
	double last;           /* when a record last arrived */
	struct boot *chain;    /* the next in its hash chain */
	struct boot *prev, *next; /* in the active or the kept list */
	struct boot *ended_next;
};

struct boot_list {
	struct boot *head, *tail;
	size_t n;
};

struct boots {
	pthread_mutex_t lock;
	int dirfd;
	struct boots_limits lim;
	struct boot *chains[BOOTS_CHAINS];
	struct boot_list active, kept; /* kept: finished, oldest first */
	struct boot *ended_head, *ended_tail;
	size_t held_total;
	struct boots_counts counts;
	struct boot_event notices[NOTICES_MAX]; /* evictions, for the main thread's lines */
	unsigned nnotices;
	char error[320];
};


unsigned table_chain(const char *id);
struct boot *table_find(struct boots *b, const char *id);
void table_list_add(struct boot_list *l, struct boot *x);
void table_list_del(struct boot_list *l, struct boot *x);
/* Held records past seq above dropped (they claimed a seq past the end). */
void table_drop_held(struct boots *b, struct boot *x, uint64_t above);
void table_free_held(struct boots *b, struct boot *x);
/* The oldest finished boot, out of the table: a copy of its records that
 * arrives later starts it again, as a boot never seen. */
void table_forget(struct boots *b, struct boot *old);
/* A boot is finished (settled, silent or evicted): out of the active list,
 * into the kept one, its log closed, the oldest kept forgotten past the bound. */
void table_retire(struct boots *b, struct boot *x, int state);
bool table_evict(struct boots *b, const struct boot *keep, bool holding);

/* boots_file.c: the record at next_seq, and the held ones it lets through;
 * a record before its turn held.  Both return a TAKE_ value. */
int table_append(struct boots *b, struct boot *x, const char *text, size_t len);
int table_hold(struct boots *b, struct boot *x, uint64_t seq, const char *text, size_t len);
/* The boot's log is final (kind EVENT_ENDED or EVENT_CUT): queued for the main thread. */
void table_ended(struct boots *b, struct boot *x, int kind);

/* boots_events.c */
void table_event(const struct boot *x, int kind, bool with_fd, struct boot_event *ev);
void table_notice(struct boots *b, const struct boot *x);

#endif
