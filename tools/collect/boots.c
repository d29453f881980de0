/* SPDX-License-Identifier: BSD-2-Clause */
/* The per-boot table (boots.h). */
#include "tools/collect/boots.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "tools/common/xalloc.h"

#define BOOTS_CHAINS 8192
#define HELD_OVERHEAD 64 /* bytes a held record costs besides its text: its slot and malloc's header */
#define NO_END UINT64_MAX

enum boot_state {
	ST_RECEIVING,  /* in progress */
	ST_ENDED,      /* the end record is written; the main thread has it */
	ST_COMPLETE,
	ST_DAMAGED,
	ST_INCOMPLETE, /* went silent without its end */
};

struct held {
	uint64_t seq;
	size_t len;
	char *text;
};

struct boot {
	char id[BOOTS_ID_MAX + 1], machine[BOOTS_MACHINE_MAX + 1];
	char *path;            /* NULL until record 0 arrives */
	int state;
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
	char *dir;
	double incomplete_after;
	struct boot *chains[BOOTS_CHAINS];
	struct boot_list active, kept; /* kept: finished, oldest first */
	struct boot *ended_head, *ended_tail;
	size_t held_total;
	struct boots_counts counts;
	char error[320];
};

/* ---- the table ---------------------------------------------------------------- */

static unsigned chain_of(const char *id)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *id; id++)
		h = (h ^ (unsigned char)*id) * 16777619u;
	return h % BOOTS_CHAINS;
}

static struct boot *find(struct boots *b, const char *id)
{
	struct boot *x = b->chains[chain_of(id)];
	while (x && strcmp(x->id, id))
		x = x->chain;
	return x;
}

static void list_add(struct boot_list *l, struct boot *x)
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

static void list_del(struct boot_list *l, struct boot *x)
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

static void drop_held(struct boots *b, struct boot *x, uint64_t above)
{
	while (x->nheld && x->held[0].seq > above) { /* highest first */
		struct held *h = &x->held[0];
		x->held_bytes -= h->len + HELD_OVERHEAD;
		b->held_total -= h->len + HELD_OVERHEAD;
		free(h->text);
		memmove(x->held, x->held + 1, --x->nheld * sizeof *x->held);
	}
}

static void free_held(struct boots *b, struct boot *x)
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
static void forget(struct boots *b, struct boot *old)
{
	struct boot **p = &b->chains[chain_of(old->id)];

	while (*p && *p != old)
		p = &(*p)->chain;
	if (*p)
		*p = old->chain;
	list_del(&b->kept, old);
	free(old->path);
	free(old);
}

/* A boot is finished (settled or silent): out of the active list, into the
 * kept one, the oldest kept forgotten past the bound. */
static void retire(struct boots *b, struct boot *x, int state)
{
	free_held(b, x);
	list_del(&b->active, x);
	x->state = state;
	list_add(&b->kept, x);
	if (b->kept.n > BOOTS_KEPT_MAX) /* one in, one out: it never goes further over */
		forget(b, b->kept.head);
}

struct boots *boots_new(const char *dir, double incomplete_after)
{
	struct boots *b = xrealloc(NULL, sizeof *b);

	memset(b, 0, sizeof *b);
	pthread_mutex_init(&b->lock, NULL);
	b->dir = xstrdup(dir);
	b->incomplete_after = incomplete_after;
	return b;
}

void boots_free(struct boots *b)
{
	for (int pass = 0; pass < 2; pass++) {
		struct boot_list *l = pass ? &b->kept : &b->active;
		while (l->head) {
			struct boot *x = l->head;
			free_held(b, x);
			list_del(l, x);
			free(x->path);
			free(x);
		}
	}
	pthread_mutex_destroy(&b->lock);
	free(b->dir);
	free(b);
}

/* ---- the file ---------------------------------------------------------------------- */

/* DIR/MACHINE/NNNN.log, NNNN one past the highest there: O_EXCL, so that a
 * second collector on the same DIR takes the next one. */
