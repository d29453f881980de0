/* SPDX-License-Identifier: BSD-2-Clause */
/* The per-boot table (boots.h): the boots, and taking a record or a hello. */
#include "tools/collect/boots.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/collect/boots_state.h"
#include "tools/collect/sender.h"
#include "tools/lib/xalloc.h"

/* ---- the table ---------------------------------------------------------------- */

unsigned table_chain(const char *id)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *id; id++)
		h = (h ^ (unsigned char)*id) * 16777619u;
	return h % BOOTS_CHAINS;
}

struct boot *table_find(struct boots *b, const char *id)
{
	struct boot *x = b->chains[table_chain(id)];
	while (x && strcmp(x->id, id))
		x = x->chain;
	return x;
}

void table_list_add(struct boot_list *l, struct boot *x)
{
	x->next = NULL;
	x->prev = l->tail;
	if (l->tail)
		l->tail->next = x;
	else
		l->head = x;
	l->tail = x;
	l->n++;
}

void table_list_del(struct boot_list *l, struct boot *x)
{
	if (x->prev)
		x->prev->next = x->next;
	else
		l->head = x->next;
	if (x->next)
		x->next->prev = x->prev;
	else
		l->tail = x->prev;
	x->prev = x->next = NULL;
	l->n--;
}

void table_drop_held(struct boots *b, struct boot *x, uint64_t above)
{
	while (x->nheld && x->held[0].seq > above) { /* highest first */
		struct held *h = &x->held[0];
		x->held_bytes -= h->len + HELD_OVERHEAD;
		b->held_total -= h->len + HELD_OVERHEAD;
		free(h->text);
		memmove(x->held, x->held + 1, --x->nheld * sizeof *x->held);
	}
}

void table_free_held(struct boots *b, struct boot *x)
{
	for (size_t i = 0; i < x->nheld; i++)
		free(x->held[i].text);
	b->held_total -= x->held_bytes;
	free(x->held);
	x->held = NULL;
	x->nheld = x->capheld = x->held_bytes = 0;
}

/* The oldest finished boot, out of the table: a copy of its records that
 * arrives later starts it again, as a boot never seen. */
void table_forget(struct boots *b, struct boot *old)
{
	struct boot **p = &b->chains[table_chain(old->id)];

	while (*p && *p != old)
		p = &(*p)->chain;
	if (*p)
		*p = old->chain;
	table_list_del(&b->kept, old);
	free(old);
}

/* A boot is finished (settled or silent): out of the active list, into the
 * kept one, the oldest kept forgotten past the bound. */
void table_retire(struct boots *b, struct boot *x, int state)
{
	table_free_held(b, x);
	if (x->fd >= 0)
		close(x->fd);
	x->fd = -1;
	table_list_del(&b->active, x);
	x->state = state;
	table_list_add(&b->kept, x);
	if (b->kept.n > BOOTS_KEPT_MAX) /* one in, one out: it never goes further over */
		table_forget(b, b->kept.head);
}

struct boots *boots_new(int dirfd, const struct boots_limits *lim)
{
	struct boots *b = xrealloc(NULL, sizeof *b);

	memset(b, 0, sizeof *b);
	pthread_mutex_init(&b->lock, NULL);
	b->dirfd = dirfd;
	b->lim = *lim;
	return b;
}

void boots_free(struct boots *b)
{
	for (int pass = 0; pass < 2; pass++) {
		struct boot_list *l = pass ? &b->kept : &b->active;
		while (l->head) {
			struct boot *x = l->head;
			table_free_held(b, x);
			if (x->fd >= 0)
				close(x->fd);
			table_list_del(l, x);
			free(x);
		}
	}
	pthread_mutex_destroy(&b->lock);
	close(b->dirfd);
	free(b);
}

/* ---- taking a record ------------------------------------------------------------------ */

/* A boot that never said hello, heard from least recently, out of the way
 * of a new one, or (holding: among those holding records out of order) of
 * keep's held records: one with no record 0 yet first (it has nothing on
 * disk), then any.  false when there is none. */
bool table_evict(struct boots *b, const struct boot *keep, bool holding)
{
	struct boot *pick = NULL;

	for (struct boot *x = b->active.head; x; x = x->next) {
		if (x == keep || x->greeted || x->state != ST_RECEIVING || (holding && !x->nheld))
			continue;
		if (!pick || (!x->file[0] && pick->file[0]) ||
		    (!x->file[0] == !pick->file[0] && x->last < pick->last))
			pick = x;
	}
	if (!pick)
		return false;
	b->counts.evicted++;
	if (!pick->file[0]) { /* nothing kept of it: forgotten */
		table_free_held(b, pick);
		table_list_del(&b->active, pick);
		table_list_add(&b->kept, pick);
		table_forget(b, pick);
		return true;
	}
	table_notice(b, pick);
	table_retire(b, pick, ST_INCOMPLETE);
	b->counts.incomplete++;
	return true;
}

