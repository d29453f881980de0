/* SPDX-License-Identifier: BSD-2-Clause */
/* The log file on the UEFI path (see efi_log.h). */
#include <efi.h>
#include <efilib.h>
#include "boot/efi_log.h"
#include "boot/efi_status.h"
#include "arch/x86/cpu.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define MSG_NVME_NAMESPACE_DP 0x17 /* UEFI 2.x device path subtypes gnu-efi 3.0.15 lacks */
#define MSG_SD_DP 0x1a
#define MSG_EMMC_DP 0x1d
#define NAME_CHARS 256 /* a FAT long name is at most 255 characters */

static void say_status(char *out, size_t cap, const char *what, EFI_STATUS st)
{
	const char *w = efi_status_words(st);
	if (w)
		tp_snprintf(out, cap, "%s: %s", what, w);
	else
		tp_snprintf(out, cap, "%s: EFI status 0x%llx", what, (unsigned long long)st);
}

/* "volume "TICKPROBE" (partition 2, USB)", from the volume's label and
 * its device path; *cd tells a CD's boot image. */
static void describe(EFI_HANDLE h, EFI_FILE_HANDLE root, char *out, size_t cap, bool *cd)
{
	EFI_DEVICE_PATH *dp = NULL;
	EFI_FILE_SYSTEM_INFO *fs = LibFileSystemInfo(root);
	const char *bus = NULL;
	unsigned part = 0;
	char label[40], where[48];
	size_t k = 0, n;

	*cd = false;
	if (uefi_call_wrapper(BS->HandleProtocol, 3, h, &gEfiDevicePathProtocolGuid, (void **)&dp) == EFI_SUCCESS)
		for (; dp && !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp)) {
			unsigned t = DevicePathType(dp), s = DevicePathSubType(dp);
			if (t == MESSAGING_DEVICE_PATH) {
				bus = s == MSG_USB_DP ? "USB" : s == MSG_SATA_DP ? "SATA" : s == MSG_NVME_NAMESPACE_DP ? "NVMe"
				    : s == MSG_ATAPI_DP ? "IDE" : s == MSG_SCSI_DP ? "SCSI" : s == MSG_SD_DP ? "SD card"
				    : s == MSG_EMMC_DP ? "eMMC" : bus;
			} else if (t == MEDIA_DEVICE_PATH && s == MEDIA_HARDDRIVE_DP) {
				part = ((HARDDRIVE_DEVICE_PATH *)dp)->PartitionNumber;
			} else if (t == MEDIA_DEVICE_PATH && s == MEDIA_CDROM_DP) {
				*cd = true;
			}
		}
	for (n = 0; fs && fs->VolumeLabel[n] && k + 1 < sizeof label; n++) {
		CHAR16 c = fs->VolumeLabel[n];
		label[k++] = (char)(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? c : '?');
	}
	label[k] = 0;
	if (fs)
		FreePool(fs);
	if (*cd)
		n = (size_t)tp_snprintf(where, sizeof where, "CD boot image");
	else if (part)
		n = (size_t)tp_snprintf(where, sizeof where, "partition %u", part);
	else
		n = (size_t)tp_snprintf(where, sizeof where, "whole disk");
	if (bus && n < sizeof where)
		tp_snprintf(where + n, sizeof where - n, ", %s", bus);
	tp_snprintf(out, cap, k ? "volume \"%s\" (%s)" : "an unlabelled volume%.0s (%s)", label, where);
}

static EFI_STATUS open_dir(EFI_FILE_HANDLE at, const CHAR16 *name, EFI_FILE_HANDLE *dir)
{
	return uefi_call_wrapper(at->Open, 5, at, dir, (CHAR16 *)name,
				 EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, (UINT64)EFI_FILE_DIRECTORY);
}

/* "0042.log" (any case) -> 42; anything else -> -1. */
static int log_number(const CHAR16 *name)
{
	static const char ext[] = ".log";
	int v = 0, i;

	for (i = 0; i < 4; i++) {
		if (name[i] < L'0' || name[i] > L'9')
			return -1;
		v = v * 10 + (name[i] - L'0');
	}
	for (i = 0; i < 4; i++)
		if ((name[4 + i] | 0x20) != ext[i])
			return -1;
	return name[8] ? -1 : v;
}

