/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: one self-contained HTML page from one or more logs.
 *
 * The page is built in parts, one file each: the frame, header and escaping
 * (html.c), one section per run (machine.c, its OS records machine_os.c),
 * the histograms as inline SVG (svg.c), the ministat-style comparisons
 * (compare.c) and the kernel's
 * clock calls over the bare hardware reads (lineup.c, its rows from
 * tools/lib/lineup.h), all in tools/report/.  Everything
 * printed from a log goes through rp_esc*: logs come from machines we do
 * not control. */
#ifndef TOOLS_REPORT_HTML_H
#define TOOLS_REPORT_HTML_H

#include <stdio.h>
#include <stddef.h>
#include "tools/lib/logset.h"
#include "tools/lib/logschema.h"

#define RP_MAX_LOGS 64
#define RP_MAX_KEYS 128
#define RP_KEY_LEN 128

struct rp_log {
	const struct lrun *run;
	int os;          /* begin.boot is "linux": a `tickprobe os` log */
	double hz;       /* tsc.hz, 0 when the log has none */
};

struct rp_ctx {
	FILE *out;
	const struct logfile *files;
	size_t nfiles;
	struct rp_log logs[RP_MAX_LOGS];
	size_t nlogs;
	char keys[RP_MAX_KEYS][RP_KEY_LEN]; /* timer keys, in order of first appearance */
	size_t nkeys;
	double conf;     /* confidence in percent */
	int ci;          /* its stats_conf_index */
	const char *title;
	const char *generated; /* "2025-01-31 12:00:00 UTC" */
};

/* Text for the page, in an element or in a double-quoted attribute: & < > "
 * ' become entities; what tools/lib/textsafe.h escapes (control characters,
 * bytes that are not UTF-8, C1 and bidirectional controls) is shown as \xNN
 * or \uNNNN; other UTF-8 passes. */
void rp_esc(FILE *o, const char *s);
void rp_esc_n(FILE *o, const char *s, size_t n);
/* A relative path for an href or src: every byte but ASCII letters, digits
 * and - . _ ~ / percent-encoded, so that no name can close the attribute,
 * add a query or fragment, or read as a scheme ("javascript:"); the result
 * needs no other escaping inside double quotes. */
void rp_url_path(FILE *o, const char *s);
/* Any JSON value as compact escaped text: strings bare, numbers as written,
 * bools yes/no, arrays "a, b", objects "k: v; …".  `none` for NULL or null. */
void rp_value(FILE *o, const struct lr_node *n, const char *none);
/* A number with `decimals` (negative: as written), or "–". */
void rp_num(FILE *o, const struct lr_node *n, int decimals);
/* An unsigned integer in hex ("0x608"), or `none`. */
void rp_hex(FILE *o, const struct lr_node *n, const char *none);
/* A decoded bool member that is there and true. */
int rp_true(const struct ld_bool *b);

/* An axis label: "2.5k", "-3M", "0.01" (cpus_svg.c). */
void rp_tick_text(char *b, size_t cap, double v);

/* The page's style sheet, shared with the fleet page. */
const char *rp_css(void);

/* The colour of log i (hex "#rrggbb"); the palette repeats after 8. */
const char *rp_colour(size_t i);
/* A small coloured square and "[i+1]": how the page names log i. */
void rp_swatch(FILE *o, size_t i);

/* Timer keys are logset's (lrun_timer_key, lrun_timer_by_key): an OS clock
 * call (it names a clocksource) is "os:NAME", every other timer just NAME. */
/* The key as shown: the name, with "(OS call)" for os: keys. */
void rp_key_label(FILE *o, const char *key);

/* The parts of the page, in order (page.c's table): the at-a-glance parts
 * first (the p50 table and the overlaid histograms), the details after. */
void rp_summary(const struct rp_ctx *c);             /* compare.c */
void rp_histograms(const struct rp_ctx *c);          /* svg.c */
void rp_compare(const struct rp_ctx *c);             /* compare.c */
/* Whether the page has the kernel-path section: some log is a `tickprobe
 * os` log and some other is not. */
int rp_has_lineup(const struct rp_ctx *c);           /* lineup.c */
void rp_lineup(const struct rp_ctx *c);              /* lineup.c */
void rp_machine(const struct rp_ctx *c, size_t i);   /* machine.c */

/* The whole page of a few runs, built in memory (page.c): the number
 * of runs on it (and of counters, into *ncounters when not NULL), or -1 when
 * no run has records. */
int rp_render(struct logfile *files, size_t nfiles, const char *title, double conf, int ci, char **page,
	      size_t *npage, size_t *ncounters);
/* A finished page to path ("-": stdout) in one go, through a temporary file
 * and a rename (in place for a device or a pipe); -1 on failure. */
int rp_write_file(const char *path, const char *data, size_t n);

/* "2025-01-31 12:00:00 UTC", for a page's "Generated" line: SOURCE_DATE_EPOCH,
 * when set, for reproducible pages; else now. */
void rp_now_text(char *buf, size_t cap);

#endif
