/* SPDX-License-Identifier: BSD-2-Clause */
/* json_out_str (tools/lib/json_out.h): the host's UTF-8 as it is, every
 * other byte outside printable ASCII and every character that steers a
 * terminal escaped, NULL as null. */
#include <stdlib.h>
#include <string.h>
#include "tests/unit/check.h"
#include "tools/lib/json_out.h"

static void one(const char *in, const char *want, const char *what)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *o = open_memstream(&buf, &n);

	json_out_str(o, in);
	fclose(o);
	check(COND(buf) && COND(!strcmp(buf, want)), "%s: got %s, want %s", what, buf ? buf : "(nothing)", want);
	free(buf);
}

int main(void)
{
	one(NULL, "null", "NULL");
	one("", "\"\"", "empty");
	one("a \"q\" \\ b", "\"a \\\"q\\\" \\\\ b\"", "quote and backslash");
	one("tab\there\n", "\"tab\\u0009here\\u000a\"", "control bytes");
	one("del\x7f", "\"del\\u007f\"", "DEL");
	one("1.7\xc3\x97 \xc2\xb1" "500", "\"1.7\xc3\x97 \xc2\xb1" "500\"", "UTF-8 two-byte");
	one("\xe2\x80\x94 \xf0\x9f\x95\x90", "\"\xe2\x80\x94 \xf0\x9f\x95\x90\"", "UTF-8 three- and four-byte");
	one("OEM\xc3", "\"OEM\\u00c3\"", "a lead byte at the end");
	one("\xc3(", "\"\\u00c3(\"", "a lead byte without its continuation");
	one("\xc0\x80", "\"\\u00c0\\u0080\"", "overlong NUL");
	one("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"", "a surrogate");
	one("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"", "past U+10FFFF");
	one("\x80\xff", "\"\\u0080\\u00ff\"", "bare continuation and 0xff");
	one("\x1b]0;PWNED\a", "\"\\u001b]0;PWNED\\u0007\"", "ESC and BEL, never raw");
	one("\xc2\x9b\xe2\x80\xae\xc2\xa0", "\"\\u009b\\u202e\xc2\xa0\"", "C1 CSI and RLO escaped, NBSP kept");
	return check_done();
}
