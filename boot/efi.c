/* SPDX-License-Identifier: BSD-2-Clause */
/* The UEFI path: a GNU-EFI application that finds what the BIOS path gets
 * from multiboot and a memory scan (options, the RSDP, the memory size), picks
 * a preset, and hands over to the same 64-bit core with boot services still
 * up.  crt0 calls efi_main with the SysV convention (it is not EFIAPI), and
 * every firmware call goes through uefi_call_wrapper. */
#include <efi.h>
#include <efilib.h>
#include <stdbool.h>
#include "arch/x86/cpu.h"
#include "platform/boot_info.h"
#include "arch/x86/smp.h"
#include "boot/efi_after.h"
#include "boot/efi_con.h"
#include "boot/efi_cpu.h"
#include "boot/efi_log.h"
#include "boot/efi_net.h"
#include "lib/fmt.h"
#include "probe/options.h"
#include "probe/presets.h"

/* The core gets the same 256 KiB stack as on the BIOS path (multiboot.S);
 * firmware stacks are smaller (EDK2's DXE stack is 128 KiB). */
#define STACK_PAGES 64
#define CMDLINE_MAX 768 /* a preset's 200 characters, then a 512-byte block's tp_options */
#define CFG_FILE_MAX PRESETS_FILE_MAX

/* The one struct this part owns. */
static struct {
	struct boot_info bi;
	struct presets cfg;
	char cmdline[CMDLINE_MAX];
	struct options opt; /* the boot's options, parsed once: boot_info.facts.opt */
	struct efi_log log;
	struct efi_after after;
	struct efi_net net;
} efi;

static EFI_GUID acpi20_guid = ACPI_20_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;

/* ACPI 2.0 first: its RSDP carries the XSDT (OVMF's is revision 2, and it
 * is not in the legacy 0xE0000 scan area at all). */
static uint64_t find_rsdp(void)
{
	EFI_GUID *want[2] = { &acpi20_guid, &acpi10_guid };
	UINTN i, k;
	for (k = 0; k < 2; k++)
		for (i = 0; i < ST->NumberOfTableEntries; i++)
			if (!CompareGuid(&ST->ConfigurationTable[i].VendorGuid, want[k]))
				return (uint64_t)(UINTN)ST->ConfigurationTable[i].VendorTable;
	return 0;
}

/* RAM the firmware knows of, in MiB, rounded: every type that is memory
 * rather than MMIO or a hole. */
static uint64_t memory_mib(void)
{
	UINTN n = 0, key, dsize;
	UINT32 dver;
	uint64_t pages = 0;
	EFI_MEMORY_DESCRIPTOR *map = LibMemoryMap(&n, &key, &dsize, &dver), *d;
	UINTN i;

	if (!map)
		return 0;
	for (i = 0, d = map; i < n; i++, d = NextMemoryDescriptor(d, dsize)) {
		switch (d->Type) {
		case EfiLoaderCode: case EfiLoaderData: case EfiBootServicesCode: case EfiBootServicesData:
		case EfiRuntimeServicesCode: case EfiRuntimeServicesData: case EfiConventionalMemory:
		case EfiACPIReclaimMemory: case EfiACPIMemoryNVS:
			pages += d->NumberOfPages;
			break;
		default:
			break;
		}
	}
	FreePool(map);
	return (pages * 4096 + (1u << 19)) >> 20;
}

/* Secure Boot from the global variables (UEFI 2.9, 3.3): SecureBoot 1 means
 * the firmware checks every image it starts against db and dbx.  SetupMode 1
 * means no Platform Key is enrolled: the firmware then checks nothing and
 * lets anyone enrol keys, so Secure Boot is off whatever SecureBoot says.
 * Firmware built without Secure Boot support has neither variable: unknown,
 * null in the begin record (Debian's OVMF.fd has them: false). */
