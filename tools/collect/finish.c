/* SPDX-License-Identifier: BSD-2-Clause */
/* A finished log checked and imported (finish.h). */
#include "tools/collect/finish.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/lib/exit_codes.h"
#include "tools/lib/xalloc.h"
#include "tools/lib/db_import.h"
#include "tools/lib/db_store.h"
#include "tools/lib/logset.h"

struct finisher {
	bool has_store;
	struct store s;
	struct importer *im;
	const char *dir;
	uint64_t log_bytes; /* the per-boot limit, for the line of a log cut there */
};

struct finisher *finisher_open(const char *dir, const char *db, uint64_t log_bytes, char *why, size_t cap)
{
	struct finisher *f = xrealloc(NULL, sizeof *f);
	/* One run a transaction: a log is in the store as soon as its line says so. */
	struct import_options o = { .machine_from_dir = true, .batch = 1, .quiet = true };

	memset(f, 0, sizeof *f);
	f->dir = dir;
	f->log_bytes = log_bytes;
	if (!db)
		return f;
	if (store_open_private(&f->s, db, why, cap) != EXIT_CLEAN) {
		free(f);
		return NULL;
	}
	f->has_store = true;
	if (!(f->im = importer_new(&f->s, &o))) {
		snprintf(why, cap, "out of memory");
		store_close(&f->s);
		free(f);
		return NULL;
	}
	return f;
}

void finisher_close(struct finisher *f)
{
	if (!f)
		return;
	if (f->has_store) {
		importer_free(f->im);
		store_close(&f->s);
	}
	free(f);
}

/* ", imported", ", already in the store" or why not. */
static void import_words(int rc, const struct import_totals *t, const char *why, char *out, size_t cap)
{
	if (rc == EXIT_UNREADABLE)
		snprintf(out, cap, ", not imported: %s", why[0] ? why : "the store failed");
	else if (t->runs_new)
		snprintf(out, cap, ", imported");
	else if (t->duplicates)
		snprintf(out, cap, ", already in the store");
	else
		snprintf(out, cap, ", not imported (no machine record)");
}

/* The log read from its descriptor, a piece at a time: checked and, with a
 * store, imported in the same two passes (tools/lib/db_import.h). */
static void check_and_import(struct finisher *f, const struct boot_event *ev, const char *name,
			     struct logfile *lf, char *tail, size_t cap)
{
	static const char *const heads[] = { "begin", "end", NULL };
	struct import_totals t = { 0 };
	char why[512] = "";
	int rc;

	if (!f->has_store) {
		logfile_stream(lf, ev->fd, name, heads, NULL, NULL);
		return;
	}
	rc = importer_stream(f->im, ev->fd, name, lf, &t, why, sizeof why);
	if (rc != EXIT_UNREADABLE && !importer_finish(f->im, why, sizeof why))
		rc = EXIT_UNREADABLE;
	if (lf->status != EXIT_UNREADABLE)
		import_words(rc, &t, why, tail, cap);
}

static bool ended(struct finisher *f, const struct boot_event *ev, char *line, size_t cap)
{
	struct logfile lf;
	const struct lrun *r;
	char state[300], tail[600] = "", name[512];
	bool complete;

	snprintf(name, sizeof name, "%s/%s/%s", f->dir, ev->machine, ev->file);
	check_and_import(f, ev, name, &lf, tail, sizeof tail);
	r = lf.nruns == 1 ? &lf.runs[0] : NULL;
	complete = ev->kind == EVENT_ENDED && lf.status == EXIT_CLEAN && r && r->info.has_begin &&
		   r->info.has_end && r->info.end_ok && !lrun_damaged(r);
	if (lf.status == EXIT_UNREADABLE)
		snprintf(state, sizeof state, "unreadable: %s", lf.why);
	else if (!r)
		snprintf(state, sizeof state, "damaged (%zu runs in one boot)", lf.nruns);
	else
		lrun_state(r, state, sizeof state);
	if (ev->kind == EVENT_CUT)
		snprintf(line, cap, "%s %s: cut at the %llu-byte limit (--max-log-bytes), %llu records, %s%s",
			 ev->machine, ev->file, (unsigned long long)f->log_bytes, (unsigned long long)ev->records,
			 state, tail);
	else
		snprintf(line, cap, "%s %s: %s, %llu records%s", ev->machine, ev->file, complete ? "complete" : state,
			 (unsigned long long)ev->records, tail);
	logfile_free(&lf);
	return complete;
}

/* The event's line; for an EVENT_ENDED boot, true when the log is complete. */
static bool take(struct finisher *f, const struct boot_event *ev, double incomplete_after, char *line, size_t cap)
{
	char held[64] = "";

	if (ev->kind == EVENT_ENDED || ev->kind == EVENT_CUT)
		return ended(f, ev, line, cap);
	if (ev->kind == EVENT_EVICTED) {
		snprintf(line, cap, "%s %s: evicted to make room for a boot that said hello (this one never did), "
			 "%llu records kept%s; its next record brings it back", ev->machine, ev->file,
			 (unsigned long long)ev->records, ev->held ? ", the ones held out of order dropped" : "");
		return false;
	}
	if (ev->held)
		snprintf(held, sizeof held, ", %llu more held waiting for seq %llu", (unsigned long long)ev->held,
			 (unsigned long long)ev->records);
	if (ev->kind == EVENT_SILENT && incomplete_after >= 60 && (long)incomplete_after % 60 == 0)
		snprintf(line, cap, "%s %s: incomplete (no end after %.0f min), %llu records%s", ev->machine, ev->file,
			 incomplete_after / 60, (unsigned long long)ev->records, held);
	else if (ev->kind == EVENT_SILENT)
		snprintf(line, cap, "%s %s: incomplete (no end after %.0f s), %llu records%s", ev->machine, ev->file,
			 incomplete_after, (unsigned long long)ev->records, held);
	else
		snprintf(line, cap, "%s %s: in progress when the collector stopped, %llu records kept%s", ev->machine,
			 ev->file, (unsigned long long)ev->records, held);
	return false;
}

bool finisher_next(struct finisher *f, struct boots *b, double now, bool stopping, double incomplete_after,
		   char *line, size_t cap)
{
	struct boot_event ev;
	bool complete;

	if (!boots_next_event(b, now, stopping, &ev))
		return false;
	complete = take(f, &ev, incomplete_after, line, cap);
	if (ev.kind == EVENT_ENDED || ev.kind == EVENT_CUT)
		boots_settle(b, ev.boot, complete);
	if (ev.fd >= 0)
		close(ev.fd);
	return true;
}
