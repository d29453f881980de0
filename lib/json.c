/* SPDX-License-Identifier: BSD-2-Clause */
#include "lib/json.h"
#include "lib/fmt.h"
#include "lib/util.h"

void json_init(struct json *j, char *buf, size_t cap)
{
	j->buf = buf;
	j->cap = cap;
	j->len = 0;
	j->overflow = false;
	j->depth = 0;
	j->first[0] = true;
	if (cap)
		buf[0] = 0;
}

static void raw(struct json *j, const char *s, size_t n)
{
	if (j->overflow)
		return;
	if (j->len + n + 1 > j->cap) {
		j->overflow = true;
		return;
	}
	tp_memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = 0;
}

static void raws(struct json *j, const char *s) { raw(j, s, tp_strlen(s)); }

static void escaped(struct json *j, const char *s)
{
	raw(j, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char tmp[8];
		if (c == '"' || c == '\\') {
			tmp[0] = '\\';
			tmp[1] = (char)c;
			raw(j, tmp, 2);
		} else if (c < 0x20 || c == 0x7f || c >= 0x80) {
			/* Firmware strings (OEM ids, brand strings) can hold any byte,
			 * not valid UTF-8 in general: keep the log ASCII and lossless. */
			tp_snprintf(tmp, sizeof tmp, "\\u%04x", c);
			raws(j, tmp);
		} else {
			raw(j, (const char *)&c, 1);
		}
	}
	raw(j, "\"", 1);
}

static void member(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		raw(j, ",", 1);
	j->first[j->depth] = false;
	if (key) {
		escaped(j, key);
		raw(j, ":", 1);
	}
}

static void open_level(struct json *j, const char *key, const char *bracket)
{
	if (j->depth)
		member(j, key);
	raws(j, bracket);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	else
		j->overflow = true;
	j->first[j->depth] = true;
}

static void close_level(struct json *j, const char *bracket)
{
	raws(j, bracket);
	if (j->depth)
		j->depth--;
}

void json_object_begin(struct json *j, const char *key) { open_level(j, key, "{"); }
void json_object_end(struct json *j) { close_level(j, "}"); }
void json_array_begin(struct json *j, const char *key) { open_level(j, key, "["); }
void json_array_end(struct json *j) { close_level(j, "]"); }

void json_str(struct json *j, const char *key, const char *s)
{
	member(j, key);
	if (s)
		escaped(j, s);
	else
		raws(j, "null");
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	char tmp[24];
	member(j, key);
	raw(j, tmp, (size_t)tp_snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v));
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	char tmp[24];
	member(j, key);
	raw(j, tmp, (size_t)tp_snprintf(tmp, sizeof tmp, "%lld", (long long)v));
}

void json_bool(struct json *j, const char *key, bool v)
{
	member(j, key);
	raws(j, v ? "true" : "false");
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	raws(j, "null");
}

void json_fixed(struct json *j, const char *key, double v, int decimals)
{
	char tmp[40];
	if (v != v || v > 1e18 || v < -1e18) {
		json_null(j, key);
		return;
	}
	member(j, key);
	raw(j, tmp, (size_t)tp_format_fixed(tmp, sizeof tmp, v, decimals));
}

void json_hex32(struct json *j, const char *key, uint32_t v)
{
	char tmp[16];
	member(j, key);
	raw(j, tmp, (size_t)tp_snprintf(tmp, sizeof tmp, "\"%08x\"", v));
}

void json_pair_u64(struct json *j, uint64_t a, uint64_t b)
{
	char tmp[48];
	member(j, NULL);
	raw(j, tmp, (size_t)tp_snprintf(tmp, sizeof tmp, "[%llu,%llu]", (unsigned long long)a,
					(unsigned long long)b));
}

void json_str_open(struct json *j, const char *key)
{
	member(j, key);
	raw(j, "\"", 1);
}

void json_str_piece(struct json *j, const char *s, size_t n) { raw(j, s, n); }

void json_str_close(struct json *j) { raw(j, "\"", 1); }
