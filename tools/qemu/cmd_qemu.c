/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe qemu: boot the probe in QEMU, capture the serial log, and exit
 * with the probe's status.  This file reads and checks the options; the boot
 * is tools/qemu/boot.c, and --linux (a Linux guest first, then the probe on
 * the same machine) is tools/qemu/linux.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/qemu/image.h"
#include "tools/qemu/qemu.h"
#include "probe/exit_status.h"

enum {
	OPT_FIRMWARE = ARGS_OPT_FIRST, OPT_MACHINE, OPT_TCG, OPT_KVM, OPT_CPU, OPT_IMAGE, OPT_CDROM, OPT_KERNEL,
	OPT_PRESET, OPT_OPTIONS, OPT_MENU, OPT_MENU_TIMEOUT, OPT_ICOUNT, OPT_OUTPUT, OPT_TIMEOUT, OPT_MEMORY,
	OPT_DISPLAY, OPT_OVMF, OPT_QEMU, OPT_DRY_RUN, OPT_VERBOSE, OPT_SMP, OPT_LINUX, OPT_KERNEL_CMDLINE,
	OPT_OS_OPTIONS, OPT_KEEP, OPT_QUIET, OPT_BASELINE, OPT_GATE_FORMAT, OPT_GATE_OUTPUT, OPT_THRESHOLD,
	OPT_EVENT,
};

/* One option a line: clang-format would pack the table (ARGS_OPTIONS_END is a macro). */
/* clang-format off */
static const struct option qemu_options[] = {
	{ "firmware", required_argument, NULL, OPT_FIRMWARE },
	{ "machine", required_argument, NULL, OPT_MACHINE },
	{ "tcg", optional_argument, NULL, OPT_TCG },
	{ "kvm", no_argument, NULL, OPT_KVM },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "image", required_argument, NULL, OPT_IMAGE },
	{ "cdrom", no_argument, NULL, OPT_CDROM },
	{ "kernel", optional_argument, NULL, OPT_KERNEL },
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "options", required_argument, NULL, OPT_OPTIONS },
	{ "menu", no_argument, NULL, OPT_MENU },
	{ "menu-timeout", required_argument, NULL, OPT_MENU_TIMEOUT },
	{ "icount", optional_argument, NULL, OPT_ICOUNT },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "memory", required_argument, NULL, OPT_MEMORY },
	{ "display", no_argument, NULL, OPT_DISPLAY },
	{ "ovmf", required_argument, NULL, OPT_OVMF },
	{ "qemu", required_argument, NULL, OPT_QEMU },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	{ "smp", required_argument, NULL, OPT_SMP },
	{ "linux", optional_argument, NULL, OPT_LINUX },
	{ "kernel-cmdline", required_argument, NULL, OPT_KERNEL_CMDLINE },
	{ "os-options", required_argument, NULL, OPT_OS_OPTIONS },
	{ "keep", required_argument, NULL, OPT_KEEP },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "gate-format", required_argument, NULL, OPT_GATE_FORMAT },
	{ "gate-output", required_argument, NULL, OPT_GATE_OUTPUT },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "event", required_argument, NULL, OPT_EVENT },
	ARGS_OPTIONS_END
};
/* clang-format on */

