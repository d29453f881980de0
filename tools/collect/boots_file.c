/* SPDX-License-Identifier: BSD-2-Clause */
/* A boot's log file and the records held out of order (boots_state.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include "tools/collect/boots_state.h"
#include "tools/collect/spool.h"
#include "tools/lib/xalloc.h"

/* ---- the file ---------------------------------------------------------------------- */

/* The boot's log open for appending: a new one at record 0, the old one
 * again for a boot heard from after it went silent. */
static bool open_log(struct boots *b, struct boot *x)
{
	int mfd;

	if (x->fd >= 0)
		return true;
	if (x->file[0]) {
		x->fd = spool_reopen(b->dirfd, x->machine, x->file, b->error, sizeof b->error);
		return x->fd >= 0;
	}
	mfd = spool_machine(b->dirfd, x->machine, true, b->error, sizeof b->error);
	if (mfd < 0)
		return false;
	x->fd = spool_new_log(mfd, x->file, sizeof x->file, b->error, sizeof b->error);
	close(mfd);
	if (x->fd < 0)
		x->file[0] = 0;
	x->bytes = 0;
	return x->fd >= 0;
}

/* One record and its line end at the file's end; a short write is cut back,
 * so the file never holds half a record. */
static bool write_record(struct boots *b, struct boot *x, const char *text, size_t len)
{
	struct iovec v[2] = { { (void *)text, len }, { (void *)"\n", 1 } };
	ssize_t w = writev(x->fd, v, 2);

	if (w == (ssize_t)len + 1) {
		x->bytes += w;
		return true;
	}
	snprintf(b->error, sizeof b->error, "%s/%s: %s", x->machine, x->file,
		 w < 0 ? strerror(errno) : "short write (disk full?)");
	if (w > 0 && ftruncate(x->fd, x->bytes))
		snprintf(b->error, sizeof b->error, "%s/%s: a record was cut short and could not be taken back: %s",
			 x->machine, x->file, strerror(errno));
	return false;
}

void table_ended(struct boots *b, struct boot *x, int kind)
{
	x->state = ST_ENDED;
	x->ended_kind = kind;
	x->ended_next = NULL;
	if (b->ended_tail)
		b->ended_tail->ended_next = x;
	else
		b->ended_head = x;
	b->ended_tail = x;
}

/* Whether the record fits under the boot's size limit; if not, the boot's
 * log is final as it is. */
static bool fits(struct boots *b, struct boot *x, size_t len)
{
	if ((uint64_t)x->bytes + len + 1 <= b->lim.log_bytes)
		return true;
	table_ended(b, x, EVENT_CUT);
	return false;
}

/* The record at next_seq, then every held one it lets through. */
int table_append(struct boots *b, struct boot *x, const char *text, size_t len)
{
	bool ok;

	if (!open_log(b, x))
		return TAKE_FAILED;
	if (!fits(b, x, len))
		return TAKE_CUT;
	ok = write_record(b, x, text, len);
	if (ok) {
		x->next_seq++;
		b->counts.stored++;
	}
	while (ok && x->nheld && x->held[x->nheld - 1].seq == x->next_seq) {
		struct held *h = &x->held[x->nheld - 1];
		if (!fits(b, x, h->len))
			return TAKE_STORED;
		ok = write_record(b, x, h->text, h->len);
		if (!ok)
			break;
		x->next_seq++;
		b->counts.stored++;
		x->held_bytes -= h->len + HELD_OVERHEAD;
		b->held_total -= h->len + HELD_OVERHEAD;
		free(h->text);
		x->nheld--;
	}
	if (x->end_seq != NO_END && x->next_seq == x->end_seq + 1)
		table_ended(b, x, EVENT_ENDED);
	return ok ? TAKE_STORED : TAKE_FAILED;
}

/* Held until the gap before it fills: a duplicate is dropped, a bound refuses. */
int table_hold(struct boots *b, struct boot *x, uint64_t seq, const char *text, size_t len)
{
	size_t lo = 0, hi = x->nheld, cost = len + HELD_OVERHEAD;

	while (lo < hi) { /* descending: the first slot whose seq is below this one */
		size_t mid = (lo + hi) / 2;
		if (x->held[mid].seq > seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < x->nheld && x->held[lo].seq == seq)
		return TAKE_DUPLICATE;
	if (x->held_bytes + cost > BOOTS_HELD_BOOT)
		return TAKE_BUSY;
	/* The bound over all boots: held records of boots that never said
	 * hello make room first. */
	while (b->held_total + cost > BOOTS_HELD_TOTAL)
		if (!table_evict(b, x, true))
			return TAKE_BUSY;
	if (x->nheld == x->capheld) {
		x->capheld = x->capheld ? 2 * x->capheld : 16;
		x->held = xrealloc(x->held, x->capheld * sizeof *x->held);
	}
	memmove(x->held + lo + 1, x->held + lo, (x->nheld - lo) * sizeof *x->held);
	x->held[lo] = (struct held){ seq, len, xrealloc(NULL, len) };
	memcpy(x->held[lo].text, text, len);
	x->nheld++;
	x->held_bytes += cost;
	b->held_total += cost;
	return TAKE_HELD;
}

