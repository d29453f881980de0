/* SPDX-License-Identifier: BSD-2-Clause */
/* How a boot of the probe under QEMU ended (qemu.h): what its serial log's
 * last end record says, and the probe's status from QEMU's. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include "tools/qemu/qemu.h"
#include "probe/exit_status.h"

/* The first line of the plain-text refusal of a CPU the image cannot use
 * (boot/cpu_check.S, boot/efi_cpu.c), which comes instead of any record. */
#define UNSUPPORTED_LINE "tickprobe: this CPU cannot run tickprobe: "

/* src at the end of the string in dst[cap], cut to fit. */
static void append(char *dst, size_t cap, const char *src)
{
	size_t k = strlen(dst);

	while (*src && k + 1 < cap)
		dst[k++] = *src++;
	dst[k] = 0;
}

/* The status of the log's last end record, or "" (cut short, or no log);
 * and into why[], the CPU refusal's reason when the log has one. */
void qemu_log_summary(const char *path, char *status, size_t cap, long *bytes, char *why, size_t why_cap)
{
	FILE *f = fopen(path, "rb");
	char line[8192];
	bool why_goes_on = false; /* the reason's list goes on on lines indented by 2 */

	snprintf(status, cap, "%s", "");
	*why = 0;
	*bytes = -1;
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *t = strstr(line, "{\"type\":\"end\""), *s;
		size_t len = strlen(line);
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0; /* a line may also start with GRUB's \r */
		if (why_goes_on && !strncmp(line, "  ", 2)) {
			append(why, why_cap, line + 1); /* one space of the two joins the lines */
			continue;
		}
		why_goes_on = false;
		if (!*why && (s = strstr(line, UNSUPPORTED_LINE))) {
			append(why, why_cap, s + sizeof UNSUPPORTED_LINE - 1);
			why_goes_on = true;
			continue;
		}
		if (t && (s = strstr(t, "\"status\":\""))) {
			s += 10;
			s[strcspn(s, "\"")] = 0;
			snprintf(status, cap, "%s", s);
		} else if (strstr(line, "{\"type\":\"begin\"")) {
			snprintf(status, cap, "%s", ""); /* a new run starts */
		}
	}
	*bytes = ftell(f);
	fclose(f);
}

/* The probe's status from QEMU's, and what to say of it; unsupported is
 * the CPU refusal's reason from the log, or "". */
int qemu_probe_outcome(const struct qemu_run *r, int status, int stopped, const char *unsupported,
		       const char *endstatus, char *msg, size_t cap)
{
	int q;

	if (status == -1) {
		snprintf(msg, cap, stopped ? "interrupted, QEMU stopped" : "timed out after %.0f s, QEMU killed",
			 r->timeout);
		return QEMU_RC_OTHER;
	}
	if (WIFSIGNALED(status)) {
		snprintf(msg, cap, "QEMU died of signal %d", WTERMSIG(status));
		return QEMU_RC_OTHER;
	}
	q = WEXITSTATUS(status);
	if (q == QEMU_EXIT_OK || q == QEMU_EXIT_OK_ABSENT || q == QEMU_EXIT_FAILED) {
		int rc = q == QEMU_EXIT_OK ? QEMU_RC_OK : q == QEMU_EXIT_OK_ABSENT ? QEMU_RC_OK_ABSENT : QEMU_RC_FAILED;
		snprintf(msg, cap, "%s (QEMU exit %d)",
			 rc == QEMU_RC_OK ? "ok" : rc == QEMU_RC_OK_ABSENT ? "ok-absent" : "failed", q);
		return rc;
	}
	if (q == QEMU_EXIT_UNSUPPORTED) {
		snprintf(msg, cap, "the CPU cannot run the probe (QEMU exit %d): %s", q,
			 *unsupported ? unsupported : "the serial log does not say why");
		return QEMU_RC_UNSUPPORTED;
	}
	if (q == 0 && (!strcmp(endstatus, "ok") || !strcmp(endstatus, "ok-absent") || !strcmp(endstatus, "failed"))) {
		/* after=reboot or poweroff: the run ended, then the probe reset or
		 * powered off the machine (QEMU exits 0 on both under -no-reboot)
		 * rather than write the exit device, so its end record says how it
		 * ended. */
		snprintf(msg, cap, "%s by the log's end record, then the guest reset or powered off (QEMU exit 0)",
			 endstatus);
		return !strcmp(endstatus, "ok") ? QEMU_RC_OK : !strcmp(endstatus, "ok-absent") ? QEMU_RC_OK_ABSENT
										 : QEMU_RC_FAILED;
	}
	if (q == 0)
		snprintf(msg, cap, "no status: QEMU exit 0, the guest reset or powered off "
			 "(a triple fault under -no-reboot, or a firmware shutdown)");
	else
		snprintf(msg, cap, "no status: QEMU exit %d (it failed to start, or stopped on an error)", q);
	return QEMU_RC_OTHER;
}
