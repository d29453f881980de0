/* SPDX-License-Identifier: BSD-2-Clause */
/* The log's writers, typed: from probe/log_schema.def, one helper per member,
 * so that a writer cannot misspell a key, write the wrong JSON type, write
 * a member into another record or object, or write a derived member.
 *
 * A record or object is a handle, struct put_SHAPE; each member of it is
 * written through put_SHAPE_MEMBER(handle, value), in the type the schema
 * gives (uint64_t, int64_t, double with the schema's decimals, bool, const
 * char *).  For the record `timer`:
 *
 *   struct put_timer t = put_record_timer(log);      log_begin(log, "timer")
 *   put_timer_samples(t, n);                         "samples":n
 *   put_timer_width_null(t);                         "width":null (N, ON only)
 *   struct put_cost c = put_timer_cost_cycles_open(t);   "cost_cycles":{
 *   put_cost_min(c, 12);                                   "min":12
 *   put_cost_close(c);                                   }
 *   log_end(log);
 *
 * Lists: put_S_M_open(h) gives a list handle; put_S_M_add(list, v) (or, for
 * a LIST_OF, put_S_M_add(list) giving the element's handle), _add_null,
 * put_S_M_close(list).  Columns (COLUMNS): put_S_M_open(h) gives
 * struct put_C_columns; each column of C's member F is
 * put_C_F_column_open(columns), _add, _add_null, _close; then
 * put_C_columns_close.  A map (MAP): put_S_M_add(map, name, v).  A member
 * family (SUFFIXED): put_S_SUFFIX_open(h, name) opens the list "name_SUFFIX".
 * A histogram (HIST): put_S_M(h, hist), put_S_M_encoder(h, enc) to encode it
 * bin by bin (probe/hist_codec.h), put_S_M_text(h, text) for the one other
 * string ("omitted: …").
 *
 * put_record_NAME(log) begins a record; put_NAME_body(json) writes a
 * record's members into an object of some other output (tickprobe acpi
 * --json prints the acpi record's). */
#ifndef PROBE_LOG_SCHEMA_H
#define PROBE_LOG_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/json.h"
#include "lib/util.h"
#include "probe/hist_codec.h"
#include "probe/log.h"

/* Each X-macro pass is laid out by hand, a line per generated function:
 * clang-format would split them a token a line. */
/* clang-format off */

/* ---- the value types ---------------------------------------------------- */

#define PUT_CTYPE_U64 uint64_t
#define PUT_CTYPE_I64 int64_t
#define PUT_CTYPE_BOOL bool
#define PUT_CTYPE_STR const char *
#define PUT_CTYPE_HEX32 uint32_t
#define PUT_CTYPE_F0 double
#define PUT_CTYPE_F1 double
#define PUT_CTYPE_F2 double
#define PUT_CTYPE_F3 double
#define PUT_CTYPE_F4 double
#define PUT_CTYPE_F5 double
#define PUT_CTYPE_F6 double
#define PUT_CTYPE_F9 double

#define PUT_WRITE_U64(j, key, v) json_u64(j, key, v)
#define PUT_WRITE_I64(j, key, v) json_i64(j, key, v)
#define PUT_WRITE_BOOL(j, key, v) json_bool(j, key, v)
#define PUT_WRITE_STR(j, key, v) json_str(j, key, v)
#define PUT_WRITE_HEX32(j, key, v) json_hex32(j, key, v)
#define PUT_WRITE_F0(j, key, v) json_fixed(j, key, v, 0)
#define PUT_WRITE_F1(j, key, v) json_fixed(j, key, v, 1)
#define PUT_WRITE_F2(j, key, v) json_fixed(j, key, v, 2)
#define PUT_WRITE_F3(j, key, v) json_fixed(j, key, v, 3)
#define PUT_WRITE_F4(j, key, v) json_fixed(j, key, v, 4)
#define PUT_WRITE_F5(j, key, v) json_fixed(j, key, v, 5)
#define PUT_WRITE_F6(j, key, v) json_fixed(j, key, v, 6)
#define PUT_WRITE_F9(j, key, v) json_fixed(j, key, v, 9)

