/* SPDX-License-Identifier: BSD-2-Clause */
/* Reboot, power off, the countdown's key and the series file on the UEFI
 * path (boot/efi_after.h). */
#include <efi.h>
#include <efilib.h>
#include "boot/efi_after.h"
#include "arch/x86/cpu.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define SERIES_PATH L"\\tickprobe\\series"
#define KEY_STALL_US 1000 /* each look for a key lets the firmware's timer run 1 ms */

static bool plan(void *ctx, enum options_after what, const struct acpi_info *acpi, char *via, size_t vcap,
		 char *why, size_t wcap)
{
	(void)ctx;
	(void)acpi;
	if (wcap)
		why[0] = 0; /* ResetSystem can always be asked */
	tp_snprintf(via, vcap, what == OPT_AFTER_REBOOT ? "ResetSystem(EfiResetCold)" : "ResetSystem(EfiResetShutdown)");
	return true;
}

/* Runtime services work with boot services still up, whatever IDT is in
 * place; ResetSystem does not return unless the firmware cannot do it. */
static void run(void *ctx, enum options_after what, const struct acpi_info *acpi,
		void (*say)(void *say_ctx, const char *line), void *say_ctx, char *why, size_t wcap)
{
	(void)ctx;
	(void)acpi;
	say(say_ctx, what == OPT_AFTER_REBOOT ? "reboot: ResetSystem(EfiResetCold)" : "poweroff: ResetSystem(EfiResetShutdown)");
	uefi_call_wrapper(RT->ResetSystem, 4, what == OPT_AFTER_REBOOT ? EfiResetCold : EfiResetShutdown, EFI_SUCCESS,
			  (UINTN)0, NULL);
	tp_snprintf(why, wcap, "ResetSystem(%s) returned: the firmware does not do it",
		    what == OPT_AFTER_REBOOT ? "EfiResetCold" : "EfiResetShutdown");
}

/* ConIn: the firmware's keyboards and its serial terminal.  Their drivers
 * poll from the firmware's timer tick, which runs only with interrupts on:
 * on for KEY_STALL_US (vectors 32-255 are still the firmware's,
 * arch/x86/idt.h), then off again as the run keeps them. */
static bool key(void *ctx)
{
	EFI_INPUT_KEY k;
	EFI_STATUS st;
	uint64_t flags = read_flags();

	(void)ctx;
	if (!ST->ConIn)
		return false;
	__asm__ volatile("sti" ::: "memory");
	uefi_call_wrapper(BS->Stall, 1, (UINTN)KEY_STALL_US);
	st = uefi_call_wrapper(ST->ConIn->ReadKeyStroke, 2, ST->ConIn, &k);
	cpu_keep_if_clear(flags);
	return st == EFI_SUCCESS;
}

/* ---- the series file ------------------------------------------------------ */

static EFI_STATUS write_series(EFI_HANDLE volume, const struct series_file *s)
{
	EFI_FILE_HANDLE root = LibOpenRoot(volume), f = NULL;
	EFI_FILE_INFO *info;
	char text[SERIES_FILE_MAX];
	UINTN n = series_format(s, text, sizeof text);
	EFI_STATUS st;
	uint64_t flags = read_flags();

	if (!root)
		return EFI_NOT_FOUND;
	st = uefi_call_wrapper(root->Open, 5, root, &f, SERIES_PATH,
			       EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0ull);
	if (st == EFI_SUCCESS) {
		/* Shorter than before: cut to the new length, then write. */
		if ((info = LibFileInfo(f))) {
			if (info->FileSize != n) {
				info->FileSize = 0;
				uefi_call_wrapper(f->SetInfo, 4, f, &GenericFileInfo, info->Size, info);
			}
			FreePool(info);
		}
		st = uefi_call_wrapper(f->Write, 3, f, &n, text);
		if (st == EFI_SUCCESS)
			st = uefi_call_wrapper(f->Flush, 1, f);
		uefi_call_wrapper(f->Close, 1, f);
	}
	uefi_call_wrapper(root->Close, 1, root);
	cpu_keep_if_clear(flags);
	return st;
}

/* The file's text, or false when there is none. */
static bool read_series(EFI_HANDLE volume, char *text, UINTN *len)
{
	EFI_FILE_HANDLE root = LibOpenRoot(volume), f;
	bool ok = false;

	if (!root)
		return false;
	if (uefi_call_wrapper(root->Open, 5, root, &f, SERIES_PATH, EFI_FILE_MODE_READ, 0ull) == EFI_SUCCESS) {
		ok = uefi_call_wrapper(f->Read, 3, f, len, text) == EFI_SUCCESS;
		uefi_call_wrapper(f->Close, 1, f);
	}
	uefi_call_wrapper(root->Close, 1, root);
	return ok;
}

