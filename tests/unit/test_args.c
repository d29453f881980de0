/* SPDX-License-Identifier: BSD-2-Clause */
/* tools/lib/args.c in one process: operands kept in order and never
 * dropped, what each usage error says, the operand bounds, the number
 * readers at their edges, and a second scan after a first (getopt's state
 * is global). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tests/unit/check.h"

enum { OPT_FLAG = ARGS_OPT_FIRST, OPT_RUN, OPT_CPU, OPT_CDROM };

static const struct option test_options[] = {
	{ "flag", no_argument, NULL, OPT_FLAG },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "cdrom", no_argument, NULL, OPT_CDROM },
	ARGS_OPTIONS_END
};

static const struct args_spec many_spec = {
	.name = "t", .synopsis = "LOG... [--flag]", .help = "  help body\n", .shortopts = "o:A",
	.longopts = test_options, .operand = "LOG", .min_operands = 1, .max_operands = ARGS_MANY,
};
static const struct args_spec one_spec = {
	.name = "t", .longopts = test_options, .operand = "DEVICE", .min_operands = 1, .max_operands = 1,
};
static const struct args_spec three_spec = {
	.name = "t", .longopts = test_options, .operand = "LOG", .max_operands = 3,
};
static const struct args_spec none_spec = { .name = "t", .longopts = test_options };
static const struct args_spec pass_spec = { .name = "t", .shortopts = "n", .passthrough = 1 };
static const struct args_spec posix_spec = { .name = "t", .shortopts = "AB", .stop_at_operand = 1,
					     .operand = "file", .max_operands = ARGS_MANY };

/* One scan of words (argv[0] "t" is added); what it gave. */
struct scan {
	int last, status, noperands, npassed, nopts;
	char ops[16][24], passed[8][24], opts[16][48]; /* "-o=v", "--run=3", "--flag" */
	char err[512], out[512];
};

static void run(const struct args_spec *spec, struct scan *s, const char *const *words)
{
	char *argv[64], *ebuf = NULL, *obuf = NULL;
	size_t elen = 0, olen = 0;
	int argc = 1, c;
	struct args a;

	memset(s, 0, sizeof *s);
	argv[0] = (char *)"t";
	for (; *words && argc < 63; words++)
		argv[argc++] = (char *)*words; /* getopt moves pointers, never writes the strings */
	argv[argc] = NULL;
	args_start(&a, spec, argc, argv);
	a.err = open_memstream(&ebuf, &elen);
	a.out = open_memstream(&obuf, &olen);
	while ((c = args_next(&a)) > 0 && s->nopts < 16)
		snprintf(s->opts[s->nopts++], sizeof s->opts[0], "%s%s%s", a.opt, a.value ? "=" : "",
			 a.value ? a.value : "");
	s->last = c;
	s->status = a.status;
	if (c == ARGS_DONE) {
		for (int i = 0; i < a.noperands && i < 16; i++)
			snprintf(s->ops[s->noperands++], sizeof s->ops[0], "%s", a.operands[i]);
		for (int i = 0; i < a.npassed && i < 8; i++)
			snprintf(s->passed[s->npassed++], sizeof s->passed[0], "%s", a.passed[i]);
	}
	fclose(a.err);
	fclose(a.out);
	snprintf(s->err, sizeof s->err, "%s", ebuf ? ebuf : "");
	s->err[strcspn(s->err, "\n")] = 0; /* one line, or the first */
	snprintf(s->out, sizeof s->out, "%s", obuf ? obuf : "");
	free(ebuf);
	free(obuf);
}

static int said(const struct scan *s, const char *line)
{
	return s->last == ARGS_STOP && s->status == EXIT_USAGE && !strcmp(s->err, line);
}