static int new_log(struct boots *b, struct boot *x)
{
	size_t cap = strlen(b->dir) + strlen(x->machine) + 32;
	char *path = xrealloc(NULL, cap);
	unsigned next = 0;
	struct dirent *e;
	DIR *d;
	int fd;

	snprintf(path, cap, "%s/%s", b->dir, x->machine);
	if (mkdir(path, 0755) && errno != EEXIST) {
		snprintf(b->error, sizeof b->error, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if ((d = opendir(path))) {
		while ((e = readdir(d))) {
			char *end;
			unsigned long n = strtoul(e->d_name, &end, 10);
			if (end != e->d_name && e->d_name[0] != '-' && !strcmp(end, ".log") && n < 9999999 && n >= next)
				next = (unsigned)n + 1;
		}
		closedir(d);
	}
	for (;; next++) {
		snprintf(path, cap, "%s/%s/%04u.log", b->dir, x->machine, next);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		snprintf(b->error, sizeof b->error, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	x->path = path;
	x->bytes = 0;
	return fd;
}

/* One record and its line end at the file's end; a short write is cut back,
 * so the file never holds half a record. */
static bool write_record(struct boots *b, struct boot *x, int fd, const char *text, size_t len)
{
	struct iovec v[2] = { { (void *)text, len }, { (void *)"\n", 1 } };
	ssize_t w = writev(fd, v, 2);

	if (w == (ssize_t)len + 1) {
		x->bytes += w;
		return true;
	}
	snprintf(b->error, sizeof b->error, "%s: %s", x->path, w < 0 ? strerror(errno) : "short write (disk full?)");
	if (w > 0 && ftruncate(fd, x->bytes))
		snprintf(b->error, sizeof b->error, "%s: a record was cut short and could not be taken back: %s",
			 x->path, strerror(errno));
	return false;
}

static void ended(struct boots *b, struct boot *x)
{
	x->state = ST_ENDED;
	x->ended_next = NULL;
	if (b->ended_tail)
		b->ended_tail->ended_next = x;
	else
		b->ended_head = x;
	b->ended_tail = x;
}

/* The record at next_seq, then every held one it lets through. */
static int append(struct boots *b, struct boot *x, const char *text, size_t len)
{
	int fd = x->path ? open(x->path, O_WRONLY | O_APPEND | O_CLOEXEC) : new_log(b, x);
	bool ok;

	if (fd < 0) {
		if (x->path)
			snprintf(b->error, sizeof b->error, "%s: %s", x->path, strerror(errno));
		return TAKE_FAILED;
	}
	ok = write_record(b, x, fd, text, len);
	if (ok)
		x->next_seq++, b->counts.stored++;
	while (ok && x->nheld && x->held[x->nheld - 1].seq == x->next_seq) {
		struct held *h = &x->held[x->nheld - 1];
		if (!(ok = write_record(b, x, fd, h->text, h->len)))
			break;
		x->next_seq++, b->counts.stored++;
		x->held_bytes -= h->len + HELD_OVERHEAD;
		b->held_total -= h->len + HELD_OVERHEAD;
		free(h->text);
		x->nheld--;
	}
	close(fd);
	if (x->end_seq != NO_END && x->next_seq == x->end_seq + 1)
		ended(b, x);
	return ok ? TAKE_STORED : TAKE_FAILED;
}

/* Held until the gap before it fills: a duplicate is dropped, a bound refuses. */
static int hold(struct boots *b, struct boot *x, uint64_t seq, const char *text, size_t len)
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
	if (x->held_bytes + cost > BOOTS_HELD_BOOT || b->held_total + cost > BOOTS_HELD_TOTAL)
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

/* ---- taking a record ------------------------------------------------------------------ */

static struct boot *boot_for(struct boots *b, const char *machine, const char *id)
{
	struct boot *x;
	unsigned c = chain_of(id);

	if (b->active.n >= BOOTS_ACTIVE_MAX)
		return NULL;
	x = xrealloc(NULL, sizeof *x);
	memset(x, 0, sizeof *x);
	snprintf(x->id, sizeof x->id, "%s", id);
	snprintf(x->machine, sizeof x->machine, "%s", machine);
	x->end_seq = NO_END;
	x->chain = b->chains[c];
	b->chains[c] = x;
	list_add(&b->active, x);
	return x;
}

/* A finished boot: a copy of what it had, or, silent and now heard again,
 * back in progress. */
static int finished(struct boots *b, struct boot *x, uint64_t seq)
{
	if (x->state != ST_INCOMPLETE)
		return seq <= x->end_seq ? TAKE_DUPLICATE : TAKE_PAST_END;
	if (seq < x->next_seq)
		return TAKE_DUPLICATE;
	if (b->active.n >= BOOTS_ACTIVE_MAX)
		return TAKE_BUSY;
	list_del(&b->kept, x);
	list_add(&b->active, x);
	x->state = ST_RECEIVING;
	b->counts.incomplete--;
	return -1;
}

static int take_locked(struct boots *b, const char *machine, const char *id, uint64_t seq, bool is_end,
		       const char *text, size_t len, double now)
{
	struct boot *x = find(b, id);
	int rc;

	if (!x && !(x = boot_for(b, machine, id)))
		return TAKE_BUSY;
	if (strcmp(x->machine, machine))
		return TAKE_MIXED;
	if (x->state != ST_RECEIVING && (rc = finished(b, x, seq)) >= 0)
		return rc;
	x->last = now;
	x->stop_reported = false;
	if (x->end_seq != NO_END && seq > x->end_seq)
		return TAKE_PAST_END;
	if (seq < x->next_seq)
		return TAKE_DUPLICATE;
	if (is_end && x->end_seq == NO_END) {
		x->end_seq = seq;
		drop_held(b, x, seq); /* whatever claimed a seq past the end */
	}
	if (seq > x->next_seq)
		return hold(b, x, seq, text, len);
	return append(b, x, text, len);
}

int boots_take(struct boots *b, const char *machine, const char *boot, uint64_t seq, bool is_end, const char *text,
	       size_t len, double now)
{
	int rc;

	pthread_mutex_lock(&b->lock);
	rc = take_locked(b, machine, boot, seq, is_end, text, len, now);
	if (rc == TAKE_HELD)
		b->counts.held++;
	else if (rc == TAKE_DUPLICATE)
		b->counts.duplicates++;
	else if (rc == TAKE_BUSY)
		b->counts.busy++;
	pthread_mutex_unlock(&b->lock);
	return rc;
}

bool boots_room(struct boots *b, const char *boot)
{
	bool room;

	pthread_mutex_lock(&b->lock);
	room = (boot && find(b, boot)) || b->active.n < BOOTS_ACTIVE_MAX;
	pthread_mutex_unlock(&b->lock);
	return room;
}

void boots_error(struct boots *b, char *why, size_t cap)
{
	pthread_mutex_lock(&b->lock);
	snprintf(why, cap, "%s", b->error);
	pthread_mutex_unlock(&b->lock);
}

/* ---- the main thread's side ------------------------------------------------------------- */

static void event_of(const struct boot *x, int kind, struct boot_event *ev)
{
	const char *slash;

	ev->kind = kind;
	snprintf(ev->machine, sizeof ev->machine, "%s", x->machine);
	snprintf(ev->boot, sizeof ev->boot, "%s", x->id);
	ev->path = xstrdup(x->path);
	slash = ev->path ? strrchr(ev->path, '/') : NULL;
	ev->file = slash ? slash + 1 : "-";
	ev->records = x->next_seq;
	ev->held = x->nheld;
}

bool boots_next_event(struct boots *b, double now, bool stopping, struct boot_event *ev)
{
	struct boot *x;
	bool found = false;

	pthread_mutex_lock(&b->lock);
	if ((x = b->ended_head)) {
		b->ended_head = x->ended_next;
		if (!b->ended_head)
			b->ended_tail = NULL;
		event_of(x, EVENT_ENDED, ev);
		found = true;
	}
	for (x = b->active.head; !found && x; x = x->next) {
		if (x->state != ST_RECEIVING)
			continue;
		if (stopping && !x->stop_reported) {
			x->stop_reported = true;
			event_of(x, EVENT_STOPPED, ev);
			found = true;
		} else if (!stopping && now - x->last >= b->incomplete_after) {
			event_of(x, EVENT_SILENT, ev);
			retire(b, x, ST_INCOMPLETE);
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
	x = find(b, boot);
	if (x && x->state == ST_ENDED) {
		retire(b, x, complete ? ST_COMPLETE : ST_DAMAGED);
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