/* One more than the highest NNNN.log in dir (0 for none). */
static int next_number(EFI_FILE_HANDLE dir)
{
	const UINTN cap = SIZE_OF_EFI_FILE_INFO + NAME_CHARS * sizeof(CHAR16);
	EFI_FILE_INFO *info = AllocateZeroPool(cap);
	int high = -1;

	while (info) {
		UINTN size = cap;
		int v;
		if (uefi_call_wrapper(dir->Read, 3, dir, &size, info) != EFI_SUCCESS || !size)
			break;
		if (!(info->Attribute & EFI_FILE_DIRECTORY) && (v = log_number(info->FileName)) > high)
			high = v;
	}
	if (info)
		FreePool(info);
	return high + 1;
}

/* The whole attempt on one volume; on failure why into why[]. */
static bool try_volume(struct efi_log *log, EFI_FILE_HANDLE root, bool cd, char *why, size_t cap)
{
	EFI_FILE_SYSTEM_INFO *fs = LibFileSystemInfo(root);
	EFI_FILE_HANDLE top = NULL, dir = NULL, f = NULL;
	EFI_STATUS st;
	CHAR16 name[12];
	int num, tries;
	bool ok = false;

	if (fs && fs->ReadOnly) {
		tp_snprintf(why, cap, cd ? "it is read-only" : "it is read-only (write-protected)");
	} else if (fs && fs->FreeSpace < EFI_LOG_MIN_FREE) {
		tp_snprintf(why, cap, "it is full (%llu bytes free, %u wanted)", (unsigned long long)fs->FreeSpace,
			    EFI_LOG_MIN_FREE);
	} else if ((st = open_dir(root, L"tickprobe", &top)) != EFI_SUCCESS) {
		say_status(why, cap, "cannot create \\tickprobe", st);
		top = NULL;
	} else if ((st = open_dir(top, L"logs", &dir)) != EFI_SUCCESS) {
		say_status(why, cap, "cannot create \\tickprobe\\logs", st);
		dir = NULL;
	} else if ((num = next_number(dir)) > EFI_LOG_MAX_NUMBER) {
		tp_snprintf(why, cap, "\\tickprobe\\logs already holds 9999.log: move the logs elsewhere");
	} else {
		bool tried = false;
		for (tries = 0; tries < 16 && num <= EFI_LOG_MAX_NUMBER && !tried; tries++, num++) {
			EFI_FILE_HANDLE taken = NULL;
			SPrint(name, sizeof name, L"%04d.log", num);
			/* Never overwrite: a name taken (by a log the scan missed) moves on. */
			if (uefi_call_wrapper(dir->Open, 5, dir, &taken, name, EFI_FILE_MODE_READ, 0ull) == EFI_SUCCESS) {
				uefi_call_wrapper(taken->Close, 1, taken);
				continue;
			}
			tried = true;
			st = uefi_call_wrapper(dir->Open, 5, dir, &f, name,
					       EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0ull);
			if (st != EFI_SUCCESS) {
				f = NULL;
				say_status(why, cap, "cannot create the log file", st);
			} else if ((st = uefi_call_wrapper(f->Flush, 1, f)) != EFI_SUCCESS) { /* the empty file, at once */
				uefi_call_wrapper(f->Close, 1, f);
				f = NULL;
				say_status(why, cap, "cannot write the log file", st);
			} else {
				tp_snprintf(log->path, sizeof log->path, "\\tickprobe\\logs\\%04d.log", num);
				log->file = f;
				ok = true;
			}
		}
		if (!tried)
			tp_snprintf(why, cap, "the next %d log names in \\tickprobe\\logs are all taken", tries);
	}
	if (dir)
		uefi_call_wrapper(dir->Close, 1, dir);
	if (top)
		uefi_call_wrapper(top->Close, 1, top);
	if (fs)
		FreePool(fs);
	return ok;
}

static bool has_efi_dir(EFI_FILE_HANDLE root)
{
	EFI_FILE_HANDLE d;
	EFI_FILE_INFO *info;
	bool yes = false;

	if (uefi_call_wrapper(root->Open, 5, root, &d, L"\\EFI", EFI_FILE_MODE_READ, 0ull) != EFI_SUCCESS)
		return false;
	if ((info = LibFileInfo(d))) {
		yes = (info->Attribute & EFI_FILE_DIRECTORY) != 0;
		FreePool(info);
	}
	uefi_call_wrapper(d->Close, 1, d);
	return yes;
}

