/* SPDX-License-Identifier: BSD-2-Clause */
/* The log reader (format: docs/log-format.md): picks the records out of a
 * serial capture, checks every one, and splits the capture into runs.
 *
 * Plain C, no allocation: the caller hands in every buffer (the line buffer,
 * the JSON node pool and the decoded-string buffer), and gets the results
 * through callbacks, so that the commands, the tests and the fuzzer share one
 * reader whatever they keep of a capture.
 *
 * What it checks, per line:
 *   - CR at the end and ANSI escape sequences anywhere are removed;
 *   - a line whose first character is not `{` is human text and skipped;
 *   - a record's "crc" must match the CRC-32 of its bytes before `,"crc":"`;
 *     a damaged record is reported and never passed on;
 *   - "type" first, "seq" second; seq counts up from 0 in each run;
 * and per run: the `end` record's "records" and "crc32" must agree with the
 * records that arrived.  A `begin` starts a new run; a run without `end` was
 * cut short.
 *
 * Schemas 1 and 2 are both read (a larger one stops the reader).  They differ
 * in two members, which readers take through one decoder each, never by hand:
 * a `hist` through tools/lib/hist_decode.h, a `rounds` through lr_rounds below. */
#ifndef TOOLS_LIB_LOGREAD_H
#define TOOLS_LIB_LOGREAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "tools/lib/json_parse.h" /* lr_node, lr_parse, lr_get…: the records' JSON */
#include "probe/hist_codec.h" /* a record's `hist`, in either schema */

#define LR_LINE_MAX (1024u * 1024u) /* longer lines are rejected: records are <= 96 KiB */
#define LR_SEQ_TRACK 65536u         /* seqs remembered per run for duplicate detection */

/* ---- lines ---------------------------------------------------------------- */

/* Removes ANSI escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL`,
 * `ESC = 3h`-style private sequences, two-byte `ESC x`, a lone ESC) and trailing
 * CRs, in place.  Returns the new length. */
size_t lr_clean_line(char *s, size_t n);

/* ---- one record's own check ------------------------------------------------ */

/* A record line's `crc` member (the last, ",\"crc\":\"xxxxxxxx\"}") against the
 * CRC-32 of the bytes before it: the reader's own test, for a caller that
 * takes records one at a time (tools/collect/record.c).  *stored and
 * *computed are set when the tail is there. */
enum lr_crc_verdict {
	LR_CRC_GOOD,
	LR_CRC_MISSING, /* no well-formed crc member at the end: cut or damaged */
	LR_CRC_BAD,     /* the member is there and disagrees */
};
int lr_record_crc(const char *s, size_t n, uint32_t *stored, uint32_t *computed);

/* ---- the reader ----------------------------------------------------------- */

enum lr_severity {
	LR_NOTE,   /* worth saying, nothing lost (e.g. an over-long text line) */
	LR_DAMAGE, /* a record was excluded, or the run does not check out */
	LR_FATAL,  /* cannot go on (newer schema) */
};

struct lr_run {
	uint32_t index;          /* 1, 2, … in the order the runs appear */
	uint32_t first_line, last_line;
	bool has_begin, has_end;
	bool end_ok;             /* end's records and crc32 agree with what arrived */
	bool newer_schema;
	bool damaged;            /* any LR_DAMAGE problem, missing begin/end, end mismatch */
	uint64_t schema;
	uint64_t good;           /* records passed on (end included) */
	uint64_t excluded;       /* record lines rejected */
	uint64_t end_records;    /* the end record's claims */
	uint32_t end_crc32, seen_crc32;
	char status[16];         /* the end record's status */
};

struct lr_sink {
	void *ctx;
	void (*run_begin)(void *ctx, const struct lr_run *run);
	/* A good record: text is the cleaned line (no CR, no "\n"), root its parse;
	 * both are valid only during the call. */
	void (*record)(void *ctx, const struct lr_run *run, uint32_t line, const char *text,
		       size_t len, const struct lr_node *root);
	/* run is NULL outside any run; line is 0 for the whole run. */
	void (*problem)(void *ctx, const struct lr_run *run, uint32_t line, int severity,
			const char *msg);
	void (*run_end)(void *ctx, const struct lr_run *run);
};

struct logread {
	struct lr_sink sink;
	char *buf;
	size_t cap, len;
	uint64_t overlong;       /* bytes of the current line past cap (0: fits) */
	uint32_t line;           /* lines seen */
	struct lr_doc doc;
	bool in_run, stopped, after_end;
	struct lr_run run;
	uint64_t next_seq;
	uint32_t crc_run;
	uint64_t counted;        /* records counted towards the end check */
	uint32_t last_end_crc;   /* the previous run's end line, to spot its duplicate */
	uint64_t last_end_seq;
	uint32_t last_end_line;
	uint32_t runs;
	uint64_t records;        /* good records, all runs */
	uint8_t seen[LR_SEQ_TRACK / 8];
	char msg[200];
};

/* buf: at least LR_LINE_MAX + 1 bytes to accept every legal line; nodes and
 * strs bound the records that can be parsed (a record needing more is rejected). */
void lr_init(struct logread *r, char *buf, size_t cap, struct lr_node *nodes, size_t ncap,
	     char *strs, size_t scap, const struct lr_sink *sink);
void lr_feed(struct logread *r, const void *data, size_t n);
/* End of input: the last line (even without "\n") is taken, an open run closed. */
void lr_finish(struct logread *r);

/* ---- a timer's `rounds`, in either schema ---------------------------------- */

/* Schema 1: [{"p50":…,"mean":…}, …] (a bare number is taken as the value);
 * schema 2: {"p50":[…],"mean":[…]}.  lr_rounds_next gives each round's node
 * for the metric in order, NULL for a round that lacks it, and returns false
 * after the last round. */
struct lr_rounds {
	const struct lr_node *item;
	const char *metric;
	bool columns;
};

void lr_rounds_init(struct lr_rounds *it, const struct lr_node *rounds, const char *metric);
bool lr_rounds_next(struct lr_rounds *it, const struct lr_node **value);
size_t lr_rounds_count(const struct lr_node *rounds, const char *metric); /* rounds, 0 when none */

#endif
