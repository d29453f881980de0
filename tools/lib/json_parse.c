/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON reader behind tools/lib/logread.c: one document parsed into a
 * caller-given node pool (tools/lib/json_parse.h).  Freestanding, no allocation. */
#include "tools/lib/json_parse.h"
#include "lib/util.h"

struct parser {
	struct lr_doc *d;
	const char *s;
	size_t n, pos;
};

static bool fail(struct parser *p, const char *why)
{
	if (!p->d->err) {
		p->d->err = why;
		p->d->err_at = p->pos;
	}
	return false;
}

/* fail() for the readers that return a pointer: NULL. */
static void *fail_null(struct parser *p, const char *why)
{
	fail(p, why);
	return NULL;
}

static void blanks(struct parser *p)
{
	while (p->pos < p->n && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
				 p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static struct lr_node *new_node(struct parser *p)
{
	struct lr_node *n;
	if (p->d->used >= p->d->cap)
		return fail_null(p, "too many values");
	n = &p->d->nodes[p->d->used++];
	tp_memset(n, 0, sizeof *n);
	return n;
}

static bool put(struct parser *p, unsigned char c)
{
	if (p->d->strused >= p->d->strcap)
		return fail(p, "string space exhausted");
	p->d->strs[p->d->strused++] = (char)c;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

static bool hex4(struct parser *p, uint32_t *out)
{
	uint32_t v = 0;
	for (int k = 0; k < 4; k++) {
		int h = p->pos < p->n ? hexval(p->s[p->pos]) : -1;
		if (h < 0)
			return fail(p, "bad \\u escape");
		v = v << 4 | (uint32_t)h;
		p->pos++;
	}
	*out = v;
	return true;
}

static bool put_code(struct parser *p, uint32_t c)
{
	if (c < 0x100) /* \u0080..\u00ff are raw firmware bytes (lib/json.c) */
		return put(p, (unsigned char)c);
	if (c < 0x800)
		return put(p, (unsigned char)(0xc0 | c >> 6)) && put(p, (unsigned char)(0x80 | (c & 0x3f)));
	if (c < 0x10000)
		return put(p, (unsigned char)(0xe0 | c >> 12)) &&
		       put(p, (unsigned char)(0x80 | (c >> 6 & 0x3f))) &&
		       put(p, (unsigned char)(0x80 | (c & 0x3f)));
	return put(p, (unsigned char)(0xf0 | c >> 18)) && put(p, (unsigned char)(0x80 | (c >> 12 & 0x3f))) &&
	       put(p, (unsigned char)(0x80 | (c >> 6 & 0x3f))) && put(p, (unsigned char)(0x80 | (c & 0x3f)));
}

/* At the opening quote.  Returns the decoded string, NUL-terminated. */
static const char *string(struct parser *p, size_t *len)
{
	size_t start = p->d->strused;
	p->pos++;
	for (;;) {
		unsigned char c;
		if (p->pos >= p->n)
			return fail_null(p, "unterminated string");
		c = (unsigned char)p->s[p->pos++];
		if (c == '"')
			break;
		if (c < 0x20)
			return fail_null(p, "control character in string");
		if (c != '\\') {
			if (!put(p, c))
				return NULL;
			continue;
		}
		if (p->pos >= p->n)
			return fail_null(p, "unterminated string");
		c = (unsigned char)p->s[p->pos++];
		switch (c) {
		case '"': case '\\': case '/': break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u': {
			uint32_t u = 0, lo = 0;
			if (!hex4(p, &u))
				return NULL;
			if (u >= 0xdc00 && u < 0xe000)
				return fail_null(p, "lone low surrogate");
			if (u >= 0xd800 && u < 0xdc00) {
				if (p->pos + 2 > p->n || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
					return fail_null(p, "lone high surrogate");
				p->pos += 2;
				if (!hex4(p, &lo))
					return NULL;
				if (lo < 0xdc00 || lo >= 0xe000)
					return fail_null(p, "bad surrogate pair");
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			}
			if (!put_code(p, u))
				return NULL;
			continue;
		}
		default: return fail_null(p, "bad escape");
		}
		if (!put(p, c))
			return NULL;
	}
	*len = p->d->strused - start;
	if (!put(p, 0))
		return NULL;
	return p->d->strs + start;
}

static const double pow10_exact[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
				      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

/* Mantissa * 10^e.  Exact (one rounding) for mantissas below 2^53 and |e| <= 22,
 * which covers every number the writer produces (fixed decimals, <= 1e18). */
static double scale10(uint64_t mant, int e)
{
	double v = (double)mant;
	while (e > 22) { v *= 1e22; e -= 22; }
	while (e < -22) { v /= 1e22; e += 22; }
	return e >= 0 ? v * pow10_exact[e] : v / pow10_exact[-e];
}

static bool number(struct parser *p, struct lr_node *n)
{
	uint64_t mant = 0, ival = 0;
	int digits = 0, e10 = 0, exp = 0, esign = 1;
	bool neg = false, frac = false, big = false;

	n->kind = LR_NUM;
	if (p->s[p->pos] == '-') {
		neg = true;
		p->pos++;
	}
	if (p->pos >= p->n || p->s[p->pos] < '0' || p->s[p->pos] > '9')
		return fail(p, "bad number");
	if (p->s[p->pos] == '0' && p->pos + 1 < p->n && p->s[p->pos + 1] >= '0' && p->s[p->pos + 1] <= '9')
		return fail(p, "leading zero");
	while (p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
		unsigned dg = (unsigned)(p->s[p->pos++] - '0');
		if (ival > (UINT64_MAX - dg) / 10)
			big = true;
		else
			ival = ival * 10 + dg;
		if (digits < 19) {
			mant = mant * 10 + dg;
			digits += mant != 0;
		} else {
			e10++;
		}
	}
	if (p->pos < p->n && p->s[p->pos] == '.') {
		frac = true;
		p->pos++;
		if (p->pos >= p->n || p->s[p->pos] < '0' || p->s[p->pos] > '9')
			return fail(p, "bad fraction");
		while (p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
			unsigned dg = (unsigned)(p->s[p->pos++] - '0');
			if (digits < 19) {
				mant = mant * 10 + dg;
				digits += mant != 0;
				e10--;
			}
		}
	}
	if (p->pos < p->n && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
		frac = true;
		p->pos++;
		if (p->pos < p->n && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
			esign = p->s[p->pos++] == '-' ? -1 : 1;
		if (p->pos >= p->n || p->s[p->pos] < '0' || p->s[p->pos] > '9')
			return fail(p, "bad exponent");
		while (p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
			if (exp < 100000)
				exp = exp * 10 + (p->s[p->pos] - '0');
			p->pos++;
		}
	}
	n->d = scale10(mant, e10 + esign * exp);
	if (n->d > 1.7976931348623157e308)
		n->d = 1.7976931348623157e308; /* no inf: keep later arithmetic finite */
	if (neg)
		n->d = -n->d;
	if (!frac && !big) {
		if (!neg) {
			n->is_int = true;
			n->u = ival;
			n->i = ival <= (uint64_t)INT64_MAX ? (int64_t)ival : INT64_MAX;
		} else if (ival <= (uint64_t)INT64_MAX + 1) {
			n->is_int = true;
			n->neg = ival != 0;
			n->i = ival == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)ival;
		}
	}
	return true;
}

static bool literal(struct parser *p, const char *word)
{
	size_t k = tp_strlen(word);
	if (p->pos + k > p->n || tp_memcmp(p->s + p->pos, word, k))
		return fail(p, "unexpected character");
	p->pos += k;
	return true;
}

static struct lr_node *value(struct parser *p, int depth)
{
	struct lr_node *n, *last = NULL;
	char c;

	blanks(p);
	if (p->pos >= p->n)
		return fail_null(p, "unexpected end");
	if (!(n = new_node(p)))
		return NULL;
	c = p->s[p->pos];
	if (c == '{' || c == '[') {
		bool obj = c == '{';
		n->kind = obj ? LR_OBJ : LR_ARR;
		if (depth >= LR_DEPTH_MAX)
			return fail_null(p, "nested too deep");
		p->pos++;
		blanks(p);
		if (p->pos < p->n && p->s[p->pos] == (obj ? '}' : ']')) {
			p->pos++;
			return n;
		}
		for (;;) {
			const char *key = NULL;
			struct lr_node *m;
			size_t klen;
			if (obj) {
				blanks(p);
				if (p->pos >= p->n || p->s[p->pos] != '"')
					return fail_null(p, "expected a member name");
				if (!(key = string(p, &klen)))
					return NULL;
				blanks(p);
				if (p->pos >= p->n || p->s[p->pos] != ':')
					return fail_null(p, "expected ':'");
				p->pos++;
			}
			if (!(m = value(p, depth + 1)))
				return NULL;
			m->key = key;
			if (last)
				last->next = m;
			else
				n->child = m;
			last = m;
			n->len++;
			blanks(p);
			if (p->pos < p->n && p->s[p->pos] == ',') {
				p->pos++;
				continue;
			}
			if (p->pos < p->n && p->s[p->pos] == (obj ? '}' : ']')) {
				p->pos++;
				return n;
			}
			return fail_null(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		}
	}
	if (c == '"') {
		n->kind = LR_STR;
		return (n->str = string(p, &n->len)) ? n : NULL;
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		size_t at = p->pos;
		if (!number(p, n))
			return NULL;
		n->str = p->s + at; /* the number as written, for exact copies */
		n->len = p->pos - at;
		return n;
	}
	if (c == 't' || c == 'f') {
		n->kind = LR_BOOL;
		n->b = c == 't';
		return literal(p, n->b ? "true" : "false") ? n : NULL;
	}
	n->kind = LR_NULL;
	return literal(p, "null") ? n : NULL;
}

void lr_doc_init(struct lr_doc *d, struct lr_node *nodes, size_t ncap, char *strs, size_t scap)
{
	d->nodes = nodes;
	d->cap = ncap;
	d->used = 0;
	d->strs = strs;
	d->strcap = scap;
	d->strused = 0;
	d->err = NULL;
	d->err_at = 0;
}

const struct lr_node *lr_parse(struct lr_doc *d, const char *s, size_t n)
{
	struct parser p = { d, s, n, 0 };
	struct lr_node *root;
	d->used = d->strused = 0;
	d->err = NULL;
	d->err_at = 0;
	if (!(root = value(&p, 0)))
		return NULL;
	blanks(&p);
	if (p.pos != n)
		return fail_null(&p, "text after the value");
	return root;
}

const struct lr_node *lr_get(const struct lr_node *obj, const char *key)
{
	const struct lr_node *m;
	if (!obj || obj->kind != LR_OBJ)
		return NULL;
	for (m = obj->child; m; m = m->next)
		if (tp_streq(m->key, key))
			return m;
	return NULL;
}

const struct lr_node *lr_path(const struct lr_node *obj, const char *dotted)
{
	char part[64];
	while (obj && *dotted) {
		size_t k = 0;
		while (dotted[k] && dotted[k] != '.' && k + 1 < sizeof part) {
			part[k] = dotted[k];
			k++;
		}
		part[k] = 0;
		obj = lr_get(obj, part);
		dotted += k;
		if (*dotted == '.')
			dotted++;
	}
	return obj;
}

const struct lr_node *lr_at(const struct lr_node *arr, size_t i)
{
	const struct lr_node *m;
	if (!arr || arr->kind != LR_ARR)
		return NULL;
	for (m = arr->child; m && i; m = m->next)
		i--;
	return m;
}

bool lr_num(const struct lr_node *n, double *out)
{
	if (!n || n->kind != LR_NUM)
		return false;
	*out = n->d;
	return true;
}

bool lr_uint(const struct lr_node *n, uint64_t *out)
{
	if (!n || n->kind != LR_NUM || !n->is_int || n->neg)
		return false;
	*out = n->u;
	return true;
}

const char *lr_str(const struct lr_node *n) { return n && n->kind == LR_STR ? n->str : NULL; }
bool lr_true(const struct lr_node *n) { return n && n->kind == LR_BOOL && n->b; }
