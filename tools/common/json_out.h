/* SPDX-License-Identifier: BSD-2-Clause */
/* A string as a JSON value on a stdio stream, for the commands' --json
 * outputs.  Escaped as the probe's own writer escapes (lib/json.c): every
 * byte below 0x20 and from 0x7f up as \u00XX, so the output stays ASCII and
 * gives back the very bytes it was handed. */
#ifndef TOOLS_COMMON_JSON_OUT_H
#define TOOLS_COMMON_JSON_OUT_H

#include <stdio.h>

/* s quoted and escaped; NULL is written as null. */
void json_out_str(FILE *o, const char *s);

#endif