static void read_secure_boot(struct boot_info *bi)
{
	EFI_GUID global = EFI_GLOBAL_VARIABLE;
	UINT8 on = 0, setup = 0;
	UINTN size = 1;

	if (uefi_call_wrapper(RT->GetVariable, 5, L"SecureBoot", &global, NULL, &size, &on) != EFI_SUCCESS || size != 1)
		return;
	bi->facts.secure_boot_known = true;
	bi->facts.secure_boot = on == 1;
	size = 1;
	if (uefi_call_wrapper(RT->GetVariable, 5, L"SetupMode", &global, NULL, &size, &setup) == EFI_SUCCESS &&
	    size == 1 && setup == 1)
		bi->facts.secure_boot = false;
}

/* The log file, unless log=none: its console takes records only, after the
 * serial line and the screen. */
static void open_log(EFI_LOADED_IMAGE *li)
{
	options_parse(&efi.opt, efi.bi.facts.cmdline);
	efi.bi.facts.opt = &efi.opt;
	if (!efi.opt.log_to_file) {
		efi.bi.facts.log_file_problem = "not asked for (log=none)";
	} else if (efi_log_open(&efi.log, li ? li->DeviceHandle : NULL)) {
		efi.bi.facts.log_file = efi.log.path;
		efi.bi.facts.log_volume = efi.log.volume;
		efi.bi.consoles[efi.bi.n_consoles++] = (struct console){ "file", efi_log_write, &efi.log, true, false };
	} else {
		efi.bi.facts.log_file_problem = efi.log.problem;
	}
	/* runs=N: the count goes beside the logs, on the same volume. */
	efi_series_start(&efi.after, efi.bi.facts.log_file ? efi.log.handle : NULL, efi.log.path, efi.opt.runs,
			 &efi.bi.facts.series, &efi.bi.facts.series_problem);
	efi.bi.after = &efi_after;
	efi.bi.after_ctx = &efi.after;
}

/* The network console, after the log file: the hello is said here, before
 * the begin record, which then tells where the records go (boot/efi_net.h). */
static void open_net(void)
{
	efi_net_open(&efi.net, &efi.opt);
	efi.bi.facts.net = efi.net.url[0] ? efi.net.url : NULL;
	efi.bi.facts.net_problem = efi.net.begin_problem[0] ? efi.net.begin_problem : NULL;
	if (efi.net.kind != EFI_NET_OFF && efi.bi.n_consoles < BOOT_MAX_CONSOLES)
		efi.bi.consoles[efi.bi.n_consoles++] = (struct console){ "net", efi_net_write, &efi.net, true, false };
}

static bool blank(char ch) { return ch == ' ' || ch == '\t'; }

/* The image's LoadOptions as ASCII options.  A boot manager entry may carry
 * binary data there (OVMF's own entries hold a 16-byte GUID), so anything that
 * is not printable UCS-2 text counts as no options.  The UEFI shell puts the
 * command as typed first ("fs0:\EFI\BOOT\BOOTX64.EFI preset=quick"): a first
 * word ending in ".efi" or holding a '\' or ':' is the path and is skipped. */
static bool load_options(EFI_LOADED_IMAGE *li, char *out, size_t cap)
{
	const CHAR16 *w = li->LoadOptions;
	UINTN n = li->LoadOptionsSize / sizeof(CHAR16), i, k = 0, first_end;
	bool path = false;

	if (!w || !n || li->LoadOptionsSize % sizeof(CHAR16))
		return false;
	for (i = 0; i < n && w[i]; i++) {
		if (w[i] != L'\t' && (w[i] < 0x20 || w[i] > 0x7e))
			return false;
		if (k + 1 < cap)
			out[k++] = (char)w[i];
	}
	out[k] = 0;
	for (i = 0; blank(out[i]); i++)
		;
	first_end = i;
	while (out[first_end] && !blank(out[first_end])) {
		if (out[first_end] == '\\' || out[first_end] == ':')
			path = true;
		first_end++;
	}
	if (first_end - i >= 4) {
		const char *x = out + first_end - 4;
		if (x[0] == '.' && (x[1] | 0x20) == 'e' && (x[2] | 0x20) == 'f' && (x[3] | 0x20) == 'i')
			path = true;
	}
	i = path ? first_end : i;
	while (blank(out[i]))
		i++;
	for (k = 0; out[i]; )
		out[k++] = out[i++];
	while (k && blank(out[k - 1]))
		k--;
	out[k] = 0;
	return k > 0;
}

