/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON-lines log writer (format: docs/log-format.md).
 *
 * Each record is one line: {"type":"…","seq":N, … ,"crc":"xxxxxxxx"}.
 * "crc" is the CRC-32 of the line's bytes before `,"crc":"`, so a reader can
 * tell a damaged record from a good one; the closing `end` record carries the
 * record count and a CRC-32 over every earlier record line (each with its "\n"),
 * so a reader can tell a complete log from a truncated or spliced one. */
#ifndef PROBE_LOG_H
#define PROBE_LOG_H

#include <stddef.h>
#include <stdint.h>
#include "lib/json.h"

#define LOG_SCHEMA 2 /* 2: compact `hist` strings, `rounds` as columns (docs/log-format.md) */
#define LOG_RECORD_MAX (96 * 1024)

struct log {
	void (*sink)(void *ctx, const char *s, size_t n); /* where record lines go */
	void *sink_ctx;
	uint32_t seq;       /* records written so far */
	uint32_t crc_all;   /* CRC over every record line written so far */
	uint64_t bytes;     /* record bytes written so far */
	uint32_t overflows; /* records too large for the buffer, replaced by a note */
	const char *type;
	struct json j;
	char buf[LOG_RECORD_MAX];
};

void log_init(struct log *l, void (*sink)(void *ctx, const char *s, size_t n), void *ctx);

/* Start a record; add members through the returned writer, then call log_end(). */
struct json *log_begin(struct log *l, const char *type);
void log_end(struct log *l);

/* The closing record: {"type":"end","seq":N,"records":N,"crc32":"…","status":"…"}. */
void log_close(struct log *l, const char *status);
/* The same, with more(ctx, e) adding members after `bytes` (the image's
 * `after`, probe/run_after.c), through probe/log_schema.h's writers. */
struct put_end;
void log_close_with(struct log *l, const char *status, void (*more)(void *ctx, const struct put_end *e), void *ctx);

#endif
