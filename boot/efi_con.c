/* SPDX-License-Identifier: BSD-2-Clause */
/* The screen and the preset menu on the UEFI path (see efi_con.h). */
#include <efi.h>
#include <efilib.h>
#include <stdbool.h>
#include "boot/efi_con.h"
#include "arch/x86/cpu.h"
#include "lib/fmt.h"

static bool path_has_uart(EFI_DEVICE_PATH *dp)
{
	for (; dp && !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp))
		if (DevicePathType(dp) == MESSAGING_DEVICE_PATH && DevicePathSubType(dp) == MSG_UART_DP)
			return true;
	return false;
}

SIMPLE_TEXT_OUTPUT_INTERFACE *efi_find_screen(void)
{
	EFI_HANDLE *h = NULL;
	UINTN n = 0, i;
	SIMPLE_TEXT_OUTPUT_INTERFACE *screen = NULL;
	bool serial_terminal = false;

	if (uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &gEfiSimpleTextOutProtocolGuid,
			      NULL, &n, &h) != EFI_SUCCESS)
		return NULL;
	for (i = 0; i < n; i++) {
		void *gop = NULL, *out = NULL;
		EFI_DEVICE_PATH *dp = NULL;
		/* The splitters (ConOut, StdErr) carry GOP too on EDK2, and they
		 * fan out to the serial terminal: never those. */
		if (h[i] == ST->ConsoleOutHandle || h[i] == ST->StandardErrorHandle)
			continue;
		if (uefi_call_wrapper(BS->HandleProtocol, 3, h[i], &gEfiDevicePathProtocolGuid, (void **)&dp) != EFI_SUCCESS)
			continue; /* a virtual handle: no device behind it */
		if (path_has_uart(dp)) {
			serial_terminal = true;
			continue;
		}
		if (!screen &&
		    uefi_call_wrapper(BS->HandleProtocol, 3, h[i], &gEfiGraphicsOutputProtocolGuid, &gop) == EFI_SUCCESS &&
		    uefi_call_wrapper(BS->HandleProtocol, 3, h[i], &gEfiSimpleTextOutProtocolGuid, &out) == EFI_SUCCESS)
			screen = out;
	}
	uefi_call_wrapper(BS->FreePool, 1, h);
	if (!screen && !serial_terminal)
		screen = ST->ConOut; /* nothing to mirror to: ConOut is only a screen */
	return screen;
}

/* OutputString takes UCS-2 and wants CR LF; the core writes "\n". */
void efi_screen_write(void *ctx, const char *s, size_t n)
{
	SIMPLE_TEXT_OUTPUT_INTERFACE *out = ctx;
	CHAR16 buf[130];
	size_t k = 0;
	/* A boot service lowers the TPL on return, and EDK2's RestoreTPL then
	 * sets IF: keep the caller's interrupt state. */
	uint64_t flags = read_flags();

	while (n--) {
		char ch = *s++;
		if (ch == '\n')
			buf[k++] = L'\r';
		buf[k++] = (unsigned char)ch < 0x80 ? (CHAR16)ch : L'?';
		if (k >= 128 || !n) {
			buf[k] = 0;
			uefi_call_wrapper(out->OutputString, 2, out, buf);
			k = 0;
		}
	}
	cpu_keep_if_clear(flags);
}

static void put(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const char *s)
{
	efi_screen_write(out, s, strlena((const CHAR8 *)s));
}

/* The countdown line, under the entries and a blank line. */
static void draw_countdown(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const struct presets *c, int left)
{
	char msg[80];

	uefi_call_wrapper(out->SetCursorPosition, 3, out, 0, 3 + c->count);
	if (left >= 0) {
		tp_snprintf(msg, sizeof msg, "Booting the highlighted preset in %d s. Keys: 1-9, Up/Down, Enter.   \n",
			    left);
		put(out, msg);
	} else {
		put(out, "Countdown stopped. Keys: 1-9, Up/Down, Enter.        \n");
	}
}

