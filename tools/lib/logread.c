/* SPDX-License-Identifier: BSD-2-Clause */
#include "tools/lib/logread.h"
#include "probe/log.h"
#include "lib/crc32.h"
#include "lib/fmt.h"
#include "lib/util.h"

/* ======================= lines ======================= */

size_t lr_clean_line(char *s, size_t n)
{
	size_t i = 0, o = 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c != 0x1b) {
			s[o++] = (char)c;
			i++;
			continue;
		}
		i++;
		if (i >= n)
			break;
		c = (unsigned char)s[i];
		if (c == '[') { /* CSI: parameters 0x30-0x3f, intermediates 0x20-0x2f, final 0x40-0x7e */
			i++;
			while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3f)
				i++;
			if (i < n && (unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e)
				i++;
		} else if (c == ']') { /* OSC: up to BEL or ESC \ */
			i++;
			while (i < n && s[i] != 0x07 && s[i] != 0x1b)
				i++;
			if (i < n && s[i] == 0x07)
				i++;
			else if (i + 1 < n && s[i + 1] == '\\')
				i += 2;
		} else if (c == '=' || c == '>' || c == '?') { /* ESC = 3h: private, digits then a letter */
			i++;
			while (i < n && s[i] >= '0' && s[i] <= '9')
				i++;
			if (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
				i++;
		} else if (c >= 0x20 && c <= 0x2f) { /* ESC ( B: intermediates, then a final */
			while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x2f)
				i++;
			if (i < n && (unsigned char)s[i] >= 0x30 && (unsigned char)s[i] <= 0x7e)
				i++;
		} else if (c >= 0x30 && c <= 0x7e && c != '{') {
			i++; /* two-byte ESC 7, ESC c, …; a lone ESC before a record keeps the record */
		}
	}
	while (o && s[o - 1] == '\r')
		o--;
	return o;
}

/* ======================= the reader ======================= */

#define CRC_TAIL 18 /* ,"crc":"xxxxxxxx"} */

