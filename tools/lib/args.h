/* SPDX-License-Identifier: BSD-2-Clause */
/* Options and operands, read one way by every `tickprobe` subcommand.
 *
 * getopt_long underneath, with its own messages off.  --help and -h print the
 * help on stdout (exit 0).  Every usage error is one line on stderr,
 * "tickprobe NAME: what is wrong", and exit 1 (EXIT_USAGE).  Options may come
 * before, between or after the operands, whatever POSIXLY_CORRECT says;
 * "--" ends them; a long option may be shortened while that is unambiguous.
 * The operands are counted against what the subcommand takes: one too many
 * is an error, never dropped.  Numbers are read whole and range-checked.
 *
 * A subcommand describes itself once and reads its options so:
 *
 *	enum { OPT_JSON = ARGS_OPT_FIRST, OPT_RUN };
 *	static const struct option longopts[] = {
 *		{ "json", no_argument, NULL, OPT_JSON },
 *		{ "run", required_argument, NULL, OPT_RUN },
 *		ARGS_OPTIONS_END
 *	};
 *	static const struct args_spec spec = {
 *		.name = "show", .synopsis = "LOG... [--json] [--run N]",
 *		.help = "  What it does, one option a line.\n", .longopts = longopts,
 *		.operand = "LOG", .min_operands = 1, .max_operands = ARGS_MANY,
 *	};
 *	struct args a;
 *	int c;
 *
 *	args_start(&a, &spec, argc, argv);
 *	while ((c = args_next(&a)) > 0) {
 *		if (c == OPT_JSON)
 *			json = 1;
 *		else if (c == OPT_RUN && args_long(&a, 1, LONG_MAX, &run))
 *			return EXIT_USAGE;
 *	}
 *	if (c == ARGS_STOP)
 *		return a.status;
 *	... a.operands[0 .. a.noperands) ...
 *
 * Any later usage error the subcommand finds (two options that exclude each
 * other) goes through args_fail, so it reads like the rest. */
#ifndef TOOLS_LIB_ARGS_H
#define TOOLS_LIB_ARGS_H

#include <getopt.h>
#include <limits.h>
#include <stdio.h>

/* The exit statuses the log readers share (the numbers: tools/commands.h). */
#define ARGS_EXIT_TEXT \
	"Exit status: 0 clean, 1 usage error, 2 input unreadable, 3 input damaged but partly used.\n"

/* A long option's value is ARGS_OPT_FIRST or more, never a short option's
 * letter: that is how a long option's error is told from a short one's.
 * Give `-o` and `--output` two values and one case each.  Every table ends
 * with ARGS_OPTIONS_END, which adds --help. */
#define ARGS_OPT_HELP 256
#define ARGS_OPT_FIRST 257
#define ARGS_OPTIONS_END { "help", no_argument, NULL, ARGS_OPT_HELP }, { NULL, 0, NULL, 0 }

#define ARGS_MANY INT_MAX /* max_operands: no limit */

/* What args_next returns besides an option's value. */
#define ARGS_DONE 0    /* options read, operands counted and within bounds */
#define ARGS_STOP (-1) /* help printed, or a usage error reported: return a.status */

struct args_spec {
	const char *name;              /* "show": messages start "tickprobe show: " */
	const char *synopsis;          /* after "usage: tickprobe NAME " */
	const char *help;              /* the rest of --help, before the exit statuses */
	const char *exits;             /* the exit-status paragraph; NULL: ARGS_EXIT_TEXT */
	const char *shortopts;         /* getopt's letters ("o:c:"); NULL: none; -h is added */
	const struct option *longopts; /* ends with ARGS_OPTIONS_END; NULL: --help only */
	const char *operand;           /* what an operand is, in messages: "LOG" */
	int min_operands, max_operands; /* both 0: takes none; ARGS_MANY: no limit */
	int stop_at_operand;           /* options only before the first operand (ministat's rule) */
	int passthrough;               /* what follows "--" is passed on, not operands (qemu) */
	int help_on_error;             /* a usage error is followed by the help on stderr (ministat) */
};

struct args {
	const struct args_spec *spec;
	int argc;
	char **argv;
	FILE *out, *err;     /* stdout and stderr; a test may point them elsewhere */
	char *value;         /* the argument of the option args_next just returned, or NULL */
	char opt[40];        /* that option as messages name it: "--run", "-c" */
	char **operands;     /* set when args_next returns ARGS_DONE, in the order given */
	int noperands;
	char **passed;       /* with spec->passthrough: the arguments after "--" */
	int npassed;
	int status;          /* after ARGS_STOP: EXIT_CLEAN (help) or EXIT_USAGE */
	/* args_next's own */
	char shortopts[64];
	int nkept;           /* operands moved down to argv[1 ..] so far */
	int broken;          /* the spec breaks a rule above: reported at args_next */
};

void args_start(struct args *a, const struct args_spec *spec, int argc, char **argv);

/* The next option's value (a letter or an OPT_ constant, with a->value and
 * a->opt set), or ARGS_DONE, or ARGS_STOP.  Handles --help, unknown options,
 * missing or unwanted values and the operand count itself. */
int args_next(struct args *a);

/* "tickprobe NAME: " and the message on one line, on a->err; returns
 * EXIT_USAGE, so `return args_fail(&a, ...)` ends the subcommand. */
int args_fail(const struct args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --help's text: "usage: tickprobe NAME SYNOPSIS", the help, the exit statuses. */
void args_help(const struct args_spec *spec, FILE *f);

/* The current option's value as a whole number in [lo, hi], a number in
 * [lo, hi], a confidence level (80, 90, 95, 98, 99, 99.5: *index for
 * tools/lib/stats.h), or one of the NULL-terminated words in choices (*index
 * its position; index may be NULL).  Each returns 0, or EXIT_USAGE after
 * saying what it wants: "--run wants a whole number of at least 1, not 'x'". */
int args_long(struct args *a, long lo, long hi, long *out);
int args_double(struct args *a, double lo, double hi, double *out);
int args_conf(struct args *a, double *level, int *index);
int args_choice(struct args *a, const char *const *choices, int *index);

/* The same reading without a message, for a subcommand that words its own
 * (ministat's): strtol/strtod's syntax over the whole string. */
#define ARGS_NUM_OK 0
#define ARGS_NUM_BAD 1   /* empty, or not all of it a number */
#define ARGS_NUM_RANGE 2 /* a number, beyond what a long or a double holds */
int args_to_long(const char *s, long *v);
int args_to_double(const char *s, double *v);

#endif