/* "\EFI\BOOT\" from the image's file path nodes: the config files sit beside
 * the application, wherever it was copied to. */
static void image_dir(EFI_LOADED_IMAGE *li, CHAR16 *dir, UINTN cap)
{
	EFI_DEVICE_PATH *dp = li->FilePath;
	UINTN k = 0, slash = 0, i;

	for (; dp && !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp)) {
		FILEPATH_DEVICE_PATH *f = (FILEPATH_DEVICE_PATH *)dp;
		UINTN len;
		if (DevicePathType(dp) != MEDIA_DEVICE_PATH || DevicePathSubType(dp) != MEDIA_FILEPATH_DP)
			continue;
		len = (DevicePathNodeLength(dp) - SIZE_OF_FILEPATH_DEVICE_PATH) / sizeof(CHAR16);
		if (k && dir[k - 1] != L'\\' && k + 1 < cap)
			dir[k++] = L'\\';
		for (i = 0; i < len && f->PathName[i] && k + 1 < cap; i++)
			dir[k++] = f->PathName[i];
	}
	for (i = 0; i < k; i++)
		if (dir[i] == L'\\' || dir[i] == L'/')
			slash = i + 1;
	dir[slash] = 0;
	if (!slash)
		StrCpy(dir, L"\\EFI\\BOOT\\");
}

/* Reads dir + name from the volume the image came from; NULL if absent. */
static char *read_file(EFI_FILE_HANDLE root, const CHAR16 *dir, const CHAR16 *name, UINTN *len)
{
	CHAR16 path[256];
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	char *buf = NULL;
	UINTN size;

	if (StrLen(dir) + StrLen(name) + 1 > sizeof path / sizeof path[0])
		return NULL;
	StrCpy(path, dir);
	StrCat(path, name);
	if (uefi_call_wrapper(root->Open, 5, root, &f, path, EFI_FILE_MODE_READ, 0ull) != EFI_SUCCESS)
		return NULL;
	info = LibFileInfo(f);
	if (info && info->FileSize <= CFG_FILE_MAX) {
		size = info->FileSize;
		buf = AllocatePool(size + 1);
		if (buf && uefi_call_wrapper(f->Read, 3, f, &size, buf) == EFI_SUCCESS) {
			buf[size] = 0;
			*len = size;
		} else if (buf) {
			FreePool(buf);
			buf = NULL;
		}
	}
	if (info)
		FreePool(info);
	uefi_call_wrapper(f->Close, 1, f);
	return buf;
}

/* A network boot: tickprobe.cfg from the boot file's directory on the
 * server is the command line (no menu waits for a keyboard); without it
 * presets.cfg from there makes the menu.  True when tickprobe.cfg was there. */
static bool read_config_net(void)
{
	char *text;
	UINTN len = 0;

	if ((text = efi_net_fetch(&efi.net, "tickprobe.cfg", &len))) {
		static const char cut[] = "tickprobe: tickprobe.cfg from the boot server holds more words than fit "
					  "the command line (767 characters): the rest are ignored\n";
		if (!options_cfg_cmdline(text, len, efi.cmdline, sizeof efi.cmdline) && ST->ConOut)
			efi_screen_write(ST->ConOut, cut, sizeof cut - 1);
		FreePool(text);
		return true;
	}
	if ((text = efi_net_fetch(&efi.net, "presets.cfg", &len))) {
		presets_parse(&efi.cfg, text, len);
		FreePool(text);
	}
	return false;
}