/* Derived members get no writer at all. */
#define PUT_IF_W(...) __VA_ARGS__
#define PUT_IF_N(...) __VA_ARGS__
#define PUT_IF_O(...) __VA_ARGS__
#define PUT_IF_ON(...) __VA_ARGS__
#define PUT_IF_OD(...) __VA_ARGS__
#define PUT_IF_D(...)

/* A null only where the schema allows one. */
#define PUT_NULL_W(S, c, key)
#define PUT_NULL_O(S, c, key)
#define PUT_NULL_OD(S, c, key)
#define PUT_NULL_D(S, c, key)
#define PUT_NULL_N(S, c, key)                                                                                       \
	static inline void put_##S##_##c##_null(struct put_##S o) { json_null(o.j, key); }
#define PUT_NULL_ON(S, c, key) PUT_NULL_N(S, c, key)

/* "NAME_suffix", the key of one member of a SUFFIXED family. */
static inline const char *put_key_join(char *buf, size_t cap, const char *name, const char *suffix)
{
	size_t n = tp_strlen(name), s = tp_strlen(suffix);

	if (n + s + 1 > cap)
		n = cap > s + 1 ? cap - s - 1 : 0;
	tp_memcpy(buf, name, n);
	tp_memcpy(buf + n, suffix, s < cap ? s + 1 : 0);
	return buf;
}

/* ---- pass 1: a handle per record, shape and tuple ----------------------- */

#define PUT_HANDLE(name)                                                                                            \
	struct put_##name {                                                                                         \
		struct json *j;                                                                                     \
	};                                                                                                          \
	struct put_##name##_columns {                                                                               \
		struct json *j;                                                                                     \
	};
#define RECORD(name, by, doc) PUT_HANDLE(name)
#define SHAPE(name, doc) PUT_HANDLE(name)
#define TUPLE(name, doc) PUT_HANDLE(name)
#include "probe/log_schema.def"
#undef PUT_HANDLE

/* ---- pass 2: how each is opened and closed ------------------------------ */

#define PUT_OPENER(name, begin, end)                                                                                \
	static inline struct put_##name put_##name##_in(struct json *j, const char *key)                           \
	{                                                                                                           \
		struct put_##name h = { j };                                                                        \
		begin(j, key);                                                                                      \
		return h;                                                                                           \
	}                                                                                                           \
	static inline void put_##name##_close(struct put_##name h) { end(h.j); }                                   \
	static inline struct put_##name##_columns put_##name##_columns_in(struct json *j, const char *key)         \
	{                                                                                                           \
		struct put_##name##_columns h = { j };                                                              \
		json_object_begin(j, key);                                                                          \
		return h;                                                                                           \
	}                                                                                                           \
	static inline void put_##name##_columns_close(struct put_##name##_columns h) { json_object_end(h.j); }
#define RECORD(name, by, doc)                                                                                       \
	static inline struct put_##name put_record_##name(struct log *l)                                           \
	{                                                                                                           \
		struct put_##name h = { log_begin(l, #name) };                                                      \
		return h;                                                                                           \
	}                                                                                                           \
	static inline struct put_##name put_##name##_body(struct json *j)                                          \
	{                                                                                                           \
		struct put_##name h = { j };                                                                        \
		return h;                                                                                           \
	}
#define SHAPE(name, doc) PUT_OPENER(name, json_object_begin, json_object_end)
#define TUPLE(name, doc) PUT_OPENER(name, json_array_begin, json_array_end)
#include "probe/log_schema.def"
#undef PUT_OPENER

/* ---- pass 3: the members ------------------------------------------------ */

