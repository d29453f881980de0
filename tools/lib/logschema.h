/* SPDX-License-Identifier: BSD-2-Clause */
/* The log's records decoded into C structs, from the schema
 * (probe/log_schema.def): a reader names a member as a C field, typed,
 * instead of looking it up by a string.
 *
 * Each record and shape NAME is a struct ld_NAME with one field per member,
 * named as the member: a value (struct ld_uint, ld_int, ld_num, ld_bool,
 * ld_str, ld_hist), an embedded struct for an object, or a struct ld_list
 * for a list, a map or columns.  Every one has a state: LD_ABSENT, LD_NULL,
 * LD_SET, or LD_WRONG (there, but not of the schema's JSON type), and its
 * node (NULL when absent): a page shows a value as the log wrote it.  For the
 * record `timer` (t.ld.state and t.ld.node are the record's own):
 *
 *   struct ld_timer t;
 *   ld_decode_timer(root, &t);                      root: lr_parse's
 *   if (t.cost_cycles.p50.state == LD_SET) … t.cost_cycles.p50.v …
 *   for (size_t i = 0; i < ld_timer_rounds_count(&t); i++) {
 *           struct ld_rounds r;
 *           ld_timer_rounds_at(&t, i, &r);        a column's row, or (schema 1)
 *           … r.p50 …                               a list's object
 *   }
 *
 * Lists: t.outliers.largest.n items, ld_outliers_largest_at(&o, i) the
 * i-th value; a LIST_OF's ld_S_M_at(&s, i, &out) decodes its i-th object.
 * Maps: ld_S_M_name(&s, i), ld_S_M_at(&s, i), ld_S_M_get(&s, "name").  A
 * SUFFIXED family: ld_percpu_p50_cycles(&p, "tsc") is the list
 * "tsc_p50_cycles", ld_percpu_p50_cycles_at(&p, "tsc", i) its i-th value.
 *
 * Schemas 1 and 2 both decode: a `hist` is kept as its node (a string, or
 * schema 1's pairs) for tools/lib/hist_decode.h; COLUMNS read a list of
 * objects too (schema 1's `rounds`, logderived.c's rows); a TUPLE reads an
 * object by its items' names (schema 1's `delta`).  Strings and nodes point
 * into the parse: valid as long as it is. */
#ifndef TOOLS_LIB_LOGSCHEMA_H
#define TOOLS_LIB_LOGSCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tools/lib/json_parse.h"

/* Each X-macro pass is laid out by hand, a line per generated function:
 * clang-format would split them a token a line. */
/* clang-format off */

enum ld_state { LD_ABSENT, LD_NULL, LD_SET, LD_WRONG };

struct ld_uint {
	uint8_t state;
	const struct lr_node *node;
	uint64_t v;
};
struct ld_int {
	uint8_t state;
	const struct lr_node *node;
	int64_t v;
};
struct ld_num {
	uint8_t state;
	const struct lr_node *node;
	double v;
};
struct ld_bool {
	uint8_t state;
	const struct lr_node *node;
	bool v;
};
struct ld_str {
	uint8_t state;
	const struct lr_node *node;
	const char *s;
};
struct ld_hist {
	uint8_t state;
	const struct lr_node *node; /* a string, or schema 1's [[value, count], …] */
};
struct ld_pair {
	uint8_t state;
	const struct lr_node *node;
	uint64_t a, b;
};
/* What every record's and shape's struct begins with, as member `ld`
 * (a name no member of the log has): its state and its node. */
struct ld_head {
	uint8_t state;
	const struct lr_node *node;
};
/* A list, map or set of columns: its node and how many items it has. */
struct ld_list {
	uint8_t state;
	const struct lr_node *node;
	size_t n;
};

/* The schema's types, kinds, and the rest of an entry, as data. */
enum ld_type {
	LD_T_U64, LD_T_I64, LD_T_BOOL, LD_T_STR, LD_T_HEX32, LD_T_F0, LD_T_F1, LD_T_F2, LD_T_F3, LD_T_F4, LD_T_F5,
	LD_T_F6, LD_T_F9, LD_T_HIST, LD_T_PAIR, LD_T_NONE,
};
enum ld_kind { LD_FIELD, LD_ITEM, LD_OBJECT, LD_LIST, LD_LIST_OF, LD_COLUMNS, LD_MAP, LD_SUFFIXED };
enum ld_how { LD_W, LD_N, LD_O, LD_ON, LD_D, LD_OD };
enum ld_by { LD_ALL, LD_IMAGE, LD_OS };
enum ld_shape_kind { LD_RECORD, LD_SHAPE, LD_TUPLE };