static void read_config(EFI_LOADED_IMAGE *li)
{
	CHAR16 dir[200];
	EFI_FILE_HANDLE root = LibOpenRoot(li->DeviceHandle);
	char *text;
	UINTN len = 0;

	if (!root)
		return;
	image_dir(li, dir, sizeof dir / sizeof dir[0]);
	if ((text = read_file(root, dir, L"presets.cfg", &len))) {
		presets_parse(&efi.cfg, text, len);
		FreePool(text);
	}
	if ((text = read_file(root, dir, L"tickprobe.env", &len))) {
		presets_parse_env(&efi.cfg, text, len);
		FreePool(text);
	}
	uefi_call_wrapper(root->Close, 1, root);
}

/* The core has printed its summary; the screen stays as it is (no clear).
 * The note on where the records went goes to ConOut, so it also reaches a
 * serial terminal the firmware mirrors ConOut to (after the end record). */
static void at_end(void *ctx, const char *status)
{
	char note[600];
	int n;

	(void)ctx;
	(void)status;
	efi_log_close(&efi.log);
	efi_net_note(&efi.net, note, sizeof note);
	if (note[0] && ST->ConOut) {
		efi_screen_write(ST->ConOut, "\n", 1);
		efi_screen_write(ST->ConOut, note, tp_strlen(note));
	}
	if (efi.bi.facts.log_file && !efi.log.stopped)
		n = tp_snprintf(
			note, sizeof note,
			"\ntickprobe (UEFI): the log is saved as %s on %s: %llu records, %llu bytes "
			"(opening the file took %llu TSC cycles, file writes %llu). Read it with `tickprobe show`.\n",
			efi.bi.facts.log_file, efi.bi.facts.log_volume, (unsigned long long)efi.log.records,
			(unsigned long long)efi.log.bytes, (unsigned long long)efi.log.open_cycles,
			(unsigned long long)efi.log.cycles);
	else if (efi.bi.facts.log_file)
		n = tp_snprintf(note, sizeof note,
				"\ntickprobe (UEFI): the log file %s on %s stops after %llu records (%llu bytes): "
				"%s. The serial line has the whole log.\n",
				efi.bi.facts.log_file, efi.bi.facts.log_volume, (unsigned long long)efi.log.records,
				(unsigned long long)efi.log.bytes, efi.log.problem);
	else
		n = tp_snprintf(note, sizeof note,
				"\ntickprobe (UEFI): the JSON records went to the serial port only; no log file: %s.\n",
				efi.bi.facts.log_file_problem);
	if (n > (int)sizeof note - 1)
		n = sizeof note - 1;
	if (ST->ConOut)
		efi_screen_write(ST->ConOut, note, (size_t)n);
}

/* The run's buffers (about 820 KiB): pages from the firmware at run time,
 * zeroed here.  As static data they would be stored in the binary, since
 * gnu-efi's linker script folds .bss into .data. */
static void *efi_alloc(void *ctx, size_t bytes)
{
	EFI_PHYSICAL_ADDRESS base = 0;
	UINTN pages = (bytes + 4095) / 4096;
	uint64_t flags = read_flags();
	EFI_STATUS st;

	(void)ctx;
	st = uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData, pages, &base);
	/* EDK2's RestoreTPL sets IF on the way out.  Keep the core's cli: with
	 * interrupts on, the firmware's serial console polls COM1 from its timer
	 * tick and can take the byte the core's loopback check of the UART is
	 * waiting for (drivers/uart.c), and the run then has no serial line. */
	cpu_keep_if_clear(flags);
	if (st != EFI_SUCCESS)
		return NULL;
	ZeroMem((void *)(UINTN)base, pages * 4096);
	return (void *)(UINTN)base;
}

