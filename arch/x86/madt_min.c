/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/x86/madt_min.h"
#include "probe/util.h"

#define MADT_MAX (16u * 1024) /* 256 x2APIC entries and the rest take under 5 KiB */
#define MADT_ENTRIES 44       /* header, local APIC address, flags */

static bool read_table(const struct acpi_mem *m, uint64_t addr, uint8_t *buf, uint32_t *len)
{
	if (m->read(m->ctx, addr, buf, ACPI_HEADER_LEN))
		return false;
	*len = tp_le32(buf + 4);
	if (*len < MADT_ENTRIES || *len > MADT_MAX)
		return false;
	return !m->read(m->ctx, addr, buf, *len) && !acpi_check_table(buf, *len, "APIC");
}

unsigned madt_min_cpus(const struct acpi_mem *m, const struct acpi_info *acpi, struct smp_cpu_desc *out,
		       unsigned max, const char **why)
{
	static const char no_madt[] = "no MADT with a good checksum";
	uint8_t root[ACPI_HEADER_LEN], ptr[8];
	uint8_t madt[MADT_MAX];
	unsigned esize = acpi->root == ACPI_ROOT_XSDT ? 8 : 4, n = 0;
	uint32_t len, rlen, off;

	*why = acpi->root == ACPI_ROOT_NONE ? "no ACPI table list" : no_madt;
	if (acpi->root == ACPI_ROOT_NONE || m->read(m->ctx, acpi->root_address, root, sizeof root))
		return 0;
	rlen = tp_le32(root + 4);
	for (off = ACPI_HEADER_LEN; off + esize <= rlen && off < ACPI_HEADER_LEN + esize * ACPI_ROOT_MAX_ENTRIES;
	     off += esize) {
		uint64_t addr;
		if (m->read(m->ctx, acpi->root_address + off, ptr, esize))
			break;
		addr = esize == 8 ? tp_le64(ptr) : tp_le32(ptr);
		if (!read_table(m, addr, madt, &len))
			continue;
		for (uint32_t p = MADT_ENTRIES; p + 2 <= len && madt[p + 1] >= 2 && p + madt[p + 1] <= len;
		     p += madt[p + 1]) {
			const uint8_t *e = madt + p;
			if (n < max && e[0] == 0 && e[1] >= 8)
				out[n++] = (struct smp_cpu_desc){ .apic_id = e[3], .enabled = tp_le32(e + 4) & 1 };
			else if (n < max && e[0] == 9 && e[1] >= 16)
				out[n++] = (struct smp_cpu_desc){ .apic_id = tp_le32(e + 4), .enabled = tp_le32(e + 8) & 1 };
		}
		*why = n ? NULL : "the MADT lists no processor";
		return n;
	}
	return 0;
}
