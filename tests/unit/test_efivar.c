/* SPDX-License-Identifier: BSD-2-Clause */
/* tools/schedule/efivar.c: a Boot#### load option encoded and decoded again,
 * every cut-short copy of it refused, and efivarfs-style files written and
 * read back in a temporary directory.  tests/remote/test_schedule.sh checks
 * the bytes against an independent encoding. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/check.h"
#include "tools/schedule/efivar.h"

static const struct efi_partition esp = {
	.number = 1, .start = 2048, .size = 65536,
	.guid = { 0xaf, 0x3d, 0xc6, 0x0f, 0x83, 0x84, 0x72, 0x47, 0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4 },
};

static void round_trip(void)
{
	uint8_t buf[1024];
	struct load_option o;
	char g[37];
	size_t n = load_option_encode(buf, sizeof buf, LOAD_OPTION_ACTIVE, "tickprobe", &esp,
				      "\\EFI\\tickprobe\\tickprobe.efi", "preset=quick after=reboot");
	/* 6 + 20 (description) + 42 (HD) + 62 (file) + 4 (end) + 52 (options) */
	check(n == 186, "encode: 186 bytes (got %zu)", n);
	check(COND(buf[4] == 108) && COND(buf[5] == 0), "FilePathListLength 108: HD 42 + file 62 + end 4 (got %u)",
	      buf[4] | buf[5] << 8);
	check(load_option_decode(buf, n, &o), "decode: the encoding is read back");
	efi_guid_text(o.part.guid, g);
	check(COND(o.attributes == 1) && COND(!strcmp(o.description, "tickprobe")) && COND(o.has_partition) &&
		      COND(o.part.number == 1) && COND(o.part.start == 2048) && COND(o.part.size == 65536) &&
		      COND(!strcmp(g, "0fc63daf-8483-4772-8e79-3d69d8477de4")),
	      "decode: attributes, description, HD(1,GPT,%s,0x800,0x10000)", g);
	check(COND(!strcmp(o.path, "\\EFI\\tickprobe\\tickprobe.efi")) &&
		      COND(!strcmp(o.options, "preset=quick after=reboot")),
	      "decode: the file path and the options ('%s', '%s')", o.path, o.options);
	for (size_t cut = 0; cut < n - 52; cut++)
		if (load_option_decode(buf, cut, &o)) {
			check(0, "decode: the first %zu bytes were taken for a load option", cut);
			return;
		}
	check(1, "decode: every copy cut before the options' start is refused");
	check(load_option_encode(buf, 60, LOAD_OPTION_ACTIVE, "tickprobe", &esp, "\\EFI\\x.efi", "") == 0,
	      "encode: 0 when it does not fit");
	check(load_option_encode(buf, sizeof buf, LOAD_OPTION_ACTIVE, "tick\xe9", &esp, "\\EFI\\x.efi", "") == 0,
	      "encode: 0 for a text that is not printable ASCII");
	n = load_option_encode(buf, sizeof buf, LOAD_OPTION_ACTIVE, "UiApp", &esp, "\\x.efi", "");
	/* 3 bytes of binary data, as OVMF's GUID tag */
	buf[n++] = 0x11;
	buf[n++] = 0x40;
	buf[n++] = 0x70;
	check(COND(load_option_decode(buf, n, &o)) && COND(!o.options[0]),
	      "decode: optional data that is not text is no options");
}

static void files(void)
{
	char dir[] = "/tmp/test_efivar.XXXXXX", why[256];
	uint8_t data[8] = { 3, 0 }, back[16];
	uint16_t nums[8];
	size_t n = 0;
	uint32_t attrs = 0;

	if (!mkdtemp(dir)) {
		check(0, "mkdtemp");
		return;
	}
	check(COND(efivar_write(dir, "Boot000A", EFIVAR_NV_BS_RT, data, 6, why, sizeof why) == 0) &&
		      COND(efivar_write(dir, "Boot0002", EFIVAR_NV_BS_RT, data, 6, why, sizeof why) == 0) &&
		      COND(efivar_write(dir, "BootNext", EFIVAR_NV_BS_RT, data, 2, why, sizeof why) == 0),
	      "write: Boot000A, Boot0002, BootNext");
	check(COND(efivar_write(dir, "Boot000A", EFIVAR_NV_BS_RT, data, 2, why, sizeof why) == 0) &&
		      COND(efivar_read(dir, "Boot000A", back, sizeof back, &n, &attrs) == 0) && COND(n == 2) &&
		      COND(attrs == 7),
	      "write over a longer copy, read: 2 bytes, attributes 7 (got %zu, %u)", n, attrs);
	n = efivar_boot_entries(dir, nums, 8);
	check(COND(n == 2) && COND(nums[0] == 2) && COND(nums[1] == 10),
	      "Boot#### entries: 0002 and 000A, not BootNext (%zu)", n);
	check(COND(efivar_delete(dir, "Boot000A", why, sizeof why) == 0) &&
		      COND(efivar_delete(dir, "Boot0002", why, sizeof why) == 0) &&
		      COND(efivar_delete(dir, "BootNext", why, sizeof why) == 0) &&
		      COND(efivar_delete(dir, "BootNext", why, sizeof why) == 0),
	      "delete, twice: no error for one already gone");
	check(rmdir(dir) == 0, "nothing left in the directory");
}

int main(void)
{
	round_trip();
	files();
	return check_done();
}
