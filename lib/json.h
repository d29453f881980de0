/* SPDX-License-Identifier: BSD-2-Clause */
/* A JSON writer into a fixed buffer: no allocation, so it runs in the image.
 * Keys are passed with each value; pass key = NULL inside arrays.
 * On overflow the writer stops writing and sets `overflow`; the caller decides
 * what to do (the log writer reports it instead of emitting a cut record). */
#ifndef LIB_JSON_H
#define LIB_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define JSON_MAX_DEPTH 16

struct json {
	char *buf;
	size_t cap, len;
	bool overflow;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* no member written yet at this depth */
};

void json_init(struct json *j, char *buf, size_t cap);
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_str(struct json *j, const char *key, const char *s); /* escaped; NULL gives null */
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);
void json_fixed(struct json *j, const char *key, double v, int decimals); /* NaN/inf give null */
void json_hex32(struct json *j, const char *key, uint32_t v);          /* "0a1b2c3d" */
void json_pair_u64(struct json *j, uint64_t a, uint64_t b);          /* [a,b] inside an array */
/* A string member written in pieces (an encoded histogram can be tens of KB):
 * the pieces are copied unescaped, so they must hold only printable ASCII
 * other than '"' and '\\'. */
void json_str_open(struct json *j, const char *key);
void json_str_piece(struct json *j, const char *s, size_t n);
void json_str_close(struct json *j);

#endif
