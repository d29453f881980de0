/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/crc32.h"

/* Bitwise, table-free: the log is at most tens of kilobytes, so the 8x cost
 * over a table is microseconds, and no 1 KiB table needs initialising. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;
	crc = ~crc;
	while (len--) {
		int k;
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}