static void draw(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const struct presets *c, int sel, int left)
{
	int i;
	size_t k;
	const char *p;
	char line[PRESET_NAME_MAX + PRESET_OPTIONS_MAX + 16];

	uefi_call_wrapper(out->SetCursorPosition, 3, out, 0, 2);
	for (i = 0; i < c->count; i++) {
		uefi_call_wrapper(out->SetAttribute, 2, out,
				  i == sel ? EFI_TEXT_ATTR(EFI_BLACK, EFI_LIGHTGRAY) : EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
		k = 0;
		line[k++] = ' ';
		line[k++] = (char)(i < 9 ? '1' + i : ' ');
		line[k++] = ')';
		line[k++] = ' ';
		for (p = c->preset[i].name; *p; p++)
			line[k++] = *p;
		while (k < 18)
			line[k++] = ' ';
		/* 76 columns: the narrowest text mode an EFI console offers is 80x25. */
		for (p = c->preset[i].options; *p && k < 74; p++)
			line[k++] = *p;
		while (k < 76)
			line[k++] = ' ';
		line[k++] = '\n';
		line[k] = 0;
		put(out, line);
	}
	uefi_call_wrapper(out->SetAttribute, 2, out, EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
	put(out, "\n");
	draw_countdown(out, c, left);
}

/* What was wrong in presets.cfg or tickprobe.env, one line each. */
static void show_problems(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const struct presets *c)
{
	char line[PRESETS_PROBLEM_MAX + 48];
	int i;

	for (i = 0; i < c->n_problems; i++) {
		const struct presets_problem *q = &c->problems[i];
		if (q->line)
			tp_snprintf(line, sizeof line, "%s:%d: %s\n", q->file, q->line, q->text);
		else
			tp_snprintf(line, sizeof line, "%s: %s\n", q->file, q->text);
		put(out, line);
	}
	if (c->problems_beyond) {
		tp_snprintf(line, sizeof line, "and %d more problems\n", c->problems_beyond);
		put(out, line);
	}
}

int efi_menu(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const struct presets *c)
{
	int sel = presets_default(c), left = presets_timeout(c);
	EFI_EVENT ev[2], timer = NULL;
	UINTN which;

	if (c->count <= 1 || left <= 0 || !out) {
		/* No menu: ConOut, which firmware often mirrors to the serial
		 * line, where the capture keeps them before the log. */
		show_problems(ST->ConOut, c);
		return sel;
	}
	if (uefi_call_wrapper(BS->CreateEvent, 5, EVT_TIMER, 0, NULL, NULL, &timer) != EFI_SUCCESS)
		return sel;
	/* Periodic, in 100 ns units: one tick a second for the countdown. */
	uefi_call_wrapper(BS->SetTimer, 3, timer, TimerPeriodic, 10000000ull);
	uefi_call_wrapper(out->ClearScreen, 1, out);
	put(out, "tickprobe " TICKPROBE_VERSION ": choose a preset\n");
	uefi_call_wrapper(ST->ConIn->Reset, 2, ST->ConIn, FALSE);
	draw(out, c, sel, left);
	put(out, "\n");
	show_problems(out, c); /* below the countdown, which each redraw leaves alone */
	ev[0] = ST->ConIn->WaitForKey;
	ev[1] = timer;
	for (;;) {
		EFI_INPUT_KEY key;
		if (uefi_call_wrapper(BS->WaitForEvent, 3, 2, ev, &which) != EFI_SUCCESS)
			break;
		if (which == 1) {
			if (left > 0 && --left == 0)
				break;
			/* Only the countdown moves: on a serial terminal, which
			 * ConOut reaches too, the entries are then sent once. */
			if (left > 0)
				draw_countdown(out, c, left);
			continue;
		}
		if (uefi_call_wrapper(ST->ConIn->ReadKeyStroke, 2, ST->ConIn, &key) != EFI_SUCCESS)
			continue;
		left = -1; /* a person is there: wait for a choice */
		if (key.UnicodeChar >= L'1' && key.UnicodeChar <= L'9' && key.UnicodeChar - L'1' < c->count) {
			sel = key.UnicodeChar - L'1';
			break;
		}
		if (key.UnicodeChar == CHAR_CARRIAGE_RETURN || key.UnicodeChar == CHAR_LINEFEED)
			break;
		if (key.ScanCode == SCAN_UP && sel > 0)
			sel--;
		else if (key.ScanCode == SCAN_DOWN && sel + 1 < c->count)
			sel++;
		draw(out, c, sel, left);
	}
	uefi_call_wrapper(BS->CloseEvent, 1, timer);
	return sel;
}