/* The other CPUs' start-up code goes below 1 MiB (a STARTUP IPI names a page
 * there; one page more in case the firmware hands out page 0), their stacks
 * anywhere.  Loader data, never freed: a CPU that wakes late must still find
 * them. */
static void reserve_smp_memory(void)
{
	EFI_PHYSICAL_ADDRESS low = 0xfffff, stacks = 0;

	if (uefi_call_wrapper(BS->AllocatePages, 4, AllocateMaxAddress, EfiLoaderData,
			      (UINTN)(SMP_LOW_BYTES / 4096 + 1), &low) == EFI_SUCCESS) {
		efi.bi.low_area = low;
		efi.bi.low_area_bytes = SMP_LOW_BYTES + 4096;
	}
	if (uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
			      (UINTN)(SMP_STACK_AREA_BYTES / 4096), &stacks) == EFI_SUCCESS) {
		efi.bi.ap_stacks = stacks;
		efi.bi.ap_stacks_bytes = SMP_STACK_AREA_BYTES;
	}
}

/* tickprobe_main never returns, so the switch to the new stack needs no way
 * back.  The old frame stays allocated and untouched. */
__attribute__((noreturn)) static void run_core(void)
{
	EFI_PHYSICAL_ADDRESS base = 0;
	uint64_t top;

	if (uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData, (UINTN)STACK_PAGES, &base) != EFI_SUCCESS)
		tickprobe_main(&efi.bi); /* the firmware stack, then */
	top = base + STACK_PAGES * 4096ull;
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "call tickprobe_main\n\t"
			 "ud2"
			 :
			 : "r"(top), "D"(&efi.bi)
			 : "memory");
	__builtin_unreachable();
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	uint64_t boot_tsc = rdtsc(); /* the boot's id (boot/efi_net.h) */
	EFI_LOADED_IMAGE *li = NULL;
	SIMPLE_TEXT_OUTPUT_INTERFACE *screen;

	InitializeLib(image, systab);
	efi_cpu_check(); /* before anything that times or measures */
	/* The boot manager arms a 5-minute watchdog for every boot option; a
	 * long preset would be reset in the middle of a measurement. */
	uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0ull, 0, NULL);

	efi.bi.facts.boot = "uefi";
	efi.bi.facts.boot_services = "active";
	efi.bi.facts.rsdp = find_rsdp();
	efi.bi.memory_mib = memory_mib();
	read_secure_boot(&efi.bi);
	screen = efi_find_screen();
	presets_init(&efi.cfg);

	if (uefi_call_wrapper(BS->HandleProtocol, 3, image, &gEfiLoadedImageProtocolGuid, (void **)&li) != EFI_SUCCESS)
		li = NULL;
	efi_net_probe(&efi.net, li, boot_tsc);
	/* The load options, else a network boot's tickprobe.cfg, else the menu. */
	if ((li && load_options(li, efi.cmdline, sizeof efi.cmdline)) || (efi.net.pxe && read_config_net())) {
		efi.bi.facts.cmdline = efi.cmdline;
	} else {
		int pick;
		if (li && !efi.net.pxe)
			read_config(li);
		/* ConOut: the screen and the serial terminal the firmware mirrors
		 * it to, so a headless machine shows its menu on the serial line,
		 * before the log's begin record. */
		pick = efi_menu(ST->ConOut, &efi.cfg);
		options_menu_cmdline(pick >= 0 ? &efi.cfg.preset[pick] : NULL, efi.cfg.env_options, efi.cmdline,
				     sizeof efi.cmdline);
		efi.bi.facts.cmdline = efi.cmdline;
	}
	if (screen) {
		uefi_call_wrapper(screen->ClearScreen, 1, screen);
		efi.bi.consoles[efi.bi.n_consoles++] = (struct console){ "screen", efi_screen_write, screen, false, true };
	}
	open_log(li);
	open_net();
	efi.bi.alloc = efi_alloc;
	efi.bi.at_end = at_end;
	reserve_smp_memory();
	run_core();
}
