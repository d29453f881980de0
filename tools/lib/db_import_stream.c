/* SPDX-License-Identifier: BSD-2-Clause */
/* A log imported from a descriptor in two passes (db_import.h,
 * importer_stream): the first reads each run's identity (its head records,
 * the CRC of its records, its verdict), the second writes each record to the
 * store as it is read and deflates the run's text into a temporary file,
 * which then goes into the run's row through SQLite's incremental blob
 * writes.  Nothing held grows with the log's length. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/crc32.h"
#include "tools/lib/exit_codes.h"
#include "tools/lib/xalloc.h"
#include "tools/lib/db_import_run.h"
#include "tools/lib/textsafe.h"

#define BLOB_CHUNK (64u * 1024u)

/* The records import_run_row and the verdicts read: the first of each. */
static const char *const head_types[] = { "begin", "machine", "acpi", "tsc", "end", NULL };

struct run_crcs {
	uint32_t *crc; /* by run, in the file's order */
	size_t n;
};

static void crc_each(void *ctx, struct lrun *r, const struct lrec *rec)
{
	struct run_crcs *c = ctx;
	size_t i = r->info.index ? r->info.index - 1 : 0;

	if (i >= c->n) {
		c->crc = xrealloc(c->crc, (i + 1) * sizeof *c->crc);
		memset(c->crc + c->n, 0, (i + 1 - c->n) * sizeof *c->crc);
		c->n = i + 1;
	}
	c->crc[i] = crc32_update(c->crc[i], rec->text, rec->len);
}

/* The second pass: the run being written and its deflated text. */
struct writer {
	struct importer *im;
	const struct logfile *heads; /* the first pass's */
	const struct run_crcs *crcs;
	const char *machine;
	struct import_totals *tot;
	uint32_t run_index;          /* the run being read (1, 2, …), 0 before the first */
	sqlite3_int64 run;           /* its row; 0: not written (known already, or skipped) */
	z_stream z;
	FILE *zf;                    /* the deflated text; NULL: the run keeps none */
	uint64_t text_bytes;
	int status;
	bool failed;                 /* a store error, or the file changed: the rest is read, not written */
	bool changed;                /* the second pass found more runs than the first */
	unsigned char out[BLOB_CHUNK]; /* deflate's output, on its way to zf */
	char *why;
	size_t cap;
};

static void text_drop(struct writer *w)
{
	if (w->zf) {
		deflateEnd(&w->z);
		fclose(w->zf);
		w->zf = NULL;
	}
}

/* Deflates n bytes (flush: Z_FINISH at the run's end) into the file. */
static void text_add(struct writer *w, const void *s, size_t n, int flush)
{
	int rc;

	if (!w->zf)
		return;
	w->z.next_in = (Bytef *)s;
	w->z.avail_in = (uInt)n;
	do {
		w->z.next_out = w->out;
		w->z.avail_out = sizeof w->out;
		rc = deflate(&w->z, flush);
		if (rc == Z_STREAM_ERROR || fwrite(w->out, 1, sizeof w->out - w->z.avail_out, w->zf) !=
						    sizeof w->out - w->z.avail_out) {
			text_drop(w); /* the run is stored without its text, as when deflate fails in db_import.c */
			return;
		}
	} while (w->z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
}

/* The deflated text into the run's row: a zeroblob of its size, then
 * written a chunk at a time. */
static bool text_store(struct writer *w)
{
	sqlite3 *db = w->im->s->db;
	char buf[BLOB_CHUNK];
	sqlite3_stmt *st;
	sqlite3_blob *b = NULL;
	long size;
	int off = 0, rc;
	size_t got;

	text_add(w, "", 0, Z_FINISH);
	if (!w->zf)
		return true;
	size = ftell(w->zf);
	deflateEnd(&w->z);
	st = store_prepare(w->im->s, "UPDATE runs SET log=zeroblob(?), log_bytes=? WHERE id=?");
	sqlite3_bind_int64(st, 1, size);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)w->text_bytes);
	sqlite3_bind_int64(st, 3, w->run);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		rc = sqlite3_blob_open(db, "main", "runs", "log", w->run, 1, &b);
	rewind(w->zf);
	while (rc == SQLITE_OK && (got = fread(buf, 1, sizeof buf, w->zf)) > 0) {
		rc = sqlite3_blob_write(b, buf, (int)got, off);
		off += (int)got;
	}
	sqlite3_blob_close(b);
	fclose(w->zf);
	w->zf = NULL;
	if (rc == SQLITE_OK || rc == SQLITE_DONE)
		return true;
	snprintf(w->why, w->cap, "%s: %s", w->im->s->path, sqlite3_errmsg(db));
	return false;
}

static void fail(struct writer *w)
{
	text_drop(w);
	w->failed = true;
	w->run = 0;
	w->status = EXIT_UNREADABLE;
}

/* The run read so far is whole: its text stored, its transaction counted. */
static void run_close(struct writer *w)
{
	if (w->failed || !w->run)
		return;
	if (!text_store(w)) {
		fail(w);
		return;
	}
	w->run = 0;
	if (++w->im->pending >= w->im->o.batch && !importer_finish(w->im, w->why, w->cap))
		fail(w);
}

