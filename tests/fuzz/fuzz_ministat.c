/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: `tickprobe stat` input reading (tools/stat/input.c).
 *
 * Input: two option bytes, then the file.
 *   byte 0: the column (-C), 1..8 from its low 3 bits, or a large one
 *           (1000000, the option's limit) when bit 3 is set
 *   byte 1: the delimiter set (-d): bits 0..4 pick from " \t", ",", ";",
 *           ":", "#"; none picked is the default " \t"; bits 5..7 add
 *           "\n", "\r", "." (odd sets that the option accepts)
 * The file is copied to an exact-size heap buffer plus the one spare byte the
 * parser is promised, so ASan sees any read past it. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tools/stat/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const pick[] = { " \t", ",", ";", ":", "#" };
	static const char *const odd[] = { "\n", "\r", "." };
	unsigned char delim[256] = { 0 };
	struct stat_values vals = { 0 };
	size_t bad = 0;
	char *buf;
	int column, rc, any = 0;

	if (size < 2)
		return 0;
	column = (data[0] & 8) ? 1000000 : 1 + (data[0] & 7);
	for (int i = 0; i < 5; i++) {
		if (data[1] & (1 << i)) {
			stat_input_delims(delim, pick[i]);
			any = 1;
		}
	}
	if (!any)
		stat_input_delims(delim, " \t");
	for (int i = 0; i < 3; i++)
		if (data[1] & (0x20 << i))
			stat_input_delims(delim, odd[i]);
	data += 2;
	size -= 2;

	buf = malloc(size + 1);
	memcpy(buf, data, size);
	rc = stat_input_parse(buf, size, delim, column, &vals, &bad);
	if (rc == STAT_INPUT_INVALID && (bad == 0 || bad > size + 1))
		abort(); /* the bad line must be a line of the input */
	if (rc == STAT_INPUT_OK && bad)
		abort();
	if (memcmp(buf, data, size))
		abort(); /* the input is given back unchanged */
	if (vals.n > vals.cap || (vals.n && !vals.v))
		abort();
	for (size_t i = 0; i < vals.n; i++)
		if (isnan(vals.v[i]) && !memchr(data, 'n', size) && !memchr(data, 'N', size))
			abort(); /* a NaN must have been written as one */
	free(vals.v);
	free(buf);
	return 0;
}
