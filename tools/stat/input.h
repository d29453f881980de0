/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading `tickprobe stat` input: ministat's line rules turned into numbers.
 * Kept apart from the command so that a fuzz harness can drive it over
 * arbitrary bytes without a file. */
#ifndef TOOLS_STAT_INPUT_H
#define TOOLS_STAT_INPUT_H

#include <stddef.h>

struct stat_values {
	double *v; /* malloc'd; the caller frees */
	size_t n, cap;
};

/* Return values of stat_input_parse(). */
#define STAT_INPUT_OK 0
#define STAT_INPUT_INVALID (-1) /* a wanted column is not a number: *bad_line says where */
#define STAT_INPUT_NOMEM (-2)

/* Mark every character of `delim` (a NUL-terminated string) in set[256]. */
void stat_input_delims(unsigned char set[256], const char *delim);

/* The whole input of fd in one malloc'd buffer with room for one more byte
 * past *len (the parser needs it); NULL with errno set on failure. */
char *stat_input_slurp(int fd, size_t *len);

/* Append the values of column `column` (1-based) of buf[0, len) to out.
 * buf must be writable and have a byte at buf[len]; its bytes are restored
 * before return.  Lines are split on the characters marked in delim. */
int stat_input_parse(char *buf, size_t len, const unsigned char delim[256], int column,
		     struct stat_values *out, size_t *bad_line);

#endif
