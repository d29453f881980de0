/* SPDX-License-Identifier: BSD-2-Clause */
/* The log reader's lowest layer (tools/lib/logread.c): its JSON parser, exact
 * with 64-bit integers and strict about everything else, and the cleaning of
 * a serial capture's line (terminal escapes, carriage returns). */
#include <stdint.h>
#include <string.h>
#include "tests/unit/check.h"
#include "tools/lib/logread.h"

static void test_json(void)
{
	static struct lr_node nodes[256];
	static char strs[1024];
	struct lr_doc d;
	const struct lr_node *r;
	static const char *const bad[] = {
		"{\"a\":1,}",
		"{\"a\":01}",
		"{\"a\":\"x}",
		"{\"a\":\"\x01\"}",
		"{\"a\":\"\\q\"}",
		"[tru]",
		"{} x",
		"{\"a\" 1}",
		"[1,,2]",
		"{\"a\":\"\\ud800\"}",
		"{\"a\":-}",
		"{\"a\":1.}",
		"",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
	};
	const char *ok = "{\"u\":18446744073709551615,\"i\":-9223372036854775808,\"f\":12.125,"
			 "\"e\":1.5e3,\"s\":\"a\\u00e9\\n\\\"\\ud83d\\ude00\",\"n\":null,\"t\":true,"
			 "\"a\":[1,[2,3],{}],\"z\":0}";
	uint64_t u;
	double v;

	lr_doc_init(&d, nodes, 256, strs, sizeof strs);
	r = lr_parse(&d, ok, strlen(ok));
	check(COND(r) && COND(r->kind == LR_OBJ) && COND(r->len == 9), "json: a record-like object parses (%s)",
	      d.err ? d.err : "ok");
	check(COND(lr_uint(lr_get(r, "u"), &u)) && COND(u == UINT64_MAX), "json: uint64 max kept exact");
	check(COND(lr_get(r, "i")) && COND(lr_get(r, "i")->is_int) && COND(lr_get(r, "i")->i == INT64_MIN),
	      "json: int64 min kept exact");
	check(COND(lr_num(lr_get(r, "f"), &v)) && COND(v == 12.125) && COND(!lr_get(r, "f")->is_int),
	      "json: 12.125 as a double");
	check(COND(lr_num(lr_get(r, "e"), &v)) && COND(v == 1500), "json: 1.5e3");
	check(COND(lr_str(lr_get(r, "s"))) && COND(!memcmp(lr_str(lr_get(r, "s")), "a\xe9\n\"\xf0\x9f\x98\x80", 9)),
	      "json: escapes: \\u00e9 is the byte 0xe9, a surrogate pair is UTF-8");
	check(COND(lr_get(r, "n")->kind == LR_NULL) && COND(lr_true(lr_get(r, "t"))), "json: null, true");
	check(COND(lr_at(lr_at(lr_get(r, "a"), 1), 1)->u == 3) && COND(lr_at(lr_get(r, "a"), 2)->kind == LR_OBJ),
	      "json: nesting");
	check(COND(!lr_get(r, "missing")) && COND(lr_path(r, "a") == lr_get(r, "a")), "json: lookups");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		r = lr_parse(&d, bad[i], strlen(bad[i]));
		check(COND(!r) && COND(d.err), "json: rejects '%.20s' (%s)", bad[i], d.err ? d.err : "accepted");
	}
	lr_doc_init(&d, nodes, 3, strs, sizeof strs);
	check(COND(!lr_parse(&d, "[1,2,3,4]", 9)) && COND(d.err),
	      "json: node pool exhaustion is an error, not a crash");
}

static void test_clean(void)
{
	static const struct {
		const char *in, *out;
	} c[] = {
		{ "\x1b[2J\x1b[01;01H\x1b[=3h{\"a\":1}\r", "{\"a\":1}" },
		{ "\x1b=3h{x}\r\r", "{x}" },
		{ "\x1b(Bok\x1b", "ok" },
		{ "\x1b]0;title\x07{y}", "{y}" },
		{ "\x1b{z}", "{z}" },
		{ "BdsDxe: loading\r", "BdsDxe: loading" },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char b[64];
		size_t n = strlen(c[i].in);
		memcpy(b, c[i].in, n);
		n = lr_clean_line(b, n);
		check(COND(n == strlen(c[i].out)) && COND(!memcmp(b, c[i].out, n)), "clean: case %zu gives '%s'", i,
		      c[i].out);
	}
}

int main(void)
{
	test_json();
	test_clean();
	return check_done();
}
