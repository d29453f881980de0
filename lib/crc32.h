/* SPDX-License-Identifier: BSD-2-Clause */
/* CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320): the same value as
 * zlib's crc32() and Python's zlib.crc32(), so any reader can check a log. */
#ifndef LIB_CRC32_H
#define LIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC: start with crc = 0. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);

#endif