/* A new series' id: the first log's number and the firmware's clock,
 * "0003-20261201T195331" (the TSC's low bits when the clock fails). */
static void new_id(const char *log_path, char *id, size_t cap)
{
	const char *num = log_path;
	EFI_TIME t;

	while (*num && (*num < '0' || *num > '9'))
		num++;
	if (uefi_call_wrapper(RT->GetTime, 2, &t, NULL) == EFI_SUCCESS)
		tp_snprintf(id, cap, "%.4s-%04u%02u%02uT%02u%02u%02u", num, t.Year, t.Month, t.Day, t.Hour, t.Minute,
			    t.Second);
	else
		tp_snprintf(id, cap, "%.4s-%08x", num, (unsigned)rdtsc());
}

void efi_series_start(struct efi_after *a, EFI_HANDLE volume, const char *log_path, unsigned runs,
		      struct platform_series *out, const char **problem)
{
	char text[SERIES_FILE_MAX + 1], why[96], id[SERIES_ID_MAX];
	UINTN len = SERIES_FILE_MAX;
	struct series_file old, *found = NULL;
	EFI_STATUS st;
	int n = 0;

	*problem = NULL;
	out->of = 0;
	a->volume = volume;
	a->index = 0;
	if (!volume) {
		if (runs > 1) {
			tp_snprintf(a->problem, sizeof a->problem, "no log file, so no volume to keep the count on: one run");
			*problem = a->problem;
		}
		return;
	}
	if (read_series(volume, text, &len)) {
		if (series_parse(text, len, &old, why, sizeof why))
			found = &old;
		else
			n = tp_snprintf(a->problem, sizeof a->problem, "\\tickprobe\\series ignored: %s", why);
	}
	new_id(log_path, id, sizeof id);
	if (!series_begin(found, runs, id, &a->file, &a->index, text, sizeof text)) {
		*problem = n ? a->problem : NULL;
		return;
	}
	if (text[0])
		tp_snprintf(a->problem, sizeof a->problem, "%s", text);
	if ((st = write_series(volume, &a->file)) != EFI_SUCCESS) {
		tp_snprintf(a->problem, sizeof a->problem, "cannot write \\tickprobe\\series (EFI status 0x%llx): one run",
			    (unsigned long long)st);
		a->index = 0;
	}
	if (a->index) {
		out->id = a->file.id;
		out->index = a->index;
		out->of = a->file.of;
	}
	*problem = a->problem[0] ? a->problem : NULL;
}

/* The next boot of a series is this one's boot option again, whatever the
 * boot order says: BootNext = BootCurrent (UEFI 2.9, 3.1.3).  BootNext
 * lasts one boot, so a boot that hangs is followed by the usual order. */
static void boot_this_again(void)
{
	EFI_GUID global = EFI_GLOBAL_VARIABLE;
	UINT16 current;
	UINTN size = sizeof current;
	uint64_t flags = read_flags();

	if (uefi_call_wrapper(RT->GetVariable, 5, L"BootCurrent", &global, NULL, &size, &current) == EFI_SUCCESS &&
	    size == sizeof current)
		uefi_call_wrapper(RT->SetVariable, 5, L"BootNext", &global,
				  (UINT32)(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
					   EFI_VARIABLE_RUNTIME_ACCESS),
				  sizeof current, &current);
	cpu_keep_if_clear(flags);
}

static bool series_end(void *ctx, const char *state, const char *stop_why, char *why, size_t wcap)
{
	struct efi_after *a = ctx;
	EFI_STATUS st;

	if (!a->index) {
		tp_snprintf(why, wcap, "this boot is in no series");
		return false;
	}
	series_finish(&a->file, a->index, state, stop_why);
	if ((st = write_series(a->volume, &a->file)) != EFI_SUCCESS) {
		tp_snprintf(why, wcap, "cannot write \\tickprobe\\series (EFI status 0x%llx)", (unsigned long long)st);
		return false;
	}
	if (tp_streq(state, "continues"))
		boot_this_again();
	return true;
}

const struct platform_after efi_after = {
	.plan = plan,
	.run = run,
	.key = key,
	.max_polls_per_s = 1000000u / KEY_STALL_US,
	.series_end = series_end,
};