static void run_open(struct writer *w, uint32_t index)
{
	const struct lrun *r;
	int rc;

	w->run_index = index;
	if (w->failed)
		return;
	if (index > w->heads->nruns || index > w->crcs->n) {
		w->changed = true;
		fail(w);
		return;
	}
	r = &w->heads->runs[index - 1];
	if (!import_open(w->im, w->why, w->cap)) {
		fail(w);
		return;
	}
	rc = import_run_row(w->im, r, w->machine, w->crcs->crc[index - 1], NULL, &w->run, w->tot, w->why, w->cap);
	w->status = exit_worse(w->status, rc);
	if (rc == EXIT_UNREADABLE) {
		fail(w);
		return;
	}
	if (w->run && lrun_damaged(r))
		w->status = exit_worse(w->status, EXIT_DAMAGED);
	w->text_bytes = 0;
	memset(&w->z, 0, sizeof w->z);
	w->zf = w->run ? tmpfile() : NULL;
	/* Level 1, as db_import.c's whole-run deflate. */
	if (w->zf && deflateInit(&w->z, 1) != Z_OK) {
		fclose(w->zf);
		w->zf = NULL;
	}
}

static void put_each(void *ctx, struct lrun *r, const struct lrec *rec)
{
	struct writer *w = ctx;

	if (r->info.index != w->run_index) {
		run_close(w);
		run_open(w, r->info.index);
	}
	if (w->failed || !w->run)
		return;
	if (!record_put(&w->im->records, w->run, rec, w->why, w->cap)) {
		fail(w);
		return;
	}
	text_add(w, rec->text, rec->len, Z_NO_FLUSH);
	text_add(w, "\n", 1, Z_NO_FLUSH);
	w->text_bytes += rec->len + 1;
}

/* The second pass read what the first did: the same runs, as many records. */
static bool same_file(const struct logfile *a, const struct logfile *b)
{
	if (a->nruns != b->nruns || a->records != b->records)
		return false;
	for (size_t i = 0; i < a->nruns; i++)
		if (a->runs[i].seen != b->runs[i].seen)
			return false;
	return true;
}

/* What went wrong with the file itself, not the store: the file's verdict,
 * said as the first pass's problems are. */
static int file_failed(struct importer *im, struct logfile *f, const char *path, const char *what)
{
	f->status = EXIT_UNREADABLE;
	snprintf(f->why, sizeof f->why, "%s", what);
	if (!im->o.quiet) { /* a path is shown escaped, as every text from outside */
		fputs("tickprobe db: ", stderr);
		ts_puts(stderr, path);
		fprintf(stderr, ": %s\n", what);
	}
	return EXIT_UNREADABLE;
}

int importer_stream(struct importer *im, int fd, const char *name, struct logfile *f, struct import_totals *tot,
		    char *why, size_t cap)
{
	struct run_crcs crcs = { NULL, 0 };
	struct writer w = { .im = im, .heads = f, .crcs = &crcs, .tot = tot, .why = why, .cap = cap };
	struct logfile again;
	char *dir = NULL;

	tot->files++;
	logfile_stream(f, fd, name, head_types, crc_each, &crcs);
	if (!im->o.quiet)
		logfile_report(f, stderr, "tickprobe db");
	if (f->status == EXIT_UNREADABLE || lseek(fd, 0, SEEK_SET) < 0) {
		free(crcs.crc);
		return f->status == EXIT_UNREADABLE ? EXIT_UNREADABLE : file_failed(im, f, name, "cannot read it again");
	}
	/* Its runs are a transaction apart from other files': a file that
	 * changes while it is read takes back only its own. */
	if (im->pending && !importer_finish(im, why, cap)) {
		free(crcs.crc);
		return EXIT_UNREADABLE;
	}
	if (im->o.machine_from_dir)
		dir = import_dir_name(name);
	w.machine = im->o.machine ? im->o.machine : dir;
	w.status = f->status;
	logfile_stream(&again, fd, name, NULL, put_each, &w);
	run_close(&w);
	if (!w.failed && !same_file(f, &again)) {
		w.changed = true;
		fail(&w);
	}
	if (w.failed && im->open) {
		store_rollback(im->s);
		im->open = false;
		im->pending = 0;
	}
	if (w.changed)
		w.status = file_failed(im, f, name, "changed while it was imported: its runs not yet committed are not kept");
	logfile_free(&again);
	free(dir);
	free(crcs.crc);
	return w.status;
}

bool importer_streams(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > IMPORT_LOAD_MAX;
}

int importer_file(struct importer *im, const char *path, struct import_totals *tot, char *why, size_t cap)
{
	struct logfile f;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0) {
		memset(&f, 0, sizeof f);
		tot->files++;
		return file_failed(im, &f, path, strerror(errno));
	}
	rc = importer_stream(im, fd, path, &f, tot, why, cap);
	logfile_free(&f);
	close(fd);
	return rc;
}