static void problem(struct logread *r, bool in_run, uint32_t line, int sev, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void problem(struct logread *r, bool in_run, uint32_t line, int sev, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tp_vsnprintf(r->msg, sizeof r->msg, fmt, ap);
	va_end(ap);
	if (in_run && sev >= LR_DAMAGE)
		r->run.damaged = true;
	if (r->sink.problem)
		r->sink.problem(r->sink.ctx, in_run ? &r->run : NULL, line, sev, r->msg);
}

static void start_run(struct logread *r, bool has_begin)
{
	tp_memset(&r->run, 0, sizeof r->run);
	tp_memset(r->seen, 0, sizeof r->seen);
	r->run.index = ++r->runs;
	r->run.first_line = r->run.last_line = r->line;
	r->run.has_begin = has_begin;
	r->run.damaged = !has_begin;
	r->in_run = true;
	r->after_end = false;
	r->next_seq = 0;
	r->crc_run = 0;
	r->counted = 0;
	if (r->sink.run_begin)
		r->sink.run_begin(r->sink.ctx, &r->run);
	if (!has_begin)
		problem(r, true, r->line, LR_DAMAGE, "records without a begin record: the run's start is missing");
}

static void end_run(struct logread *r)
{
	if (!r->in_run)
		return;
	if (!r->run.has_end && !r->run.newer_schema)
		problem(r, true, 0, LR_DAMAGE, "no end record after line %u: the run was cut short",
			(unsigned)r->run.last_line);
	if (!r->run.has_end || !r->run.end_ok)
		r->run.damaged = true;
	if (r->sink.run_end)
		r->sink.run_end(r->sink.ctx, &r->run);
	r->in_run = false;
}

static bool hex8(const char *s, uint32_t *out)
{
	uint32_t v = 0;
	for (int k = 0; k < 8; k++) { /* lowercase only, as written: an 'A' is a flipped bit */
		char c = s[k];
		if (c >= '0' && c <= '9')
			v = v << 4 | (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (uint32_t)(c - 'a' + 10);
		else
			return false;
	}
	*out = v;
	return true;
}

static bool starts(const char *s, size_t n, const char *lit)
{
	size_t k = tp_strlen(lit);
	return n >= k && !tp_memcmp(s, lit, k);
}

/* End record: its claims against what arrived (before it). */
static void check_end(struct logread *r, const struct lr_node *root, uint64_t seq)
{
	uint64_t records = 0;
	uint32_t crc = 0;
	const char *status = lr_str(lr_get(root, "status"));
	const char *c = lr_str(lr_get(root, "crc32"));
	bool ok = lr_uint(lr_get(root, "records"), &records) && c && tp_strlen(c) == 8 && hex8(c, &crc);

	r->run.has_end = true;
	r->run.end_records = records;
	r->run.end_crc32 = crc;
	r->run.seen_crc32 = r->crc_run;
	if (status) {
		size_t k = 0;
		for (; status[k] && k + 1 < sizeof r->run.status; k++)
			r->run.status[k] = status[k];
		r->run.status[k] = 0;
	}
	if (!ok) {
		problem(r, true, r->line, LR_DAMAGE, "end record without records/crc32");
		return;
	}
	if (records != r->counted || seq != records)
		problem(r, true, r->line, LR_DAMAGE,
			"end record counts %llu records but %llu arrived: records lost or added",
			(unsigned long long)records, (unsigned long long)r->counted);
	else if (crc != r->crc_run)
		problem(r, true, r->line, LR_DAMAGE,
			"end record crc32 %08x, records that arrived give %08x: records changed or reordered",
			crc, r->crc_run);
	else
		r->run.end_ok = true;
}

int lr_record_crc(const char *s, size_t n, uint32_t *stored, uint32_t *computed)
{
	bool tail = n >= CRC_TAIL + 2 && s[n - 1] == '}' && s[n - 2] == '"' &&
		    !tp_memcmp(s + n - CRC_TAIL, ",\"crc\":\"", 8) && hex8(s + n - 10, stored);

	if (!tail)
		return LR_CRC_MISSING;
	*computed = crc32_update(0, s, n - CRC_TAIL);
	return *computed == *stored ? LR_CRC_GOOD : LR_CRC_BAD;
}

/* The CRC at the record's tail, checked; false when the line is excluded
 * (cut, damaged or changed), which also ends the run it cannot belong to. */
static bool crc_good(struct logread *r, const char *s, size_t n, bool begin_like, uint32_t *crc)
{
	uint32_t stored = 0;
	int verdict = lr_record_crc(s, n, &stored, crc);

	if (verdict == LR_CRC_GOOD)
		return true;
	if (begin_like || !r->in_run) {
		end_run(r);
		start_run(r, false);
	}
	r->run.excluded++;
	if (verdict == LR_CRC_MISSING)
		problem(r, true, r->line, LR_DAMAGE, "line %u: record without a valid crc (cut or damaged), excluded",
			(unsigned)r->line);
	else
		problem(r, true, r->line, LR_DAMAGE, "line %u: bad record crc (stored %08x, computed %08x), excluded",
			(unsigned)r->line, stored, *crc);
	return false;
}

/* A begin starts a run (and a newer schema stops the reader); any other
 * record outside a run starts a headless one, unless it repeats the end
 * record just read.  false: the record goes no further. */
static bool enter_run(struct logread *r, const struct lr_node *root, const char *type, uint64_t seq, uint32_t crc)
{
	uint64_t schema = 0;

	if (tp_streq(type, "begin")) {
		end_run(r);
		start_run(r, true);
		lr_uint(lr_get(root, "schema"), &schema);
		r->run.schema = schema;
		if (schema > LOG_SCHEMA) {
			r->run.newer_schema = true;
			r->stopped = true;
			problem(r, true, r->line, LR_FATAL,
				"line %u: schema %llu is newer than this reader's %d: update tickprobe",
				(unsigned)r->line, (unsigned long long)schema, LOG_SCHEMA);
			end_run(r);
			return false;
		}
	} else if (!r->in_run) {
		if (r->after_end && seq == r->last_end_seq && crc == r->last_end_crc) {
			problem(r, false, r->line, LR_DAMAGE, "line %u: duplicate of the end record at line %u, excluded",
				(unsigned)r->line, (unsigned)r->last_end_line);
			return false;
		}
		start_run(r, false);
	}
	return true;
}

/* seq against the ones seen: a duplicate is excluded (false), a gap or a
 * step back reported. */
static bool seq_fits(struct logread *r, uint64_t seq)
{
	if (seq < LR_SEQ_TRACK && (r->seen[seq / 8] >> (seq % 8) & 1)) {
		r->run.excluded++;
		problem(r, true, r->line, LR_DAMAGE, "line %u: duplicate record (seq %llu), excluded",
			(unsigned)r->line, (unsigned long long)seq);
		return false;
	}
	if (seq < LR_SEQ_TRACK)
		r->seen[seq / 8] |= (uint8_t)(1u << (seq % 8));
	if (seq < r->next_seq)
		problem(r, true, r->line, LR_DAMAGE, "line %u: record seq %llu out of order (after seq %llu)",
			(unsigned)r->line, (unsigned long long)seq, (unsigned long long)(r->next_seq - 1));
	else if (seq > r->next_seq && r->run.has_begin)
		problem(r, true, r->line, LR_DAMAGE, "line %u: seq %llu follows seq %llu: %llu record(s) missing",
			(unsigned)r->line, (unsigned long long)seq, (unsigned long long)r->next_seq - 1,
			(unsigned long long)(seq - r->next_seq));
	if (seq >= r->next_seq)
		r->next_seq = seq + 1;
	return true;
}

static void take_line(struct logread *r, char *s, size_t n)
{
	uint32_t crc = 0;
	const struct lr_node *root, *type_n, *seq_n;
	const char *type;
	uint64_t seq = 0;
	size_t k;
	bool begin_like;

	n = lr_clean_line(s, n);
	if (!n || r->stopped)
		return;
	if (s[0] != '{') {
		/* A record glued after firmware text (no newline between) still has its CRC. */
		for (k = 1; k + 9 <= n && tp_memcmp(s + k, "{\"type\":\"", 9); k++)
			;
		if (k + 9 > n)
			return;
		problem(r, r->in_run, r->line, LR_NOTE, "line %u: record after %u bytes of other text",
			(unsigned)r->line, (unsigned)k);
		s += k;
		n -= k;
	}
	begin_like = starts(s, n, "{\"type\":\"begin\"");
	if (r->in_run)
		r->run.last_line = r->line;
	if (!crc_good(r, s, n, begin_like, &crc))
		return;
	root = lr_parse(&r->doc, s, n);
	type_n = root && root->kind == LR_OBJ ? root->child : NULL;
	seq_n = type_n ? type_n->next : NULL;
	type = type_n && tp_streq(type_n->key, "type") ? lr_str(type_n) : NULL;
	if (!root || !type || !seq_n || !tp_streq(seq_n->key, "seq") || !lr_uint(seq_n, &seq)) {
		if (!r->in_run)
			start_run(r, false);
		r->run.excluded++;
		if (!root)
			problem(r, true, r->line, LR_DAMAGE, "line %u: crc good but not a record (%s at byte %u), excluded",
				(unsigned)r->line, r->doc.err, (unsigned)r->doc.err_at);
		else
			problem(r, true, r->line, LR_DAMAGE, "line %u: crc good but \"type\", \"seq\" not first, excluded",
				(unsigned)r->line);
		return;
	}
	if (!enter_run(r, root, type, seq, crc) || !seq_fits(r, seq))
		return;
	if (tp_streq(type, "end"))
		check_end(r, root, seq);
	r->run.good++;
	r->records++;
	if (r->sink.record)
		r->sink.record(r->sink.ctx, &r->run, r->line, s, n, root);
	if (tp_streq(type, "end")) {
		r->last_end_crc = crc;
		r->last_end_seq = seq;
		r->last_end_line = r->line;
		end_run(r);
		r->after_end = true;
		return;
	}
	r->counted++;
	r->crc_run = crc32_update(r->crc_run, s, n);
	r->crc_run = crc32_update(r->crc_run, "\n", 1);
}

void lr_init(struct logread *r, char *buf, size_t cap, struct lr_node *nodes, size_t ncap,
	     char *strs, size_t scap, const struct lr_sink *sink)
{
	tp_memset(r, 0, sizeof *r);
	r->buf = buf;
	r->cap = cap;
	r->sink = *sink;
	lr_doc_init(&r->doc, nodes, ncap, strs, scap);
}

static void line_done(struct logread *r)
{
	r->line++;
	if (r->overlong) {
		/* Keep enough of the start to tell a record from text. */
		size_t k = lr_clean_line(r->buf, r->len < 64 ? r->len : 64);
		bool rec = k && r->buf[0] == '{';
		if (rec && !r->in_run && !r->stopped)
			start_run(r, false);
		if (!r->stopped) {
			if (rec)
				r->run.excluded++;
			problem(r, rec && r->in_run, r->line, rec ? LR_DAMAGE : LR_NOTE,
				"line %u: %llu bytes, over the %u-byte limit, %s", (unsigned)r->line,
				(unsigned long long)r->len + r->overlong, (unsigned)r->cap,
				rec ? "record excluded" : "skipped");
		}
	} else {
		take_line(r, r->buf, r->len);
	}
	r->len = 0;
	r->overlong = 0;
}

void lr_feed(struct logread *r, const void *data, size_t n)
{
	const char *p = data;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n') {
			line_done(r);
		} else if (r->len < r->cap) {
			r->buf[r->len++] = p[i];
		} else {
			r->overlong++;
		}
	}
}

void lr_finish(struct logread *r)
{
	if (r->len || r->overlong)
		line_done(r);
	end_run(r);
}

void lr_rounds_init(struct lr_rounds *it, const struct lr_node *rounds, const char *metric)
{
	it->metric = metric;
	it->columns = rounds && rounds->kind == LR_OBJ;
	if (it->columns)
		rounds = lr_get(rounds, metric);
	it->item = rounds && rounds->kind == LR_ARR ? rounds->child : NULL;
}

bool lr_rounds_next(struct lr_rounds *it, const struct lr_node **value)
{
	const struct lr_node *m = it->item;

	if (!m)
		return false;
	it->item = m->next;
	*value = it->columns || m->kind != LR_OBJ ? m : lr_get(m, it->metric);
	return true;
}

size_t lr_rounds_count(const struct lr_node *rounds, const char *metric)
{
	struct lr_rounds it;
	const struct lr_node *v;
	size_t n = 0;

	lr_rounds_init(&it, rounds, metric);
	while (lr_rounds_next(&it, &v))
		n++;
	return n;
}
