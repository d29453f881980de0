/* SPDX-License-Identifier: BSD-2-Clause */
/* Small helpers shared by every freestanding unit (probe/, acpi/acpi.c).
 * They exist so the same source compiles into the image, where there is no
 * libc, and into the host tools and tests, unchanged. */
#ifndef LIB_UTIL_H
#define LIB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

static inline void tp_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	while (n--)
		*d++ = (unsigned char)c;
}

static inline void tp_memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	while (n--)
		*d++ = *s++;
}

static inline int tp_memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}

static inline size_t tp_strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static inline bool tp_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* Little-endian loads from a byte buffer that may be unaligned (ACPI tables
 * and raw dumps make no alignment promises). */
static inline uint16_t tp_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t tp_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t tp_le64(const uint8_t *p) { return tp_le32(p) | (uint64_t)tp_le32(p + 4) << 32; }

#endif