/* A value member, and the column of it (a shape written as COLUMNS). */
#define PUT_SCALAR(S, c, key, T)                                                                                    \
	static inline void put_##S##_##c(struct put_##S o, PUT_CTYPE_##T v) { PUT_WRITE_##T(o.j, key, v); }       \
	struct put_##S##_##c##_column {                                                                             \
		struct json *j;                                                                                     \
	};                                                                                                          \
	static inline struct put_##S##_##c##_column put_##S##_##c##_column_open(struct put_##S##_columns h)       \
	{                                                                                                           \
		struct put_##S##_##c##_column col = { h.j };                                                        \
		json_array_begin(h.j, key);                                                                         \
		return col;                                                                                         \
	}                                                                                                           \
	static inline void put_##S##_##c##_column_add(struct put_##S##_##c##_column col, PUT_CTYPE_##T v)          \
	{                                                                                                           \
		PUT_WRITE_##T(col.j, NULL, v);                                                                      \
	}                                                                                                           \
	static inline void put_##S##_##c##_column_add_null(struct put_##S##_##c##_column col)                      \
	{                                                                                                           \
		json_null(col.j, NULL);                                                                             \
	}                                                                                                           \
	static inline void put_##S##_##c##_column_close(struct put_##S##_##c##_column col) { json_array_end(col.j); }
#define PUT_FIELD_U64(S, c, key) PUT_SCALAR(S, c, key, U64)
#define PUT_FIELD_I64(S, c, key) PUT_SCALAR(S, c, key, I64)
#define PUT_FIELD_BOOL(S, c, key) PUT_SCALAR(S, c, key, BOOL)
#define PUT_FIELD_STR(S, c, key) PUT_SCALAR(S, c, key, STR)
#define PUT_FIELD_HEX32(S, c, key) PUT_SCALAR(S, c, key, HEX32)
#define PUT_FIELD_F0(S, c, key) PUT_SCALAR(S, c, key, F0)
#define PUT_FIELD_F1(S, c, key) PUT_SCALAR(S, c, key, F1)
#define PUT_FIELD_F2(S, c, key) PUT_SCALAR(S, c, key, F2)
#define PUT_FIELD_F3(S, c, key) PUT_SCALAR(S, c, key, F3)
#define PUT_FIELD_F4(S, c, key) PUT_SCALAR(S, c, key, F4)
#define PUT_FIELD_F5(S, c, key) PUT_SCALAR(S, c, key, F5)
#define PUT_FIELD_F6(S, c, key) PUT_SCALAR(S, c, key, F6)
#define PUT_FIELD_F9(S, c, key) PUT_SCALAR(S, c, key, F9)
#define PUT_FIELD_HIST(S, c, key)                                                                                   \
	static inline void put_##S##_##c(struct put_##S o, const struct hist *h) { hist_encode(o.j, key, h); }     \
	static inline void put_##S##_##c##_encoder(struct put_##S o, struct hist_enc *e)                           \
	{                                                                                                           \
		hist_enc_begin(e, o.j, key);                                                                        \
	}                                                                                                           \
	static inline void put_##S##_##c##_text(struct put_##S o, const char *text) { json_str(o.j, key, text); }

#define FIELD_AS(S, c, key, T, unit, how, by, doc) PUT_IF_##how(PUT_FIELD_##T(S, c, key) PUT_NULL_##how(S, c, key))

#define ITEM(S, c, T, unit, how, by, doc)                                                                           \
	PUT_IF_##how(static inline void put_##S##_##c(struct put_##S o, PUT_CTYPE_##T v) {                          \
		PUT_WRITE_##T(o.j, NULL, v);                                                                        \
	})

#define OBJECT_AS(S, c, key, C, how, by, doc)                                                                       \
	PUT_IF_##how(static inline struct put_##C put_##S##_##c##_open(struct put_##S o) {                          \
		return put_##C##_in(o.j, key);                                                                      \
	} PUT_NULL_##how(S, c, key))