static void test_order(void)
{
	struct scan s;
	static const char *const mixed[] = { "a", "--flag", "b", "-o", "v", "--run=3", "c", "--", "-d", "--flag", NULL };

	run(&many_spec, &s, mixed);
	check(COND(s.last == ARGS_DONE) && COND(s.noperands == 5) && COND(!strcmp(s.ops[0], "a")) &&
		      COND(!strcmp(s.ops[1], "b")) && COND(!strcmp(s.ops[2], "c")) && COND(!strcmp(s.ops[3], "-d")) &&
		      COND(!strcmp(s.ops[4], "--flag")),
	      "operands in the order given, those after -- too (%d: %s %s %s %s %s)", s.noperands, s.ops[0], s.ops[1],
	      s.ops[2], s.ops[3], s.ops[4]);
	check(COND(s.nopts == 3) && COND(!strcmp(s.opts[0], "--flag")) && COND(!strcmp(s.opts[1], "-o=v")) &&
		      COND(!strcmp(s.opts[2], "--run=3")),
	      "options between operands, each named and with its value (%s %s %s)", s.opts[0], s.opts[1], s.opts[2]);
	setenv("POSIXLY_CORRECT", "1", 1);
	run(&many_spec, &s, mixed);
	unsetenv("POSIXLY_CORRECT");
	check(COND(s.last == ARGS_DONE) && COND(s.noperands == 5) && COND(s.nopts == 3),
	      "POSIXLY_CORRECT does not stop the scan at the first operand (%d operands, %d options)", s.noperands,
	      s.nopts);

	static const char *const posix[] = { "-A", "f", "-B", NULL };
	run(&posix_spec, &s, posix);
	check(COND(s.last == ARGS_DONE) && COND(s.nopts == 1) && COND(s.noperands == 2) &&
		      COND(!strcmp(s.ops[1], "-B")),
	      "stop_at_operand: the first operand ends the options, as in ministat");

	static const char *const shortened[] = { "--fl", "x", NULL };
	run(&many_spec, &s, shortened);
	check(COND(s.last == ARGS_DONE) && COND(s.nopts == 1) && COND(!strcmp(s.opts[0], "--flag")),
	      "a shortened long option is named in full (%s)", s.opts[0]);
}

static void test_passthrough(void)
{
	struct scan s;
	static const char *const after[] = { "-n", "--", "-S", "x", NULL };
	static const char *const first[] = { "--", "-S", NULL };
	static const char *const stray[] = { "-n", "x", "--", "-S", NULL };
	static const char *const plain[] = { "-n", NULL };

	run(&pass_spec, &s, after);
	check(COND(s.last == ARGS_DONE) && COND(s.npassed == 2) && COND(!strcmp(s.passed[0], "-S")) &&
		      COND(!strcmp(s.passed[1], "x")) && COND(!s.noperands),
	      "passthrough: what follows -- is passed on, not read");
	run(&pass_spec, &s, first);
	check(COND(s.last == ARGS_DONE) && COND(s.npassed == 1) && COND(!strcmp(s.passed[0], "-S")),
	      "passthrough: -- as the first word");
	run(&pass_spec, &s, stray);
	check(said(&s, "tickprobe t: unexpected operand 'x': t takes none; what follows -- is passed on "
		       "(see tickprobe t --help)"), "passthrough: an operand before -- is refused: %s", s.err);
	run(&pass_spec, &s, plain);
	check(COND(s.last == ARGS_DONE) && COND(!s.npassed) && COND(!s.passed[0][0]),
	      "passthrough: no -- passes nothing");
}

static void test_errors(void)
{
	static const struct { const char *words[4]; const char *line; } cases[] = {
		{ { "x", "--bogus" }, "tickprobe t: unknown option '--bogus' (see tickprobe t --help)" },
		{ { "x", "--bogus=1" }, "tickprobe t: unknown option '--bogus=1' (see tickprobe t --help)" },
		{ { "x", "-z" }, "tickprobe t: unknown option '-z' (see tickprobe t --help)" },
		{ { "x", "-Az" }, "tickprobe t: unknown option '-z' (see tickprobe t --help)" },
		{ { "x", "-zA" }, "tickprobe t: unknown option '-z' (see tickprobe t --help)" },
		{ { "x", "--run" }, "tickprobe t: option '--run' needs a value (see tickprobe t --help)" },
		{ { "x", "-o" }, "tickprobe t: option '-o' needs a value (see tickprobe t --help)" },
		{ { "x", "--flag=1" }, "tickprobe t: option '--flag' takes no value (see tickprobe t --help)" },
		{ { "x", "--c" }, "tickprobe t: ambiguous option '--c' (--cpu, --cdrom) (see tickprobe t --help)" },
		{ { "--flag" }, "tickprobe t: no LOG given (see tickprobe t --help)" },
	};
	struct scan s;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		run(&many_spec, &s, cases[i].words);
		check(said(&s, cases[i].line), "%s %s: %s", cases[i].words[0], cases[i].words[1] ? cases[i].words[1] : "",
		      s.err);
	}
	static const char *const two[] = { "a", "b", NULL };
	run(&one_spec, &s, two);
	check(said(&s, "tickprobe t: extra operand 'b': t takes one DEVICE (see tickprobe t --help)"),
	      "one DEVICE: a second is refused: %s", s.err);
	static const char *const four[] = { "a", "b", "c", "d", NULL };
	run(&three_spec, &s, four);
	check(said(&s, "tickprobe t: extra operand 'd': t takes at most 3 LOGs (see tickprobe t --help)"),
	      "at most 3: the fourth is refused: %s", s.err);
	run(&three_spec, &s, four + 1);
	check(COND(s.last == ARGS_DONE) && COND(s.noperands == 3), "at most 3: three are taken");
	run(&none_spec, &s, two);
	check(said(&s, "tickprobe t: unexpected operand 'a': t takes none (see tickprobe t --help)"),
	      "none: an operand is refused: %s", s.err);
}