/* The first other volume that holds \EFI and takes the file. */
static bool try_others(struct efi_log *log, const void *skip)
{
	EFI_HANDLE *h = NULL;
	UINTN n = 0, i;
	char why[160];
	bool ok = false, cd;

	if (uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &gEfiSimpleFileSystemProtocolGuid, NULL, &n,
			      &h) != EFI_SUCCESS)
		return false;
	for (i = 0; i < n && !ok; i++) {
		EFI_FILE_HANDLE root;
		if (h[i] == skip || !(root = LibOpenRoot(h[i])))
			continue;
		describe(h[i], root, log->volume, sizeof log->volume, &cd);
		ok = has_efi_dir(root) && try_volume(log, root, cd, why, sizeof why);
		if (ok)
			log->handle = h[i];
		uefi_call_wrapper(root->Close, 1, root);
	}
	uefi_call_wrapper(BS->FreePool, 1, h);
	return ok;
}

static bool open_on_some_volume(struct efi_log *log, EFI_HANDLE loaded_from);

bool efi_log_open(struct efi_log *log, EFI_HANDLE loaded_from)
{
	uint64_t t0 = rdtsc();
	bool ok = open_on_some_volume(log, loaded_from);

	log->open_cycles = rdtsc() - t0;
	return ok;
}

static bool open_on_some_volume(struct efi_log *log, EFI_HANDLE loaded_from)
{
	EFI_FILE_HANDLE root = loaded_from ? LibOpenRoot(loaded_from) : NULL;
	char why[160], boot_volume[sizeof log->volume];
	bool cd = false, ok = false;
	size_t n;

	log->file = NULL;
	log->handle = NULL;
	log->path[0] = log->volume[0] = log->problem[0] = 0;
	tp_snprintf(boot_volume, sizeof boot_volume, "the volume");
	if (!root) {
		tp_snprintf(why, sizeof why, "it has no file system the firmware can write (a network or memory boot)");
	} else {
		describe(loaded_from, root, boot_volume, sizeof boot_volume, &cd);
		ok = try_volume(log, root, cd, why, sizeof why);
		uefi_call_wrapper(root->Close, 1, root);
	}
	if (ok) {
		log->handle = loaded_from;
		tp_snprintf(log->volume, sizeof log->volume, "%s, the one this app was loaded from", boot_volume);
		return true;
	}
	if (try_others(log, loaded_from)) {
		n = tp_strlen(log->volume);
		tp_snprintf(log->volume + n, sizeof log->volume - n, ", which holds \\EFI (the boot volume is not writable)");
		return true;
	}
	log->volume[0] = 0;
	tp_snprintf(log->problem, sizeof log->problem,
		    "cannot write to %s, the one this app was loaded from: %s; and no other writable volume holds \\EFI",
		    boot_volume, why);
	return false;
}

void efi_log_write(void *ctx, const char *s, size_t n)
{
	struct efi_log *log = ctx;
	uint64_t flags, t0;
	EFI_STATUS st;
	UINTN size = n;

	if (!log->file || log->stopped || log->busy)
		return;
	log->busy = true;
	flags = read_flags();
	t0 = rdtsc();
	st = uefi_call_wrapper(log->file->Write, 3, log->file, &size, (void *)s);
	if (st == EFI_SUCCESS && size == n)
		st = uefi_call_wrapper(log->file->Flush, 1, log->file);
	log->cycles += rdtsc() - t0;
	/* A boot service lowers the TPL on return, and EDK2's RestoreTPL then
	 * sets IF: keep the caller's interrupt state (as efi_screen_write). */
	cpu_keep_if_clear(flags);
	if (st != EFI_SUCCESS || size != n) {
		log->stopped = true;
		if (st == EFI_SUCCESS)
			st = EFI_VOLUME_FULL; /* a short write: FAT writes all or fails, but say something */
		say_status(log->problem, sizeof log->problem, "writing failed", st);
	} else {
		log->records++;
		log->bytes += n;
	}
	log->busy = false;
}

void efi_log_close(struct efi_log *log)
{
	uint64_t flags = read_flags();

	if (!log->file || log->busy)
		return;
	uefi_call_wrapper(log->file->Close, 1, log->file);
	log->file = NULL;
	cpu_keep_if_clear(flags);
}