struct ld_shape;
struct ld_member {
	const char *key;   /* the JSON key (SUFFIXED: "_suffix") */
	const char *cname; /* the C field's name */
	uint8_t kind, type, how, by;
	const char *unit, *doc;
	size_t offset;     /* of the C field in the shape's struct */
	const struct ld_shape *child;
};
struct ld_shape {
	const char *name, *doc;
	uint8_t kind, by;
	size_t size;       /* of struct ld_NAME */
	const struct ld_member *members;
	size_t n;
};

/* Every record type, in the schema's order. */
extern const struct ld_shape *const ld_records[];
extern const size_t ld_n_records;
const struct ld_shape *ld_record(const char *type); /* NULL: no such record */

/* What a decode or a check found against the schema. */
struct ld_report {
	unsigned wrong;    /* members of another JSON type */
	unsigned unknown;  /* members the schema does not have */
	unsigned missing;  /* members always written, not there (ld_check only) */
	char first[160];   /* the first of them: "timer.cost_cycles.p50: wrong type" */
};

/* n (an object, or for a TUPLE an array) into out, a struct ld_NAME of
 * shape s; n NULL: absent.  Objects within are decoded too, lists are
 * counted (their items read through the accessors).  Returns the members of
 * a wrong type; rep (may be NULL) adds them up, and the unknown ones. */
unsigned ld_decode(const struct lr_node *n, const struct ld_shape *s, void *out, struct ld_report *rep);
/* One value of type t (enum ld_type) into out, a struct ld_uint, ld_num, …. */
void ld_value(const struct lr_node *n, int t, void *out);
/* The i-th row of columns (or of a list of objects) into out. */
void ld_row(const struct ld_list *rows, size_t i, const struct ld_shape *s, void *out);
size_t ld_rows(const struct ld_list *rows);
/* A map's i-th name and value, or a name's value (a key that is there
 * several times: the first). */
const char *ld_map_name(const struct ld_list *map, size_t i);
const struct lr_node *ld_map_node(const struct ld_list *map, size_t i);
const struct lr_node *ld_map_get(const struct ld_list *map, const char *name);
/* A SUFFIXED family's list "name" + suffix in the object of shape struct
 * holding node. */
const struct lr_node *ld_suffixed(const struct lr_node *obj, const char *name, const char *suffix);

/* Checks a whole record (or object of shape s) against the schema, lists
 * and their items included: wrong types, unknown members, and members the
 * writer `by` (LD_IMAGE or LD_OS) always writes that are missing.  Returns
 * how many problems there were. */
unsigned ld_check(const struct lr_node *n, const struct ld_shape *s, int by, struct ld_report *rep);

/* ---- the structs, from the schema ----------------------------------------- */

#define LD_TYPE_U64 struct ld_uint
#define LD_TYPE_I64 struct ld_int
#define LD_TYPE_BOOL struct ld_bool
#define LD_TYPE_STR struct ld_str
#define LD_TYPE_HEX32 struct ld_uint
#define LD_TYPE_F0 struct ld_num
#define LD_TYPE_F1 struct ld_num
#define LD_TYPE_F2 struct ld_num
#define LD_TYPE_F3 struct ld_num
#define LD_TYPE_F4 struct ld_num
#define LD_TYPE_F5 struct ld_num
#define LD_TYPE_F6 struct ld_num
#define LD_TYPE_F9 struct ld_num
#define LD_TYPE_HIST struct ld_hist
#define LD_TYPE_PAIR struct ld_pair

#define LD_STRUCT(name)                                                                                             \
	struct ld_##name {                                                                                          \
		struct ld_head ld;
#define RECORD(name, by, doc) LD_STRUCT(name)
#define SHAPE(name, doc) LD_STRUCT(name)
#define TUPLE(name, doc) LD_STRUCT(name)
#define END(name)                                                                                                   \
	}                                                                                                           \
	;