static const struct args_spec qemu_spec = {
	.name = "qemu",
	.synopsis = "[options] [--linux [KERNEL]] [-- extra QEMU arguments]",
	.help = "Boots the probe in QEMU (TCG unless --kvm) and exits with its status.\n"
		"  --firmware bios|uefi  SeaBIOS (default) or OVMF\n"
		"  --machine pc|q35|microvm[,k=v]  QEMU machine type (default pc), e.g. pc,hpet=off;\n"
		"                        microvm[,pit=off,rtc=off,pic=off,acpi=off] with --kernel\n"
		"  --tcg[=single|multi] | --kvm\n"
		"                        accelerator (default tcg; --kvm checks /dev/kvm first);\n"
		"                        single: one host thread runs every CPU in turn, far less\n"
		"                        host time with --smp, but no two CPUs run at once;\n"
		"                        multi: a thread a CPU (QEMU's default)\n"
		"  --cpu MODEL           QEMU CPU model (default: max under TCG, host under KVM)\n"
		"  --smp N               CPUs (default 1)\n"
		"  --image PATH          the hybrid image (default: tickprobe.img beside this\n"
		"                        program, build/, or PREFIX/share/tickprobe)\n"
		"  --cdrom               attach the image as a CD rather than a disk\n"
		"  --kernel[=PATH]       boot tickprobe.elf32 with -kernel/-append (BIOS only)\n"
		"  --preset NAME         a preset from presets.cfg (default: \"default\")\n"
		"  --options \"k=v ...\"   more probe options, after the preset's (repeatable)\n"
		"  --menu                boot the image untouched: its menu waits as on a machine\n"
		"  --menu-timeout S      the menu's wait in the copy booted (default 0: none)\n"
		"  --icount[=SHIFT]      -icount shift=SHIFT,sleep=off (SHIFT 0 to 10, default 0):\n"
		"                        deterministic, TSC at 1 GHz, 2^SHIFT ns an instruction;\n"
		"                        slow with OVMF: a quick run took 82 s, 6 s on SeaBIOS\n"
		"  -o, --output FILE     write the serial log to FILE (default: to stdout)\n"
		"  --timeout S           kill QEMU after S seconds (default 600)\n"
		"  --memory MB           guest memory (default 256)\n"
		"  --display             show QEMU's window (default: -display none)\n"
		"  --ovmf PATH           OVMF firmware file (default /usr/share/ovmf/OVMF.fd)\n"
		"  --qemu PATH           QEMU binary (default qemu-system-x86_64)\n"
		"  -n, --dry-run         print the QEMU command and stop;  -v, --verbose: print it and run\n"
		"  -q, --quiet           no progress line (it shows only on a terminal, with -o or\n"
		"                        stdout not a terminal)\n"
		"\n"
		"  --baseline LOG        with -o FILE: after a run that ends ok, gate it against LOG\n"
		"                        as `tickprobe compare --gate LOG FILE` does (exit 14 when a\n"
		"                        counter is significantly slower beyond the threshold, or gone)\n"
		"  --gate-format F       the gate's output: text (default), tap or junit\n"
		"  --gate-output FILE    the gate's output to FILE (default: stdout)\n"
		"  --threshold T         as compare --gate's: PCT%% or NSns, or COUNTER=T (default 10%%)\n"
		"\n"
		"  --event pause=DURATION@AT | migrate@AT\n"
		"                        during the watch (watch= in the options), AT after it began:\n"
		"                        stop the VM for DURATION, or migrate it into a new QEMU\n"
		"                        (repeatable, up to 8; times as 5, 1.5s, 500ms, 2m)\n"
		"\n"
		"  --linux [KERNEL]      boot a Linux kernel (default: Debian's linux-image-cloud-amd64,\n"
		"                        from the cache, else fetched with apt-get download and\n"
		"                        unpacked there; nothing is installed) with an initramfs of\n"
		"                        busybox-static and tickprobe-static that runs `tickprobe os`;\n"
		"                        then boot the probe on the same machine (-machine, -cpu,\n"
		"                        -smp, -m) and print `tickprobe compare` of the two logs\n"
		"  --kernel-cmdline TEXT more guest kernel parameters, after \"console=ttyS0 panic=-1\"\n"
		"                        (and tsc=reliable under TCG); init=PROG [-- ARGS] runs PROG\n"
		"                        in place of the guest's tickprobe os\n"
		"  --os-options TEXT     the guest's `tickprobe os` options\n"
		"                        (default \"--switch --raw-io\")\n"
		"  --keep DIR            write bare.log, os.log and console.log (the guest's ttyS0)\n"
		"                        into DIR\n",
	.exits = "Exit status: 0 ok, 10 ok-absent (a counter absent or unhealthy), 11 failed,\n"
		 "12 QEMU ended another way (reset/triple fault, timeout, crash), 13 the CPU\n"
		 "cannot run the probe (it lacks long mode, SSE2 ...), 1 usage,\n"
		 "2 QEMU, firmware or image missing (or, with --baseline, a log the gate cannot read),\n"
		 "14 with --baseline: the run ended ok and the gate failed.\n"
		 "With --linux: 0 both logs complete, 2 a log missing or unreadable (no kernel,\n"
		 "a kernel panic, no log from the guest, a timeout), 3 a log damaged or cut short.\n",
	.shortopts = "o:nvq",
	.longopts = qemu_options,
	.passthrough = 1, /* no operands; after "--", QEMU's own arguments */
};

static const char *const qemu_firmwares[] = { "bios", "uefi", NULL };
static const char *const qemu_tcg_threads[] = { "single", "multi", NULL };

/* --linux takes its KERNEL as --linux=PATH or as the next word: getopt
 * leaves an optional value's next word alone, so it is taken here when it
 * is not an option. */
static const char *linux_operand(struct args *a, const char *v)
{
	if (v)
		return v;
	if (optind < a->argc && a->argv[optind][0] != '-')
		return a->argv[optind++];
	return NULL;
}

/* --options again adds its words after the earlier ones, as the probe reads
 * a later word over an earlier one: a script's base words, then a case's. */
