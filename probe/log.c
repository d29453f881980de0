/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/log.h"
#include "lib/crc32.h"
#include "lib/fmt.h"
#include "lib/util.h"

void log_init(struct log *l, void (*sink)(void *ctx, const char *s, size_t n), void *ctx)
{
	l->sink = sink;
	l->sink_ctx = ctx;
	l->seq = 0;
	l->crc_all = 0;
	l->bytes = 0;
	l->overflows = 0;
	l->type = NULL;
}

struct json *log_begin(struct log *l, const char *type)
{
	l->type = type;
	json_init(&l->j, l->buf, sizeof l->buf - 32); /* room for the crc suffix */
	json_object_begin(&l->j, NULL);
	json_str(&l->j, "type", type);
	json_u64(&l->j, "seq", l->seq);
	return &l->j;
}

static void emit(struct log *l)
{
	uint32_t crc = crc32_update(0, l->buf, l->j.len);
	size_t n = l->j.len;

	n += (size_t)tp_snprintf(l->buf + n, sizeof l->buf - n, ",\"crc\":\"%08x\"}\n", crc);
	l->crc_all = crc32_update(l->crc_all, l->buf, n);
	l->bytes += n;
	l->seq++;
	l->sink(l->sink_ctx, l->buf, n);
}

void log_end(struct log *l)
{
	if (l->j.overflow || l->j.depth != 1) {
		/* Never emit a cut record: say what was lost instead. */
		const char *lost = l->type;
		l->overflows++;
		log_begin(l, "overflow");
		json_str(&l->j, "record", lost);
		json_u64(&l->j, "limit", LOG_RECORD_MAX);
	}
	emit(l);
}

void log_close_with(struct log *l, const char *status, void (*more)(void *ctx, struct json *j), void *ctx)
{
	uint32_t records = l->seq;
	uint32_t crc = l->crc_all;

	log_begin(l, "end");
	json_u64(&l->j, "records", records);
	json_hex32(&l->j, "crc32", crc);
	json_str(&l->j, "status", status);
	json_u64(&l->j, "bytes", l->bytes);
	if (more)
		more(ctx, &l->j);
	emit(l);
}

void log_close(struct log *l, const char *status)
{
	log_close_with(l, status, NULL, NULL);
}