#define FIELD_AS(S, c, key, T, unit, how, by, doc) LD_TYPE_##T c;
#define ITEM(S, c, T, unit, how, by, doc) LD_TYPE_##T c;
#define OBJECT_AS(S, c, key, C, how, by, doc) struct ld_##C c;
#define LIST(S, c, T, unit, how, by, doc) struct ld_list c;
#define LIST_OF(S, c, C, how, by, doc) struct ld_list c;
#define COLUMNS(S, c, C, how, by, doc) struct ld_list c;
#define MAP(S, c, T, unit, how, by, doc) struct ld_list c;
#include "probe/log_schema.def"
#undef LD_STRUCT

#define RECORD(name, by, doc) extern const struct ld_shape ld_shape_##name;
#define SHAPE(name, doc) extern const struct ld_shape ld_shape_##name;
#define TUPLE(name, doc) extern const struct ld_shape ld_shape_##name;
#include "probe/log_schema.def"

/* ---- the typed accessors, from the schema ---------------------------------- */

#define LD_DECODER(name)                                                                                            \
	static inline unsigned ld_decode_##name(const struct lr_node *n, struct ld_##name *out)                    \
	{                                                                                                           \
		return ld_decode(n, &ld_shape_##name, out, NULL);                                                   \
	}
#define RECORD(name, by, doc) LD_DECODER(name)
#define SHAPE(name, doc) LD_DECODER(name)
#define TUPLE(name, doc) LD_DECODER(name)
#define LD_AT(S, c, T, list)                                                                                        \
	static inline LD_TYPE_##T ld_##S##_##c##_at(const struct ld_##S *s, size_t i)                              \
	{                                                                                                           \
		LD_TYPE_##T v;                                                                                      \
		ld_value(list, LD_T_##T, &v);                                                                       \
		return v;                                                                                           \
	}
#define LIST(S, c, T, unit, how, by, doc) LD_AT(S, c, T, lr_at(s->c.node, i))
#define LIST_OF(S, c, C, how, by, doc)                                                                              \
	static inline void ld_##S##_##c##_at(const struct ld_##S *s, size_t i, struct ld_##C *out)                 \
	{                                                                                                           \
		ld_decode(lr_at(s->c.node, i), &ld_shape_##C, out, NULL);                                           \
	}
#define COLUMNS(S, c, C, how, by, doc)                                                                              \
	static inline size_t ld_##S##_##c##_count(const struct ld_##S *s) { return ld_rows(&s->c); }               \
	static inline void ld_##S##_##c##_at(const struct ld_##S *s, size_t i, struct ld_##C *out)                 \
	{                                                                                                           \
		ld_row(&s->c, i, &ld_shape_##C, out);                                                               \
	}
#define MAP(S, c, T, unit, how, by, doc)                                                                            \
	static inline const char *ld_##S##_##c##_name(const struct ld_##S *s, size_t i)                            \
	{                                                                                                           \
		return ld_map_name(&s->c, i);                                                                       \
	}                                                                                                           \
	LD_AT(S, c, T, ld_map_node(&s->c, i))                                                                       \
	static inline LD_TYPE_##T ld_##S##_##c##_get(const struct ld_##S *s, const char *name)                     \
	{                                                                                                           \
		LD_TYPE_##T v;                                                                                      \
		ld_value(ld_map_get(&s->c, name), LD_T_##T, &v);                                                    \
		return v;                                                                                           \
	}
#define SUFFIXED(S, c, T, unit, how, by, doc)                                                                       \
	static inline struct ld_list ld_##S##_##c(const struct ld_##S *s, const char *name)                        \
	{                                                                                                           \
		const struct lr_node *n = ld_suffixed(s->ld.node, name, "_" #c);                                       \
		struct ld_list l = { n ? (n->kind == LR_ARR ? LD_SET : n->kind == LR_NULL ? LD_NULL : LD_WRONG)     \
				       : LD_ABSENT,                                                                 \
				     n, n && n->kind == LR_ARR ? n->len : 0 };                                      \
		return l;                                                                                           \
	}                                                                                                           \
	static inline LD_TYPE_##T ld_##S##_##c##_at(const struct ld_##S *s, const char *name, size_t i)            \
	{                                                                                                           \
		LD_TYPE_##T v;                                                                                      \
		ld_value(lr_at(ld_suffixed(s->ld.node, name, "_" #c), i), LD_T_##T, &v);                               \
		return v;                                                                                           \
	}
#include "probe/log_schema.def"
#undef LD_DECODER
#undef LD_AT

/* clang-format on */

#endif