/* A list's handle, its opening and closing, and its null. */
#define PUT_LIST(S, c, how)                                                                                         \
	struct put_##S##_##c##_list {                                                                               \
		struct json *j;                                                                                     \
	};                                                                                                          \
	static inline struct put_##S##_##c##_list put_##S##_##c##_open(struct put_##S o)                           \
	{                                                                                                           \
		struct put_##S##_##c##_list l = { o.j };                                                            \
		json_array_begin(o.j, #c);                                                                          \
		return l;                                                                                           \
	}                                                                                                           \
	static inline void put_##S##_##c##_add_null(struct put_##S##_##c##_list l) { json_null(l.j, NULL); }       \
	static inline void put_##S##_##c##_close(struct put_##S##_##c##_list l) { json_array_end(l.j); }           \
	PUT_NULL_##how(S, c, #c)
#define PUT_ADD(S, c, T)                                                                                            \
	static inline void put_##S##_##c##_add(struct put_##S##_##c##_list l, PUT_CTYPE_##T v)                      \
	{                                                                                                           \
		PUT_WRITE_##T(l.j, NULL, v);                                                                        \
	}
#define PUT_ADD_U64(S, c) PUT_ADD(S, c, U64)
#define PUT_ADD_I64(S, c) PUT_ADD(S, c, I64)
#define PUT_ADD_BOOL(S, c) PUT_ADD(S, c, BOOL)
#define PUT_ADD_STR(S, c) PUT_ADD(S, c, STR)
#define PUT_ADD_F0(S, c) PUT_ADD(S, c, F0)
#define PUT_ADD_F1(S, c) PUT_ADD(S, c, F1)
#define PUT_ADD_F2(S, c) PUT_ADD(S, c, F2)
#define PUT_ADD_F3(S, c) PUT_ADD(S, c, F3)
#define PUT_ADD_PAIR(S, c)                                                                                          \
	static inline void put_##S##_##c##_add(struct put_##S##_##c##_list l, uint64_t a, uint64_t b)               \
	{                                                                                                           \
		json_pair_u64(l.j, a, b);                                                                           \
	}

#define LIST(S, c, T, unit, how, by, doc) PUT_IF_##how(PUT_LIST(S, c, how) PUT_ADD_##T(S, c))

#define LIST_OF(S, c, C, how, by, doc)                                                                              \
	PUT_IF_##how(PUT_LIST(S, c, how) static inline struct put_##C put_##S##_##c##_add(                         \
		struct put_##S##_##c##_list l) { return put_##C##_in(l.j, NULL); })

#define COLUMNS(S, c, C, how, by, doc)                                                                              \
	PUT_IF_##how(static inline struct put_##C##_columns put_##S##_##c##_open(struct put_##S o) {                \
		return put_##C##_columns_in(o.j, #c);                                                               \
	})

#define MAP(S, c, T, unit, how, by, doc)                                                                            \
	PUT_IF_##how(struct put_##S##_##c##_map { struct json *j; };                                                \
		     static inline struct put_##S##_##c##_map put_##S##_##c##_open(struct put_##S o) {              \
			     struct put_##S##_##c##_map m = { o.j };                                                \
			     json_object_begin(o.j, #c);                                                            \
			     return m;                                                                              \
		     } static inline void put_##S##_##c##_add(struct put_##S##_##c##_map m, const char *name,       \
							      PUT_CTYPE_##T v) { PUT_WRITE_##T(m.j, name, v); }     \
		     static inline void put_##S##_##c##_close(struct put_##S##_##c##_map m) { json_object_end(m.j); })

#define SUFFIXED(S, c, T, unit, how, by, doc)                                                                       \
	PUT_IF_##how(struct put_##S##_##c##_list { struct json *j; };                                               \
		     static inline struct put_##S##_##c##_list put_##S##_##c##_open(struct put_##S o,               \
										    const char *name) {             \
			     struct put_##S##_##c##_list l = { o.j };                                               \
			     char key[64];                                                                          \
			     json_array_begin(o.j, put_key_join(key, sizeof key, name, "_" #c));                   \
			     return l;                                                                              \
		     } static inline void put_##S##_##c##_add_null(struct put_##S##_##c##_list l) {                 \
			     json_null(l.j, NULL);                                                                  \
		     } static inline void put_##S##_##c##_close(struct put_##S##_##c##_list l) {                    \
			     json_array_end(l.j);                                                                   \
		     } PUT_ADD_##T(S, c))

#include "probe/log_schema.def"

/* clang-format on */

#endif
