/* SPDX-License-Identifier: BSD-2-Clause */
/* A string as a JSON value on a stdio stream, for the commands' --json
 * outputs.  Well-formed UTF-8 (the host's own words: "1.7×", "±500 ppm")
 * goes out as it is; control bytes, DEL, any byte that is not part of
 * well-formed UTF-8 (a firmware string's raw bytes, which the probe's writer
 * escaped and the reader gave back) and the characters that steer a
 * terminal (tools/lib/textsafe.h) as \u00XX or \uXXXX, so the output is
 * always valid JSON and holds no raw control character. */
#ifndef TOOLS_LIB_JSON_OUT_H
#define TOOLS_LIB_JSON_OUT_H

#include <stdio.h>

/* s quoted and escaped; NULL is written as null. */
void json_out_str(FILE *o, const char *s);

#endif
