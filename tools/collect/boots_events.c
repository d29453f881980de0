/* SPDX-License-Identifier: BSD-2-Clause */
/* The main thread's side of the per-boot table (boots.h): events, and what
 * it made of them. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tools/collect/boots_state.h"

/* ---- the main thread's side ------------------------------------------------------------- */

void table_event(const struct boot *x, int kind, bool with_fd, struct boot_event *ev)
{
	memset(ev, 0, sizeof *ev);
	ev->kind = kind;
	memcpy(ev->machine, x->machine, sizeof ev->machine);
	memcpy(ev->boot, x->id, sizeof ev->boot);
	snprintf(ev->file, sizeof ev->file, "%s", x->file[0] ? x->file : "-");
	ev->fd = with_fd && x->fd >= 0 ? fcntl(x->fd, F_DUPFD_CLOEXEC, 0) : -1;
	/* The copy shares the writer's offset, which O_APPEND ignores: from the start. */
	if (ev->fd >= 0)
		lseek(ev->fd, 0, SEEK_SET);
	ev->records = x->next_seq;
	ev->bytes = (uint64_t)x->bytes;
	ev->held = x->nheld;
}

/* An eviction's line for the main thread: the last NOTICES_MAX are kept,
 * older ones only counted (the summary has them). */
void table_notice(struct boots *b, const struct boot *x)
{
	if (b->nnotices < NOTICES_MAX)
		table_event(x, EVENT_EVICTED, false, &b->notices[b->nnotices++]);
}

bool boots_next_event(struct boots *b, double now, bool stopping, struct boot_event *ev)
{
	struct boot *x;
	bool found = false;

	pthread_mutex_lock(&b->lock);
	if (b->nnotices) {
		*ev = b->notices[0];
		memmove(b->notices, b->notices + 1, --b->nnotices * sizeof *b->notices);
		found = true;
	} else if ((x = b->ended_head)) {
		b->ended_head = x->ended_next;
		if (!b->ended_head)
			b->ended_tail = NULL;
		table_event(x, x->ended_kind, true, ev);
		found = true;
	}
	for (x = b->active.head; !found && x; x = x->next) {
		if (x->state != ST_RECEIVING)
			continue;
		if (stopping && !x->stop_reported) {
			x->stop_reported = true;
			table_event(x, EVENT_STOPPED, false, ev);
			found = true;
		} else if (!stopping && now - x->last >= b->lim.incomplete_after) {
			table_event(x, EVENT_SILENT, false, ev);
			table_retire(b, x, ST_INCOMPLETE);
			b->counts.incomplete++;
			found = true;
		}
	}
	pthread_mutex_unlock(&b->lock);
	return found;
}

void boots_settle(struct boots *b, const char *boot, bool complete)
{
	struct boot *x;

	pthread_mutex_lock(&b->lock);
	x = table_find(b, boot);
	if (x && x->state == ST_ENDED && x->ended_kind == EVENT_CUT) {
		table_retire(b, x, ST_CUT);
		b->counts.cut++;
	} else if (x && x->state == ST_ENDED) {
		table_retire(b, x, complete ? ST_COMPLETE : ST_DAMAGED);
		if (complete)
			b->counts.complete++;
		else
			b->counts.damaged++;
	}
	pthread_mutex_unlock(&b->lock);
}

void boots_counts(struct boots *b, struct boots_counts *c)
{
	pthread_mutex_lock(&b->lock);
	*c = b->counts;
	c->active = (unsigned)b->active.n;
	pthread_mutex_unlock(&b->lock);
}

