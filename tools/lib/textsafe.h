/* SPDX-License-Identifier: BSD-2-Clause */
/* Text from outside made safe to show: every string that a command prints
 * and did not write itself (a log's, the store's, a kernel log's, a sysfs
 * file's, a network peer's, a file name found in a directory) goes through
 * here, whether the output is a terminal, a file or a pipe.
 *
 * Shown as it is: printable ASCII (0x20-0x7e) and well-formed UTF-8 of any
 * other character, except the ones escaped below.
 * Escaped, so that no text can move the cursor, retitle or recolour a
 * terminal, forge a line of output or reorder what is shown around it:
 *   - a byte that is a C0 control (0x00-0x1f, tab and newline included),
 *     DEL (0x7f), or not part of well-formed UTF-8 (a lone 0x9b, which an
 *     8-bit terminal takes as CSI; an overlong form; a surrogate): "\xNN";
 *   - a well-formed character that is a C1 control (U+0080-U+009F: a UTF-8
 *     terminal may take U+009B as CSI too), a line or paragraph separator
 *     (U+2028, U+2029) or a bidirectional embedding, override or isolate
 *     (U+202A-U+202E, U+2066-U+2069: "Trojan Source"): "\uNNNN".
 * A backslash stays as it is: escaped text is for reading, and the JSON
 * outputs carry the exact strings.
 *
 * The same rule gives the JSON outputs their escapes (TS_JSON: a byte as
 * "\u00NN", the log format's own escape of a raw byte), the HTML pages theirs
 * (tools/report/html.c adds the entities) and the CSV cells theirs. */
#ifndef TOOLS_LIB_TEXTSAFE_H
#define TOOLS_LIB_TEXTSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TS_ESC_MAX 7 /* "\u2069" and its NUL */

/* What the commands' --help says about it. */
#define TS_HELP \
	"  Text from a log or a store (names, messages) is shown with its control\n" \
	"  characters escaped, ESC as \\x1b, U+009B as \\u009b (docs/log-format.md,\n" \
	"  \"Text from a log, shown\").\n"

enum ts_style {
	TS_TEXT, /* a byte as \xNN */
	TS_JSON, /* a byte as \u00NN, inside a JSON string */
};

/* How many bytes from s[0] may be shown as they are: up to the first byte
 * or character that is escaped, or n. */
size_t ts_plain(const char *s, size_t n);
/* s[0] (n > 0) starts what ts_plain stopped at: its escape into out, NUL-
 * terminated; returns how many bytes of s it stands for (1 to 3). */
size_t ts_escape(const char *s, size_t n, enum ts_style style, char out[TS_ESC_MAX]);

/* s[0..n), escaped, to o. */
void ts_write(FILE *o, const char *s, size_t n);
/* A NUL-terminated s, escaped, to o; nothing for NULL. */
void ts_puts(FILE *o, const char *s);

/* s escaped into buf (cap >= 4), for a printf "%s" or a column: returns buf,
 * or NULL when s is NULL (so that a caller's default for a missing string
 * still applies).  Text that does not fit is cut after a whole escape or
 * character and ends in "...". */
const char *ts_str(char *buf, size_t cap, const char *s);
const char *ts_strn(char *buf, size_t cap, const char *s, size_t n);

/* One CSV cell of text: quoted, '"' doubled, escaped as above, and a cell
 * that begins with '=', '+', '-', '@', a tab or a carriage return gets a
 * leading "'" inside the quotes, so that a spreadsheet takes it as text,
 * never as a formula (OWASP's advice on CSV injection).  NULL: "". */
void ts_csv_cell(FILE *o, const char *s);

/* JSON text (a record as the log wrote it) copied to o with every byte or
 * character that ts_plain stops at written as a JSON escape (TS_JSON), but
 * for tab, newline and carriage return, which in valid JSON are blanks
 * between tokens.  Outside its strings valid JSON is ASCII, so only strings
 * change, and only in how they are written: "\u0085" for U+0085, and for a
 * byte that is not UTF-8 the log format's own "\u00NN". */
void ts_json_copy(FILE *o, const char *json, size_t n);

#endif
