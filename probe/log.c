/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/log.h"
#include "lib/crc32.h"
#include "lib/fmt.h"
#include "lib/util.h"
#include "probe/log_schema.h"

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
		struct put_overflow o;
		l->overflows++;
		o = put_record_overflow(l);
		put_overflow_record(o, lost);
		put_overflow_limit(o, LOG_RECORD_MAX);
	}
	emit(l);
}

void log_close_with(struct log *l, const char *status, void (*more)(void *ctx, const struct put_end *e), void *ctx)
{
	uint32_t records = l->seq;
	uint32_t crc = l->crc_all;
	struct put_end e = put_record_end(l);

	put_end_records(e, records);
	put_end_crc32(e, crc);
	put_end_status(e, status);
	put_end_bytes(e, l->bytes);
	if (more)
		more(ctx, &e);
	emit(l);
}

void log_close(struct log *l, const char *status)
{
	log_close_with(l, status, NULL, NULL);
}