static void test_help(void)
{
	static const char *const help[] = { "--help", "--bogus", NULL };
	static const char *const h[] = { "x", "-h", NULL };
	static const char *const late[] = { "--bogus", "--help", NULL };
	struct scan s;

	run(&many_spec, &s, help);
	check(COND(s.last == ARGS_STOP) && COND(s.status == EXIT_CLEAN) && COND(!s.err[0]) &&
		      COND(!strcmp(s.out, "usage: tickprobe t LOG... [--flag]\n  help body\n" ARGS_EXIT_TEXT)),
	      "--help: the usage, help and exit statuses on stdout, exit 0, before a later error");
	run(&many_spec, &s, h);
	check(COND(s.last == ARGS_STOP) && COND(s.status == EXIT_CLEAN) &&
		      COND(!strncmp(s.out, "usage: tickprobe t ", 19)),
	      "-h is --help");
	run(&many_spec, &s, late);
	check(COND(said(&s, "tickprobe t: unknown option '--bogus' (see tickprobe t --help)")) && COND(!s.out[0]),
	      "an error before --help is the error");
}

static void test_broken_specs(void)
{
	static const struct option letter[] = { { "out", required_argument, NULL, 'o' }, ARGS_OPTIONS_END };
	static const struct option no_help[] = { { "flag", no_argument, NULL, OPT_FLAG }, { NULL, 0, NULL, 0 } };
	static const struct args_spec s1 = { .name = "t", .shortopts = "o:", .longopts = letter };
	static const struct args_spec s2 = { .name = "t", .longopts = no_help };
	static const char *const none[] = { NULL };
	struct scan s;

	run(&s1, &s, none);
	check(COND(s.last == ARGS_STOP) && COND(s.status == EXIT_USAGE) && COND(strstr(s.err, "internal error")),
	      "a long option with a letter's value is refused as a programming error");
	run(&s2, &s, none);
	check(COND(s.last == ARGS_STOP) && COND(s.status == EXIT_USAGE) && COND(strstr(s.err, "internal error")),
	      "a table without ARGS_OPTIONS_END is refused as a programming error");
}

/* One option with value v through a number reader; the message, if any. */
static int value_of(const char *v, int (*reader)(struct args *, void *), void *out, char *msg, size_t cap)
{
	struct args a;
	char *buf = NULL;
	size_t len = 0;
	int rc;
	char *argv[] = { (char *)"t", (char *)"--run", (char *)v, NULL };

	args_start(&a, &none_spec, 3, argv);
	a.err = open_memstream(&buf, &len);
	rc = args_next(&a) == OPT_RUN ? reader(&a, out) : -1;
	fclose(a.err);
	snprintf(msg, cap, "%s", buf ? buf : "");
	msg[strcspn(msg, "\n")] = 0;
	free(buf);
	return rc;
}

static int read_run(struct args *a, void *out) { return args_long(a, 1, 10, out); }
static int read_pos(struct args *a, void *out) { return args_long(a, 0, LONG_MAX, out); }
static int read_secs(struct args *a, void *out) { return args_double(a, 0, 1e6, out); }
static int read_level(struct args *a, void *out)
{
	int ci = -1, rc = args_conf(a, out, &ci);
	return rc ? rc : ci;
}
static int read_word(struct args *a, void *out)
{
	static const char *const words[] = { "raw", "csv", "json", NULL };
	return args_choice(a, words, out);
}