static bool join_options(struct qemu_run *r, const char *words)
{
	size_t used = strlen(r->options_words), n = strlen(words);

	if (used + (used ? 1 : 0) + n >= sizeof r->options_words)
		return false;
	if (used)
		r->options_words[used++] = ' ';
	memcpy(r->options_words + used, words, n + 1);
	r->options = r->options_words;
	return true;
}

/* -1 to go on and boot, or the exit status to stop with (after --help, or
 * a usage error said). */
/* --baseline and the gate's options: 0, or EXIT_USAGE said. */
static int gate_option(struct args *a, struct qemu_run *r, int c)
{
	static const char *const formats[] = { "text", "tap", "junit", NULL };
	char why[300];
	int k;

	if (c == OPT_BASELINE) {
		r->baseline = a->value;
	} else if (c == OPT_GATE_OUTPUT) {
		r->gate_out = a->value;
	} else if (c == OPT_GATE_FORMAT) {
		if (args_choice(a, formats, &k))
			return EXIT_USAGE;
		r->gate.format = (enum gate_format)k;
	} else if (c == OPT_THRESHOLD && !gate_add_threshold(&r->gate, a->value, why, sizeof why)) {
		return args_fail(a, "%s", why);
	}
	return 0;
}

/* --event SPEC: 0, or EXIT_USAGE said. */
static int event_option(struct args *a, struct qemu_run *r)
{
	char why[200];

	if (r->nevents == QEMU_EVENTS_MAX)
		return args_fail(a, "--event: at most %d events in a run", QEMU_EVENTS_MAX);
	if (!qemu_event_parse(a->value, &r->events[r->nevents], why, sizeof why))
		return args_fail(a, "%s", why);
	r->nevents++;
	return 0;
}

static int parse_args(struct args *a, struct qemu_run *r, int argc, char **argv)
{
	long whole;
	int c;

	args_start(a, &qemu_spec, argc, argv);
	while ((c = args_next(a)) > 0) {
		char *v = a->value;
		switch (c) {
		case OPT_KVM:
			r->kvm = true;
			r->tcg_thread = NULL;
			break;
		case OPT_TCG:
			r->kvm = false;
			if (v && args_choice(a, qemu_tcg_threads, NULL))
				return EXIT_USAGE;
			r->tcg_thread = v;
			break;
		case OPT_CDROM: r->cdrom = true; break;
		case OPT_DISPLAY: r->display = true; break;
		case OPT_MENU: r->menu = true; break;
		case 'n': case OPT_DRY_RUN: r->dry_run = true; break;
		case 'v': case OPT_VERBOSE: r->verbose = true; break;
		case 'q': case OPT_QUIET: r->quiet = true; break;
		case OPT_KERNEL:
			r->use_kernel = true;
			if (v)
				r->kernel = v;
			break;
		case OPT_LINUX:
			r->linux_guest = true;
			r->linux_kernel = linux_operand(a, v);
			break;
		case OPT_FIRMWARE:
			if (args_choice(a, qemu_firmwares, NULL))
				return EXIT_USAGE;
			r->firmware = v;
			break;
		case OPT_MACHINE: r->machine = v; break;
		case OPT_CPU: r->cpu = v; break;
		case OPT_PRESET: r->preset = v; break;
		case OPT_OPTIONS:
			if (!join_options(r, v))
				return args_fail(a, "--options: the probe's words are over %zu bytes in all",
						 sizeof r->options_words - 1);
			break;
		case 'o': case OPT_OUTPUT: r->out = v; break;
		case OPT_IMAGE: r->image = v; break;
		case OPT_OVMF: r->ovmf = v; break;
		case OPT_QEMU: r->qemu = v; break;
		case OPT_KERNEL_CMDLINE: r->kernel_cmdline = v; break;
		case OPT_OS_OPTIONS: r->os_options = v; break;
		case OPT_KEEP: r->keep = v; break;
		case OPT_TIMEOUT:
			if (args_double(a, 0, 1e6, &r->timeout))
				return EXIT_USAGE;
			r->timeout_given = true;
			break;
		case OPT_ICOUNT:
			r->icount = true;
			if (v && args_long(a, 0, QEMU_ICOUNT_SHIFT_MAX, &whole))
				return EXIT_USAGE;
			r->icount_shift = v ? (int)whole : 0;
			break;
		case OPT_MEMORY:
		case OPT_MENU_TIMEOUT:
		case OPT_SMP:
			if (args_long(a, c == OPT_MENU_TIMEOUT ? 0 : 1, c == OPT_SMP ? 288 : 1000000, &whole))
				return EXIT_USAGE;
			*(c == OPT_MEMORY ? &r->memory : c == OPT_SMP ? &r->smp : &r->menu_timeout) = (int)whole;
			break;
		case OPT_EVENT:
			if (event_option(a, r) != 0)
				return EXIT_USAGE;
			break;
		default:
			if (gate_option(a, r, c) != 0)
				return EXIT_USAGE;
			break;
		}
	}
	if (c == ARGS_STOP)
		return a->status;
	r->extra = a->passed;
	r->nextra = a->npassed;
	return -1;
}

