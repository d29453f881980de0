/* SPDX-License-Identifier: BSD-2-Clause */
/* crc32_update (lib/crc32.h): every entry of its written-out table against
 * the polynomial's eight bitwise steps, the standard check value, zlib's
 * crc32() on the same bytes, and a CRC continued across pieces. */
#include <string.h>
#include <zlib.h>
#include "lib/crc32.h"
#include "tests/unit/check.h"

/* The definition, one bit at a time. */
static uint32_t crc_bitwise(uint32_t crc, const unsigned char *p, size_t len)
{
	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ ((crc & 1u) ? 0xEDB88320u : 0u);
	}
	return ~crc;
}

int main(void)
{
	/* From crc = 0, the one byte b reads entry 0xff ^ b: all 256 entries. */
	int bad = 0, first_bad = -1;
	for (int b = 0; b < 256; b++) {
		unsigned char byte = (unsigned char)b;
		if (crc32_update(0, &byte, 1) != crc_bitwise(0, &byte, 1)) {
			bad++;
			if (first_bad < 0)
				first_bad = b;
		}
	}
	check(bad == 0, "one byte, every table entry: %d wrong (first at byte %d)", bad, first_bad);

	check(crc32_update(0, "123456789", 9) == 0xCBF43926u, "the check value of \"123456789\": %08x",
	      crc32_update(0, "123456789", 9));
	check(crc32_update(0, "", 0) == 0, "no bytes: 0");

	unsigned char buf[4096];
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof buf; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (unsigned char)(x >> 16);
	}
	uLong z = crc32(0L, buf, (uInt)sizeof buf);
	check(crc32_update(0, buf, sizeof buf) == (uint32_t)z, "4096 bytes: %08x, zlib says %08lx",
	      crc32_update(0, buf, sizeof buf), z);
	uint32_t parts = crc32_update(crc32_update(crc32_update(0, buf, 1), buf + 1, 1000), buf + 1001,
				      sizeof buf - 1001);
	check(parts == (uint32_t)z, "continued over three pieces: %08x", parts);
	return check_done();
}
