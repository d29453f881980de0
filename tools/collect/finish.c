/* SPDX-License-Identifier: BSD-2-Clause */
/* A finished log checked and imported (finish.h). */
#include "tools/collect/finish.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/common/exit_codes.h"
#include "tools/common/xalloc.h"
#include "tools/db/import.h"
#include "tools/db/store.h"
#include "tools/log/logset.h"

struct finisher {
	bool has_store;
	struct store s;
	struct importer *im;
};

struct finisher *finisher_open(const char *db, char *why, size_t cap)
{
	struct finisher *f = xrealloc(NULL, sizeof *f);
	/* One run a transaction: a log is in the store as soon as its line says so. */
	struct import_options o = { .machine_from_dir = true, .batch = 1, .quiet = true };

	memset(f, 0, sizeof *f);
	if (!db)
		return f;
	if (store_open(&f->s, db, true, why, cap) != EXIT_CLEAN) {
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
static void import(struct finisher *f, const struct logfile *lf, char *out, size_t cap)
{
	struct import_totals t = { 0 };
	char why[512] = "";
	int rc = importer_logfile(f->im, lf, NULL, &t, why, sizeof why);

	if (rc == EXIT_UNREADABLE || !importer_finish(f->im, why, sizeof why))
		snprintf(out, cap, ", not imported: %s", why[0] ? why : "the store failed");
	else if (t.runs_new)
		snprintf(out, cap, ", imported");
	else if (t.duplicates)
		snprintf(out, cap, ", already in the store");
	else
		snprintf(out, cap, ", not imported (no machine record)");
}

static bool ended(struct finisher *f, const struct boot_event *ev, char *line, size_t cap)
{
	struct logfile lf;
	const struct lrun *r;
	char state[300], tail[600] = "";
	bool complete;

	logfile_load(&lf, ev->path);
	r = lf.nruns == 1 ? &lf.runs[0] : NULL;
	complete = lf.status == EXIT_CLEAN && r && r->info.has_begin && r->info.has_end && r->info.end_ok &&
		   !lrun_damaged(r);
	if (lf.status == EXIT_UNREADABLE)
		snprintf(state, sizeof state, "unreadable: %s", lf.why);
	else if (!r)
		snprintf(state, sizeof state, "damaged (%zu runs in one boot)", lf.nruns);
	else
		lrun_state(r, state, sizeof state);
	if (f->has_store && lf.status != EXIT_UNREADABLE)
		import(f, &lf, tail, sizeof tail);
	snprintf(line, cap, "%s %s: %s, %llu records%s", ev->machine, ev->file, complete ? "complete" : state,
		 (unsigned long long)ev->records, tail);
	logfile_free(&lf);
	return complete;
}

bool finisher_take(struct finisher *f, const struct boot_event *ev, double incomplete_after, char *line, size_t cap)
{
	char held[64] = "";

	if (ev->kind == EVENT_ENDED)
		return ended(f, ev, line, cap);
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