static void test_numbers(void)
{
	static const struct { const char *s; int want; long v; } longs[] = {
		{ "42", ARGS_NUM_OK, 42 }, { "-3", ARGS_NUM_OK, -3 }, { "+7", ARGS_NUM_OK, 7 },
		{ "", ARGS_NUM_BAD, 0 }, { "4x", ARGS_NUM_BAD, 4 }, { "1.0", ARGS_NUM_BAD, 1 },
		{ "5 ", ARGS_NUM_BAD, 5 }, { "99999999999999999999", ARGS_NUM_RANGE, LONG_MAX },
		{ "-99999999999999999999", ARGS_NUM_RANGE, LONG_MIN },
	};
	static const struct { const char *s; int want; double v; } doubles[] = {
		{ "1.5", ARGS_NUM_OK, 1.5 }, { "1e3", ARGS_NUM_OK, 1000 }, { "1e-400", ARGS_NUM_OK, 0 },
		{ "1e400", ARGS_NUM_RANGE, 0 }, { "", ARGS_NUM_BAD, 0 }, { "2s", ARGS_NUM_BAD, 0 },
	};
	char msg[256];
	long l;
	double d;
	int i;

	for (size_t k = 0; k < sizeof longs / sizeof longs[0]; k++) {
		int r = args_to_long(longs[k].s, &l);
		check(COND(r == longs[k].want) && COND(r == ARGS_NUM_BAD || l == longs[k].v),
		      "args_to_long(\"%s\") = %d, %ld", longs[k].s, r, l);
	}
	check(args_to_long(NULL, &l) == ARGS_NUM_BAD, "args_to_long(NULL) is not a number");
	for (size_t k = 0; k < sizeof doubles / sizeof doubles[0]; k++) {
		int r = args_to_double(doubles[k].s, &d);
		check(COND(r == doubles[k].want) &&
			      COND(r != ARGS_NUM_OK || (d >= doubles[k].v && d <= doubles[k].v + 1e-300)),
		      "args_to_double(\"%s\") = %d, %g", doubles[k].s, r, d);
	}

	check(COND(!value_of("1", read_run, &l, msg, sizeof msg)) && COND(l == 1) &&
		      COND(!value_of("10", read_run, &l, msg, sizeof msg)) && COND(l == 10) && COND(!msg[0]),
	      "args_long: both ends of [1, 10] taken");
	check(COND(value_of("11", read_run, &l, msg, sizeof msg) == EXIT_USAGE) &&
		      COND(!strcmp(msg, "tickprobe t: --run wants a whole number from 1 to 10, not '11'")),
	      "args_long: 11 refused: %s", msg);
	check(value_of("0", read_run, &l, msg, sizeof msg) == EXIT_USAGE, "args_long: 0 refused");
	check(COND(value_of("99999999999999999999", read_pos, &l, msg, sizeof msg) == EXIT_USAGE) &&
		      COND(!strcmp(
			      msg,
			      "tickprobe t: --run wants a whole number of at least 0, not '99999999999999999999'")),
	      "args_long: beyond a long refused, not clamped: %s", msg);
	check(COND(!value_of("0.5", read_secs, &d, msg, sizeof msg)) && COND(d == 0.5), "args_double: 0.5 taken");
	check(COND(value_of("nan", read_secs, &d, msg, sizeof msg) == EXIT_USAGE) &&
		      COND(!strcmp(msg, "tickprobe t: --run wants a number from 0 to 1e+06, not 'nan'")),
	      "args_double: nan refused: %s", msg);
	check(value_of("inf", read_secs, &d, msg, sizeof msg) == EXIT_USAGE, "args_double: inf refused");
	i = value_of("99.5", read_level, &d, msg, sizeof msg);
	check(COND(i == 5) && COND(d == 99.5), "args_conf: 99.5 is level index 5 (%d)", i);
	check(COND(value_of("97", read_level, &d, msg, sizeof msg) == EXIT_USAGE) &&
		      COND(!strcmp(
			      msg,
			      "tickprobe t: --run wants a confidence level of 80, 90, 95, 98, 99 or 99.5, not '97'")),
	      "args_conf: 97 refused, the levels listed: %s", msg);
	i = -1;
	check(COND(!value_of("json", read_word, &i, msg, sizeof msg)) && COND(i == 2), "args_choice: json is word 2");
	check(COND(value_of("xml", read_word, &i, msg, sizeof msg) == EXIT_USAGE) &&
		      COND(!strcmp(msg, "tickprobe t: --run wants raw, csv or json, not 'xml'")),
	      "args_choice: xml refused, the words listed: %s", msg);
}

int main(void)
{
	test_order();
	test_passthrough();
	test_errors();
	test_help();
	test_broken_specs();
	test_numbers();
	return check_done();
}