/* The boots in progress from one address: not those whose end is written
 * and which wait for the main thread's import, however long that takes. */
static unsigned from_source(const struct boots *b, uint32_t source)
{
	unsigned n = 0;

	for (const struct boot *x = b->active.head; x; x = x->next)
		n += x->source == source && x->state == ST_RECEIVING;
	return n;
}

/* Room for one more boot in progress from this sender, made by eviction
 * when the table is full: 0, or why not (TAKE_BUSY, TAKE_SOURCE). */
static int room_for(struct boots *b, const struct sender *s)
{
	if (s->source && from_source(b, s->source) >= b->lim.per_source) {
		b->counts.source_limited++;
		return TAKE_SOURCE;
	}
	if (b->active.n >= BOOTS_ACTIVE_MAX && !table_evict(b, NULL, false))
		return TAKE_BUSY;
	return 0;
}

static struct boot *boot_for(struct boots *b, const struct sender *s)
{
	struct boot *x = xrealloc(NULL, sizeof *x);
	unsigned c = table_chain(s->boot);

	memset(x, 0, sizeof *x);
	memcpy(x->id, s->boot, sizeof x->id);
	memcpy(x->machine, s->machine, sizeof x->machine);
	x->fd = -1;
	x->source = s->source;
	x->end_seq = NO_END;
	x->chain = b->chains[c];
	b->chains[c] = x;
	table_list_add(&b->active, x);
	return x;
}

/* A finished boot: a copy of what it had, or, silent and now heard again,
 * back in progress. */
static int finished(struct boots *b, struct boot *x, const struct sender *s, uint64_t seq)
{
	int rc;

	if (x->state == ST_CUT || (x->state == ST_ENDED && x->ended_kind == EVENT_CUT))
		return TAKE_CUT;
	if (x->state != ST_INCOMPLETE)
		return seq <= x->end_seq ? TAKE_DUPLICATE : TAKE_PAST_END;
	if (seq < x->next_seq)
		return TAKE_DUPLICATE;
	if ((rc = room_for(b, s)))
		return rc;
	table_list_del(&b->kept, x);
	table_list_add(&b->active, x);
	x->state = ST_RECEIVING;
	b->counts.incomplete--;
	return -1;
}

static int take_locked(struct boots *b, const struct sender *s, uint64_t seq, bool is_end, const char *text,
		       size_t len, double now)
{
	struct boot *x = table_find(b, s->boot);
	int rc;

	if (!x) {
		if ((rc = room_for(b, s)))
			return rc;
		x = boot_for(b, s);
	}
	if (strcmp(x->machine, s->machine))
		return TAKE_MIXED;
	if (x->state != ST_RECEIVING && (rc = finished(b, x, s, seq)) >= 0)
		return rc;
	x->last = now;
	x->stop_reported = false;
	if (x->end_seq != NO_END && seq > x->end_seq)
		return TAKE_PAST_END;
	if (seq < x->next_seq)
		return TAKE_DUPLICATE;
	if (is_end && x->end_seq == NO_END) {
		x->end_seq = seq;
		table_drop_held(b, x, seq); /* whatever claimed a seq past the end */
	}
	if (seq > x->next_seq)
		return table_hold(b, x, seq, text, len);
	return table_append(b, x, text, len);
}

int boots_take(struct boots *b, const struct sender *s, uint64_t seq, bool is_end, const char *text, size_t len,
	       double now)
{
	int rc;

	pthread_mutex_lock(&b->lock);
	rc = take_locked(b, s, seq, is_end, text, len, now);
	if (rc == TAKE_HELD)
		b->counts.held++;
	else if (rc == TAKE_DUPLICATE)
		b->counts.duplicates++;
	else if (rc == TAKE_BUSY)
		b->counts.busy++;
	pthread_mutex_unlock(&b->lock);
	return rc;
}

bool boots_hello(struct boots *b, const struct sender *s, double now)
{
	struct boot *x;
	bool room = true;

	pthread_mutex_lock(&b->lock);
	x = table_find(b, s->boot);
	if (x && strcmp(x->machine, s->machine)) {
		room = false;
	} else if (!x) {
		room = room_for(b, s) == 0;
		if (room) {
			x = boot_for(b, s);
			x->last = now;
		}
	}
	if (room && x->state == ST_RECEIVING)
		x->greeted = true;
	pthread_mutex_unlock(&b->lock);
	return room;
}

void boots_error(struct boots *b, char *why, size_t cap)
{
	pthread_mutex_lock(&b->lock);
	snprintf(why, cap, "%s", b->error);
	pthread_mutex_unlock(&b->lock);
}

