/* SPDX-License-Identifier: BSD-2-Clause */
/* The log's schema as data, and the decoder (tools/lib/logschema.h). */
#include "tools/lib/logschema.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the schema as data ---------------------------------------------------- */

#define LD_MEMBER(S, cname, key, kind, type, unit, how, by, doc, offset, child) \
	{ key, cname, kind, type, LD_##how, LD_##by, unit, doc, offset, child },
#define LD_BEGIN(name, kind, by, doc) \
	enum { ld_kind_##name = (kind), ld_by_##name = (by) }; \
	static const char ld_doc_##name[] = doc; \
	static const struct ld_member ld_members_##name[] = {
#define RECORD(name, by, doc) LD_BEGIN(name, LD_RECORD, LD_##by, doc)
#define SHAPE(name, doc) LD_BEGIN(name, LD_SHAPE, LD_ALL, doc)
#define TUPLE(name, doc) LD_BEGIN(name, LD_TUPLE, LD_ALL, doc)
#define END(name) \
	} \
	; \
	const struct ld_shape ld_shape_##name = { #name, \
						  ld_doc_##name, \
						  ld_kind_##name, \
						  ld_by_##name, \
						  sizeof(struct ld_##name), \
						  ld_members_##name, \
						  sizeof ld_members_##name / sizeof ld_members_##name[0] };
#define FIELD_AS(S, c, key, T, unit, how, by, doc) \
	LD_MEMBER(S, #c, key, LD_FIELD, LD_T_##T, #unit, how, by, doc, offsetof(struct ld_##S, c), NULL)
#define ITEM(S, c, T, unit, how, by, doc) \
	LD_MEMBER(S, #c, #c, LD_ITEM, LD_T_##T, #unit, how, by, doc, offsetof(struct ld_##S, c), NULL)
#define OBJECT_AS(S, c, key, C, how, by, doc) \
	LD_MEMBER(S, #c, key, LD_OBJECT, LD_T_NONE, "none", how, by, doc, offsetof(struct ld_##S, c), &ld_shape_##C)
#define LIST(S, c, T, unit, how, by, doc) \
	LD_MEMBER(S, #c, #c, LD_LIST, LD_T_##T, #unit, how, by, doc, offsetof(struct ld_##S, c), NULL)
#define LIST_OF(S, c, C, how, by, doc) \
	LD_MEMBER(S, #c, #c, LD_LIST_OF, LD_T_NONE, "none", how, by, doc, offsetof(struct ld_##S, c), &ld_shape_##C)
#define COLUMNS(S, c, C, how, by, doc) \
	LD_MEMBER(S, #c, #c, LD_COLUMNS, LD_T_NONE, "none", how, by, doc, offsetof(struct ld_##S, c), &ld_shape_##C)
#define MAP(S, c, T, unit, how, by, doc) \
	LD_MEMBER(S, #c, #c, LD_MAP, LD_T_##T, #unit, how, by, doc, offsetof(struct ld_##S, c), NULL)
#define SUFFIXED(S, c, T, unit, how, by, doc) \
	LD_MEMBER(S, #c, "_" #c, LD_SUFFIXED, LD_T_##T, #unit, how, by, doc, 0, NULL)
#include "probe/log_schema.def"
#undef LD_MEMBER
#undef LD_BEGIN

#define RECORD(name, by, doc) &ld_shape_##name,
const struct ld_shape *const ld_records[] = {
#include "probe/log_schema.def"
};
const size_t ld_n_records = sizeof ld_records / sizeof ld_records[0];

const struct ld_shape *ld_record(const char *type)
{
	for (size_t i = 0; type && i < ld_n_records; i++)
		if (!strcmp(ld_records[i]->name, type))
			return ld_records[i];
	return NULL;
}

/* ---- values ------------------------------------------------------------------ */

static bool hex32(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	for (int i = 0; i < 8; i++) {
		int c = (unsigned char)s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return false;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return s[8] == 0;
}

/* n is a value of type t (not null). */
static bool type_ok(const struct lr_node *n, int t)
{
	uint64_t hex;

	switch (t) {
	case LD_T_U64: return n->kind == LR_NUM && n->is_int && !n->neg;
	case LD_T_I64: return n->kind == LR_NUM && n->is_int && (n->neg || n->u <= INT64_MAX);
	case LD_T_BOOL: return n->kind == LR_BOOL;
	case LD_T_STR: return n->kind == LR_STR;
	case LD_T_HEX32: return n->kind == LR_STR && hex32(n->str, &hex);
	case LD_T_HIST: return n->kind == LR_STR || n->kind == LR_ARR;
	case LD_T_PAIR:
		return n->kind == LR_ARR && n->len == 2 && lr_uint(lr_at(n, 0), &hex) && lr_uint(lr_at(n, 1), &hex);
	default: /* F0 … F9 */ return n->kind == LR_NUM;
	}
}

/* The value of n, of type t, into out (a zeroed value struct of t's). */
static void take_value(const struct lr_node *n, int t, void *out)
{
	switch (t) {
	case LD_T_U64: ((struct ld_uint *)out)->v = n->u; break;
	case LD_T_I64: ((struct ld_int *)out)->v = n->neg ? n->i : (int64_t)n->u; break;
	case LD_T_BOOL: ((struct ld_bool *)out)->v = n->b; break;
	case LD_T_STR: ((struct ld_str *)out)->s = n->str; break;
	case LD_T_HEX32: hex32(n->str, &((struct ld_uint *)out)->v); break;
	case LD_T_HIST: ((struct ld_hist *)out)->node = n; break;
	case LD_T_PAIR:
		lr_uint(lr_at(n, 0), &((struct ld_pair *)out)->a);
		lr_uint(lr_at(n, 1), &((struct ld_pair *)out)->b);
		break;
	default: ((struct ld_num *)out)->v = n->d; break;
	}
}

/* The size of the value struct of type t. */
static size_t value_size(int t)
{
	switch (t) {
	case LD_T_U64:
	case LD_T_HEX32: return sizeof(struct ld_uint);
	case LD_T_I64: return sizeof(struct ld_int);
	case LD_T_BOOL: return sizeof(struct ld_bool);
	case LD_T_STR: return sizeof(struct ld_str);
	case LD_T_HIST: return sizeof(struct ld_hist);
	case LD_T_PAIR: return sizeof(struct ld_pair);
	default: return sizeof(struct ld_num);
	}
}

void ld_value(const struct lr_node *n, int t, void *out)
{
	memset(out, 0, value_size(t));
	if (!n)
		return;
	((struct ld_head *)out)->node = n; /* each value struct begins as struct ld_head does */
	if (n->kind == LR_NULL) {
		*(uint8_t *)out = LD_NULL;
	} else if (!type_ok(n, t)) {
		*(uint8_t *)out = LD_WRONG;
	} else {
		take_value(n, t, out);
		*(uint8_t *)out = LD_SET;
	}
}

/* ---- objects ----------------------------------------------------------------- */

static void note(struct ld_report *rep, const char *shape, const char *key, const char *what)
{
	if (rep && !rep->first[0])
		snprintf(rep->first, sizeof rep->first, "%s.%s: %s", shape, key ? key : "?", what);
}

/* The node of member m in obj: by key, or a TUPLE's item by position
 * (schema 1 wrote delta as an object: by key then). */
static const struct lr_node *member_node(const struct lr_node *obj, const struct ld_member *m, size_t index)
{
	if (m->kind == LD_ITEM && obj->kind == LR_ARR)
		return lr_at(obj, index);
	return lr_get(obj, m->key);
}

static bool known_key(const struct ld_shape *s, const char *key)
{
	size_t k = strlen(key);

	if (s->kind == LD_RECORD && (!strcmp(key, "type") || !strcmp(key, "seq") || !strcmp(key, "crc")))
		return true;
	for (size_t i = 0; i < s->n; i++) {
		const struct ld_member *m = &s->members[i];
		size_t sl = strlen(m->key);
		if (m->kind == LD_SUFFIXED ? k > sl && !strcmp(key + k - sl, m->key) : !strcmp(key, m->key))
			return true;
	}
	return false;
}

static unsigned unknown_members(const struct lr_node *n, const struct ld_shape *s, struct ld_report *rep)
{
	unsigned u = 0;

	if (n->kind != LR_OBJ)
		return 0;
	for (const struct lr_node *c = n->child; c; c = c->next)
		if (c->key && !known_key(s, c->key)) {
			u++;
			note(rep, s->name, c->key, "not in the schema");
		}
	return u;
}

static void list_of(const struct lr_node *n, int kind, struct ld_list *l)
{
	bool ok = kind == LD_MAP || kind == LD_COLUMNS ? n->kind == LR_OBJ || (kind == LD_COLUMNS && n->kind == LR_ARR)
						       : n->kind == LR_ARR;

	l->node = n;
	l->state = n->kind == LR_NULL ? LD_NULL : ok ? LD_SET : LD_WRONG;
	l->n = ok ? n->len : 0;
}

static unsigned decode_member(const struct lr_node *n, const struct ld_member *m, void *field, struct ld_report *rep)
{
	uint8_t state;

	if (m->kind == LD_SUFFIXED || !n)
		return 0;
	if (m->kind == LD_OBJECT)
		return ld_decode(n, m->child, field, rep);
	if (m->kind == LD_FIELD || m->kind == LD_ITEM) {
		ld_value(n, m->type, field);
		state = *(uint8_t *)field;
	} else {
		list_of(n, m->kind, field);
		state = ((struct ld_list *)field)->state;
	}
	return state == LD_WRONG;
}

unsigned ld_decode(const struct lr_node *n, const struct ld_shape *s, void *out, struct ld_report *rep)
{
	struct ld_head *head = out; /* every shape's struct begins with it */
	unsigned n_wrong = 0;
	bool ok;

	memset(out, 0, s->size);
	if (!n)
		return 0;
	head->node = n;
	ok = s->kind == LD_TUPLE ? n->kind == LR_ARR || n->kind == LR_OBJ : n->kind == LR_OBJ;
	head->state = n->kind == LR_NULL ? LD_NULL : ok ? LD_SET : LD_WRONG;
	if (head->state != LD_SET) {
		n_wrong = head->state == LD_WRONG;
		if (n_wrong)
			note(rep, s->name, NULL, "not an object of the schema's shape");
	} else {
		for (size_t i = 0; i < s->n; i++) {
			const struct ld_member *m = &s->members[i];
			unsigned w = decode_member(member_node(n, m, i), m, (char *)out + m->offset, rep);
			if (w)
				note(rep, s->name, m->key, "of another JSON type");
			n_wrong += w;
		}
	}
	if (rep) {
		rep->wrong += n_wrong;
		rep->unknown += unknown_members(n, s, rep);
	}
	return n_wrong;
}

/* ---- rows, maps, families ------------------------------------------------------- */

size_t ld_rows(const struct ld_list *rows)
{
	const struct lr_node *n = rows->node;

	if (rows->state != LD_SET)
		return 0;
	if (n->kind == LR_ARR)
		return n->len;
	for (const struct lr_node *c = n->child; c; c = c->next) /* the longest column */
		if (c->kind == LR_ARR && c->len)
			return c->len;
	return 0;
}

void ld_row(const struct ld_list *rows, size_t i, const struct ld_shape *s, void *out)
{
	const struct lr_node *n = rows->node;

	memset(out, 0, s->size);
	if (rows->state != LD_SET || i >= ld_rows(rows))
		return;
	if (n->kind == LR_ARR) {
		ld_decode(lr_at(n, i), s, out, NULL);
		return;
	}
	((struct ld_head *)out)->state = LD_SET;
	((struct ld_head *)out)->node = n;
	for (size_t k = 0; k < s->n; k++) {
		const struct ld_member *m = &s->members[k];
		if (m->kind == LD_FIELD)
			ld_value(lr_at(lr_get(n, m->key), i), m->type, (char *)out + m->offset);
	}
}

const char *ld_map_name(const struct ld_list *map, size_t i)
{
	const struct lr_node *c = map->state == LD_SET ? map->node->child : NULL;

	for (; c && i; c = c->next)
		i--;
	return c ? c->key : NULL;
}

const struct lr_node *ld_map_node(const struct ld_list *map, size_t i)
{
	const struct lr_node *c = map->state == LD_SET ? map->node->child : NULL;

	for (; c && i; c = c->next)
		i--;
	return c;
}

const struct lr_node *ld_map_get(const struct ld_list *map, const char *name)
{
	return map->state == LD_SET ? lr_get(map->node, name) : NULL;
}

const struct lr_node *ld_suffixed(const struct lr_node *obj, const char *name, const char *suffix)
{
	char key[128];

	if (snprintf(key, sizeof key, "%s%s", name, suffix) >= (int)sizeof key)
		return NULL;
	return lr_get(obj, key);
}

/* ---- checking a record whole ----------------------------------------------------- */

struct checker {
	int by;
	struct ld_report *rep;
	unsigned problems;
};

static void wrong(struct checker *k, const char *shape, const char *key, const char *what)
{
	k->problems++;
	k->rep->wrong++;
	note(k->rep, shape, key, what);
}

/* One value of type t; null is allowed where the schema says so. */
static void check_value(struct checker *k, const struct lr_node *n, int t, bool nullable, const char *shape,
			const char *key)
{
	if (n->kind == LR_NULL) {
		if (!nullable)
			wrong(k, shape, key, "null where the schema has no null");
		return;
	}
	if (!type_ok(n, t))
		wrong(k, shape, key, "of another JSON type");
}

static void check_shape(struct checker *k, const struct lr_node *n, const struct ld_shape *s);

/* The items of a list, a map or a family: each a value, null allowed. */
static void check_items(struct checker *k, const struct lr_node *n, const struct ld_member *m, const char *shape)
{
	for (const struct lr_node *c = n->child; c; c = c->next) {
		if (m->kind == LD_LIST_OF && c->kind != LR_NULL)
			check_shape(k, c, m->child);
		else if (m->kind != LD_LIST_OF)
			check_value(k, c, m->type, true, shape, m->key);
	}
}

static void check_columns(struct checker *k, const struct lr_node *n, const struct ld_member *m, const char *shape)
{
	const struct ld_shape *row = m->child;

	if (n->kind == LR_ARR) { /* rows: schema 1, or logderived.c's */
		for (const struct lr_node *c = n->child; c; c = c->next)
			check_shape(k, c, row);
		return;
	}
	for (const struct lr_node *col = n->child; col; col = col->next) {
		const struct ld_member *f = NULL;
		for (size_t i = 0; i < row->n; i++)
			if (!strcmp(row->members[i].key, col->key))
				f = &row->members[i];
		if (!f) {
			k->problems++;
			k->rep->unknown++;
			note(k->rep, row->name, col->key, "not in the schema");
		} else if (col->kind != LR_ARR) {
			wrong(k, shape, col->key, "a column that is no list");
		} else {
			for (const struct lr_node *c = col->child; c; c = c->next)
				check_value(k, c, f->type, true, row->name, f->key);
		}
	}
}

static void check_family(struct checker *k, const struct lr_node *obj, const struct ld_member *m, const char *shape)
{
	size_t sl = strlen(m->key);

	for (const struct lr_node *c = obj->child; c; c = c->next) {
		size_t kl = c->key ? strlen(c->key) : 0;
		if (kl <= sl || strcmp(c->key + kl - sl, m->key))
			continue;
		if (c->kind == LR_ARR)
			check_items(k, c, m, shape);
		else if (c->kind != LR_NULL)
			wrong(k, shape, c->key, "a family member that is no list");
	}
}

static bool written_by(const struct ld_member *m, int by)
{
	return (m->how == LD_W || m->how == LD_N) && (m->by == LD_ALL || m->by == by);
}

static void check_member(struct checker *k, const struct lr_node *obj, const struct ld_member *m, size_t index,
			 const char *shape)
{
	const struct lr_node *n = m->kind == LD_SUFFIXED ? NULL : member_node(obj, m, index);
	bool nullable = m->how == LD_N || m->how == LD_ON || m->how == LD_D;

	if (m->kind == LD_SUFFIXED) {
		check_family(k, obj, m, shape);
	} else if (!n) {
		if (written_by(m, k->by)) {
			k->problems++;
			k->rep->missing++;
			note(k->rep, shape, m->key, "missing");
		}
	} else if (n->kind == LR_NULL || m->kind == LD_FIELD || m->kind == LD_ITEM) {
		check_value(k, n, n->kind == LR_NULL ? LD_T_NONE : m->type, nullable, shape, m->key);
	} else if (m->kind == LD_OBJECT) {
		check_shape(k, n, m->child);
	} else if (m->kind == LD_COLUMNS) {
		check_columns(k, n, m, shape);
	} else if ((m->kind == LD_MAP ? n->kind != LR_OBJ : n->kind != LR_ARR)) {
		wrong(k, shape, m->key, "of another JSON type");
	} else {
		check_items(k, n, m, shape);
	}
}

static void check_shape(struct checker *k, const struct lr_node *n, const struct ld_shape *s)
{
	bool ok = s->kind == LD_TUPLE ? n->kind == LR_ARR || n->kind == LR_OBJ : n->kind == LR_OBJ;
	unsigned u;

	if (!ok) {
		wrong(k, s->name, NULL, "not an object of the schema's shape");
		return;
	}
	for (size_t i = 0; i < s->n; i++)
		check_member(k, n, &s->members[i], i, s->name);
	u = unknown_members(n, s, k->rep);
	k->rep->unknown += u;
	k->problems += u;
}

unsigned ld_check(const struct lr_node *n, const struct ld_shape *s, int by, struct ld_report *rep)
{
	struct ld_report spare;
	struct checker k = { by, rep ? rep : &spare, 0 };

	if (!rep)
		memset(&spare, 0, sizeof spare);
	if (n)
		check_shape(&k, n, s);
	return k.problems;
}