/* The checks every boot shares; -1 to go on, or the exit status. */
static int check_run(const struct args *a, const struct qemu_run *r)
{
	const char *what;
	size_t ml = strcspn(r->machine, ",");
	bool microvm = ml == 7 && !strncmp(r->machine, "microvm", 7);

	if (!(ml == 2 && !strncmp(r->machine, "pc", 2)) && !(ml == 3 && !strncmp(r->machine, "q35", 3)) && !microvm)
		return args_fail(a, "--machine is pc, q35 or microvm (with ,options), not %s", r->machine);
	/* microvm has no firmware to boot a disk from: QEMU loads the kernel itself. */
	if (microvm && (!r->use_kernel || r->linux_guest))
		return args_fail(a, "--machine microvm boots the probe with --kernel only");
	if (r->use_kernel && !strcmp(r->firmware, "uefi"))
		return args_fail(a, "--kernel boots a multiboot ELF32, which OVMF cannot: boot the image for UEFI");
	if (r->use_kernel && (r->cdrom || r->menu))
		return args_fail(a, "--cdrom and --menu are for the image, not --kernel");
	if (r->nextra > QEMU_MAX_EXTRA)
		return args_fail(a, "more than %d extra QEMU arguments", QEMU_MAX_EXTRA);
	if (r->kvm && r->icount)
		return args_fail(a, "--icount works under TCG only");
	/* QEMU counts instructions on one thread only. */
	if (r->icount && r->tcg_thread && !strcmp(r->tcg_thread, "multi"))
		return args_fail(a, "--icount runs every CPU on one thread: not with --tcg=multi");
	if (!r->linux_guest && (r->kernel_cmdline || r->os_options || r->keep))
		return args_fail(a, "--kernel-cmdline, --os-options and --keep go with --linux");
	if (r->linux_guest && (r->out || r->menu || r->display))
		return args_fail(a, "--linux writes its logs with --keep DIR; -o, --menu and --display do not go with it");
	if (r->baseline && (!r->out || r->linux_guest))
		return args_fail(a, "--baseline LOG gates the run's log: give it -o FILE (and no --linux)");
	if (!r->baseline && (r->gate_out || r->gate.format != GATE_TEXT || r->gate.nper || r->gate.dflt.pct != 10))
		return args_fail(a, "--gate-format, --gate-output and --threshold go with --baseline");
	if (r->nevents && (r->linux_guest || r->menu))
		return args_fail(a, "--event needs the probe's options (events=, watch=) in the boot: not with "
			    "--linux or --menu");
	if (r->kvm && (what = qemu_kvm_problem())) {
		fprintf(stderr, "tickprobe qemu: --kvm: %s\n", what);
		return QEMU_RC_MISSING;
	}
	return -1;
}

int cmd_qemu(int argc, char **argv)
{
	struct qemu_run r = { .firmware = "bios", .machine = "pc", .qemu = "qemu-system-x86_64",
			      .memory = 256, .timeout = 600 };
	struct args a;
	int rc;

	gate_defaults(&r.gate);
	if ((rc = parse_args(&a, &r, argc, argv)) >= 0)
		return rc;
	if ((rc = check_run(&a, &r)) >= 0)
		return rc;
	if (r.nevents) {
		/* The probe answers on COM2; the timeout leaves room for what
		 * the events add to the run. */
		if (!join_options(&r, "events=" QEMU_EVENTS_PORT))
			return args_fail(&a, "--options: no room left for events=" QEMU_EVENTS_PORT);
		if (!r.timeout_given)
			r.timeout += qemu_events_extra_s(r.events, r.nevents);
	}
	if (r.linux_guest)
		return qemu_linux(&r);
	rc = qemu_boot_probe(&r);
	/* The gate only for a run that ended as runs do: a failed one says so itself. */
	if (r.baseline && (rc == QEMU_RC_OK || rc == QEMU_RC_OK_ABSENT) && !r.dry_run) {
		int g = gate_files(r.baseline, r.out, &r.gate, r.gate_out);
		if (g == EXIT_REGRESSED)
			return QEMU_RC_REGRESSED;
		if (g != EXIT_CLEAN)
			return QEMU_RC_MISSING;
	}
	return rc;
}
