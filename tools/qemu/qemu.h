/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe qemu`'s parts: the options of one run (read in cmd_qemu.c),
 * the QEMU command line and one boot of the probe (boot.c), booting a Linux
 * guest with them (linux.c), and /dev/kvm and the clock (host.c); QEMU runs
 * under a deadline through tools/lib/spawn.h. */
#ifndef TOOLS_QEMU_QEMU_H
#define TOOLS_QEMU_QEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "tools/lib/gate.h"
#include "tools/qemu/events.h"
#include "tools/lib/spawn.h"

/* What `tickprobe qemu` returns for a probe boot: the probe's own status. */
#define QEMU_RC_OK 0
#define QEMU_RC_OK_ABSENT 10
#define QEMU_RC_FAILED 11
#define QEMU_RC_OTHER 12
#define QEMU_RC_UNSUPPORTED 13 /* the CPU refusal of boot/cpu_check.S or boot/efi_cpu.c */
#define QEMU_RC_MISSING 2
#define QEMU_RC_REGRESSED 14 /* --baseline: the run ended ok, and the gate failed */

/* QEMU's own bound on -icount shift= */
#define QEMU_ICOUNT_SHIFT_MAX 10

#define QEMU_MAX_EXTRA 96 /* QEMU arguments after "--" */
#define QEMU_MAX_ARGS (QEMU_MAX_EXTRA + 64)

struct qemu_run {
	const char *firmware, *machine, *preset, *options, *out, *image, *kernel, *ovmf, *qemu, *cpu;
	bool kvm, icount, use_kernel, cdrom, display, menu, dry_run, verbose, quiet;
	int memory, menu_timeout, smp; /* smp 0: QEMU's default (1) */
	int icount_shift;              /* --icount=SHIFT: 2^SHIFT ns an instruction */
	const char *tcg_thread;        /* --tcg=single|multi; NULL: QEMU's default */
	double timeout;
	char **extra;
	int nextra;
	/* --linux */
	bool linux_guest;
	const char *linux_kernel;   /* NULL: Debian's linux-image-cloud-amd64, from the cache or apt */
	const char *kernel_cmdline; /* appended to the guest's own */
	const char *os_options;     /* the guest's `tickprobe os` options */
	const char *keep;           /* DIR for bare.log, os.log and the guest's console */
	bool timeout_given;
	/* --baseline LOG: the gate (tools/lib/gate.h) of this run against LOG */
	const char *baseline, *gate_out;
	struct gate_opts gate;
	char options_words[1024]; /* every --options, joined in order: r->options */
	/* --event SPEC: pauses and migrations during the watch (events.h) */
	struct qemu_event events[QEMU_EVENTS_MAX];
	int nevents;
};

/* How a boot ended (outcome.c): the status of the log's last end record,
 * or "" (cut short, or no log), the log's size (-1: none), and into why[]
 * the CPU refusal's reason when the log has one. */
void qemu_log_summary(const char *path, char *status, size_t cap, long *bytes, char *why, size_t why_cap);
/* The probe's status (QEMU_RC_*) from QEMU's wait status as spawn_run
 * gives it (stopped: by our signal), and what to say of it into msg. */
int qemu_probe_outcome(const struct qemu_run *r, int status, int stopped, const char *unsupported,
		       const char *endstatus, char *msg, size_t cap);

/* Boots the probe image (or the multiboot kernel) once, as r says; the
 * probe's log goes to r->out (stdout when NULL).  Returns QEMU_RC_*. */
int qemu_boot_probe(const struct qemu_run *r);

/* --linux: a Linux guest measured with `tickprobe os`, then the probe on
 * the same machine, then `tickprobe compare` of the two (linux.c).  Returns
 * 0 when both logs are complete, else 2 or 3 as the log readers do. */
int qemu_linux(const struct qemu_run *r);

/* A QEMU command line being built, NULL-terminated at every step; mem,
 * smp, icount and accel hold the words it points at. */
struct qemu_argv {
	char *v[QEMU_MAX_ARGS];
	int n;
	char mem[16], smp[16], icount[32], accel[32];
};

void qemu_arg(struct qemu_argv *a, const char *word);
/* What every boot starts with: "QEMU -machine M -accel A -cpu C -m MB [-smp N]". */
void qemu_args_machine(const struct qemu_run *r, struct qemu_argv *a);
/* What every boot ends with: icount, the exit device (the probe's: port
 * 0xf4), no reboot, no NIC, no monitor, no display unless asked, then the
 * user's own arguments. */
void qemu_args_tail(const struct qemu_run *r, struct qemu_argv *a, bool exit_device);
/* --dry-run and --verbose print the command; true: dry run, do not start it. */
bool qemu_args_show(const struct qemu_run *r, const struct qemu_argv *a);
/* A QEMU option value: a comma is written twice. */
void qemu_escape(const char *s, char *out, size_t cap);

/* /dev/kvm is usable: NULL, else why not. */
const char *qemu_kvm_problem(void);

double qemu_now(void);

#endif
