/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe qemu: boot the probe in QEMU, capture the serial log, and exit
 * with the probe's status.
 *
 * The image (build/tickprobe.img) boots through its menus, as on a machine.
 * To choose a preset without a keyboard, the run uses a private copy of the
 * image whose environment block (tickprobe.env: 512 bytes, present twice, in
 * the ISO for GRUB and in the ESP for the UEFI app) is rewritten in place with
 * tp_preset, tp_options and tp_timeout=0.  --kernel boots the multiboot ELF32
 * through QEMU's -kernel instead (BIOS only, about 0.1 s to the probe).  The
 * files, presets and the copy are in tools/qemu/image.c.  --linux boots a
 * Linux guest first and then the probe on the same machine (linux.c). */
#define _GNU_SOURCE
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
#include "tools/common/args.h"
#include "tools/qemu/image.h"
#include "tools/qemu/qemu.h"
#include "probe/exit_status.h"

enum {
	OPT_FIRMWARE = ARGS_OPT_FIRST, OPT_MACHINE, OPT_TCG, OPT_KVM, OPT_CPU, OPT_IMAGE, OPT_CDROM, OPT_KERNEL,
	OPT_PRESET, OPT_OPTIONS, OPT_MENU, OPT_MENU_TIMEOUT, OPT_ICOUNT, OPT_OUTPUT, OPT_TIMEOUT, OPT_MEMORY,
	OPT_DISPLAY, OPT_OVMF, OPT_QEMU, OPT_DRY_RUN, OPT_VERBOSE, OPT_SMP, OPT_LINUX, OPT_KERNEL_CMDLINE,
	OPT_OS_OPTIONS, OPT_KEEP,
};

static const struct option qemu_options[] = {
	{ "firmware", required_argument, NULL, OPT_FIRMWARE },
	{ "machine", required_argument, NULL, OPT_MACHINE },
	{ "tcg", no_argument, NULL, OPT_TCG },
	{ "kvm", no_argument, NULL, OPT_KVM },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "image", required_argument, NULL, OPT_IMAGE },
	{ "cdrom", no_argument, NULL, OPT_CDROM },
	{ "kernel", optional_argument, NULL, OPT_KERNEL },
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "options", required_argument, NULL, OPT_OPTIONS },
	{ "menu", no_argument, NULL, OPT_MENU },
	{ "menu-timeout", required_argument, NULL, OPT_MENU_TIMEOUT },
	{ "icount", no_argument, NULL, OPT_ICOUNT },
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
	ARGS_OPTIONS_END
};

static const struct args_spec qemu_spec = {
	.name = "qemu",
	.synopsis = "[options] [--linux [KERNEL]] [-- extra QEMU arguments]",
	.help = "Boots the probe in QEMU (TCG unless --kvm) and exits with its status.\n"
		"  --firmware bios|uefi  SeaBIOS (default) or OVMF\n"
		"  --machine pc|q35[,k=v]  QEMU machine type (default pc), e.g. pc,hpet=off\n"
		"  --tcg | --kvm         accelerator (default tcg; --kvm checks /dev/kvm first)\n"
		"  --cpu MODEL           QEMU CPU model (default: max under TCG, host under KVM)\n"
		"  --smp N               CPUs (default 1)\n"
		"  --image PATH          the hybrid image (default: tickprobe.img beside this\n"
		"                        program, build/, or PREFIX/share/tickprobe)\n"
		"  --cdrom               attach the image as a CD rather than a disk\n"
		"  --kernel[=PATH]       boot tickprobe.elf32 with -kernel/-append (BIOS only)\n"
		"  --preset NAME         a preset from presets.cfg (default: \"default\")\n"
		"  --options \"k=v ...\"   more probe options, after the preset's\n"
		"  --menu                boot the image untouched: its menu waits as on a machine\n"
		"  --menu-timeout S      the menu's wait in the copy booted (default 0: none)\n"
		"  --icount              -icount shift=0,sleep=off: deterministic, TSC at 1 GHz\n"
		"  -o, --output FILE     write the serial log to FILE (default: to stdout)\n"
		"  --timeout S           kill QEMU after S seconds (default 600)\n"
		"  --memory MB           guest memory (default 256)\n"
		"  --display             show QEMU's window (default: -display none)\n"
		"  --ovmf PATH           OVMF firmware file (default /usr/share/ovmf/OVMF.fd)\n"
		"  --qemu PATH           QEMU binary (default qemu-system-x86_64)\n"
		"  -n, --dry-run         print the QEMU command and stop;  -v, --verbose: print it and run\n"
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
		 "2 QEMU, firmware or image missing.\n"
		 "With --linux: 0 both logs complete, 2 a log missing or unreadable (no kernel,\n"
		 "a kernel panic, no log from the guest, a timeout), 3 a log damaged or cut short.\n",
	.shortopts = "o:nv",
	.longopts = qemu_options,
	.passthrough = 1, /* no operands; after "--", QEMU's own arguments */
};

/* QEMU's exit status q, through isa-debug-exit (probe/exit_status.h), as
 * this command's exit status, and what it means into msg. */
static int exit_meaning(int q, const char *unsupported, char *msg, size_t cap)
{
	int rc = q == QEMU_EXIT_OK ? QEMU_RC_OK : q == QEMU_EXIT_OK_ABSENT ? QEMU_RC_OK_ABSENT
		: q == QEMU_EXIT_FAILED ? QEMU_RC_FAILED : q == QEMU_EXIT_UNSUPPORTED ? QEMU_RC_UNSUPPORTED
		: QEMU_RC_OTHER;

	if (rc == QEMU_RC_UNSUPPORTED)
		snprintf(msg, cap, "the CPU cannot run the probe (QEMU exit %d): %s", q,
			 *unsupported ? unsupported : "the serial log does not say why");
	else if (rc != QEMU_RC_OTHER)
		snprintf(msg, cap, "%s (QEMU exit %d)",
			 rc == QEMU_RC_OK ? "ok" : rc == QEMU_RC_OK_ABSENT ? "ok-absent" : "failed", q);
	else if (q == 0)
		snprintf(msg, cap, "no status: QEMU exit 0, the guest reset or powered off "
			 "(a triple fault under -no-reboot, or a firmware shutdown)");
	else
		snprintf(msg, cap, "no status: QEMU exit %d (it failed to start, or stopped on an error)", q);
	return rc;
}

static const char *const qemu_firmwares[] = { "bios", "uefi", NULL };

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
static void log_summary(const char *path, char *status, size_t cap, long *bytes, char *why, size_t why_cap)
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

/* -1 to go on and boot, or the exit status to stop with (after --help, or
 * a usage error said). */
static int parse_args(struct args *a, struct qemu_run *r, int argc, char **argv)
{
	long whole;
	int c;

	args_start(a, &qemu_spec, argc, argv);
	while ((c = args_next(a)) > 0) {
		char *v = a->value;
		switch (c) {
		case OPT_KVM: r->kvm = true; break;
		case OPT_TCG: r->kvm = false; break;
		case OPT_ICOUNT: r->icount = true; break;
		case OPT_CDROM: r->cdrom = true; break;
		case OPT_DISPLAY: r->display = true; break;
		case OPT_MENU: r->menu = true; break;
		case 'n': case OPT_DRY_RUN: r->dry_run = true; break;
		case 'v': case OPT_VERBOSE: r->verbose = true; break;
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
		case OPT_OPTIONS: r->options = v; break;
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
		case OPT_MEMORY:
		case OPT_MENU_TIMEOUT:
		case OPT_SMP:
			if (args_long(a, c == OPT_MENU_TIMEOUT ? 0 : 1, c == OPT_SMP ? 288 : 1000000, &whole))
				return EXIT_USAGE;
			*(c == OPT_MEMORY ? &r->memory : c == OPT_SMP ? &r->smp : &r->menu_timeout) = (int)whole;
			break;
		default:
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
	size_t ml = r->machine[0] == 'p' ? 2 : 3;

	if ((strncmp(r->machine, "pc", 2) && strncmp(r->machine, "q35", 3)) || (r->machine[ml] && r->machine[ml] != ','))
		return args_fail(a, "--machine is pc or q35 (with ,options), not %s", r->machine);
	if (r->use_kernel && !strcmp(r->firmware, "uefi"))
		return args_fail(a, "--kernel boots a multiboot ELF32, which OVMF cannot: boot the image for UEFI");
	if (r->use_kernel && (r->cdrom || r->menu))
		return args_fail(a, "--cdrom and --menu are for the image, not --kernel");
	if (r->nextra > QEMU_MAX_EXTRA)
		return args_fail(a, "more than %d extra QEMU arguments", QEMU_MAX_EXTRA);
	if (r->kvm && r->icount)
		return args_fail(a, "--icount works under TCG only");
	if (!r->linux_guest && (r->kernel_cmdline || r->os_options || r->keep))
		return args_fail(a, "--kernel-cmdline, --os-options and --keep go with --linux");
	if (r->linux_guest && (r->out || r->menu || r->display))
		return args_fail(a, "--linux writes its logs with --keep DIR; -o, --menu and --display do not go with it");
	if (r->kvm && (what = qemu_kvm_problem())) {
		fprintf(stderr, "tickprobe qemu: --kvm: %s\n", what);
		return QEMU_RC_MISSING;
	}
	return -1;
}

int qemu_machine_args(const struct qemu_run *r, char **qa, char *mem, char *smp)
{
	int n = 0;

	qa[n++] = "-machine";
	qa[n++] = (char *)r->machine;
	qa[n++] = "-accel";
	qa[n++] = r->kvm ? "kvm" : "tcg";
	/* qemu64, QEMU's default model, has no RDTSCP; "max" is every feature
	 * TCG emulates. */
	qa[n++] = "-cpu";
	qa[n++] = (char *)(r->cpu ? r->cpu : r->kvm ? "host" : "max");
	snprintf(mem, 16, "%d", r->memory);
	qa[n++] = "-m";
	qa[n++] = mem;
	if (r->smp > 0) {
		snprintf(smp, 16, "%d", r->smp);
		qa[n++] = "-smp";
		qa[n++] = smp;
	}
	return n;
}

int cmd_qemu(int argc, char **argv)
{
	struct qemu_run r = { .firmware = "bios", .machine = "pc", .qemu = "qemu-system-x86_64",
			      .memory = 256, .timeout = 600 };
	struct args a;
	int rc;

	if ((rc = parse_args(&a, &r, argc, argv)) >= 0)
		return rc;
	if ((rc = check_run(&a, &r)) >= 0)
		return rc;
	return r.linux_guest ? qemu_linux(&r) : qemu_boot_probe(&r);
}

int qemu_boot_probe(const struct qemu_run *rp)
{
	struct qemu_run r = *rp;
	char *qa[QEMU_MAX_EXTRA + 64];
	int n = 0, rc, status, i, stopped;
	char img_buf[PATH_MAX], cfg_buf[PATH_MAX], kern_buf[PATH_MAX], tmp_img[] = "/tmp/tickprobe-qemu-XXXXXX";
	char tmp_log[] = "/tmp/tickprobe-serial-XXXXXX", drive[PATH_MAX + 64], chardev[PATH_MAX + 64];
	char cmdline[1024] = "", popts[512] = "", mem[16], smp[16], endstatus[32], msg[512], unsupported[200];
	const char *cfg, *log_path;
	bool have_tmp_img = false, have_tmp_log = false;
	double t0;
	long bytes;

	cfg = qemu_locate("presets.cfg", "image/presets.cfg", cfg_buf, sizeof cfg_buf);
	if (r.preset && cfg && !qemu_preset_options(cfg, r.preset, popts, sizeof popts))
		return EXIT_USAGE;
	if (r.preset && !cfg && r.use_kernel) {
		fprintf(stderr, "tickprobe qemu: presets.cfg not found; use --options\n");
		return QEMU_RC_MISSING;
	}

	qa[n++] = (char *)r.qemu;
	n += qemu_machine_args(&r, qa + n, mem, smp);
	if (!strcmp(r.firmware, "uefi")) {
		const char *cands[] = { r.ovmf, getenv("TICKPROBE_OVMF"), "/usr/share/ovmf/OVMF.fd",
					"/usr/share/OVMF/OVMF.fd", "/usr/share/qemu/OVMF.fd" };
		const char *fw = NULL;
		for (i = 0; i < 5 && !fw; i++)
			if (cands[i] && (qemu_readable(cands[i]) || (i == 0 && r.dry_run)))
				fw = cands[i];
		if (!fw) {
			fprintf(stderr, "tickprobe qemu: no OVMF firmware (%s); install the ovmf package\n",
				r.ovmf ? r.ovmf : "/usr/share/ovmf/OVMF.fd");
			return QEMU_RC_MISSING;
		}
		qa[n++] = "-bios";
		qa[n++] = (char *)fw;
	}

	if (r.use_kernel) {
		const char *k = r.kernel ? r.kernel : qemu_locate("tickprobe.elf32", NULL, kern_buf, sizeof kern_buf);
		if (!k || (!qemu_readable(k) && !r.dry_run)) {
			fprintf(stderr, "tickprobe qemu: no kernel %s (make kernel)\n", k ? k : "tickprobe.elf32");
			return QEMU_RC_MISSING;
		}
		if (!r.preset && cfg)
			qemu_preset_options(cfg, "default", popts, sizeof popts);
		snprintf(cmdline, sizeof cmdline, "%s%s%s", popts, *popts && r.options ? " " : "", r.options ? r.options : "");
		qa[n++] = "-kernel";
		qa[n++] = (char *)k;
		qa[n++] = "-append";
		qa[n++] = cmdline;
	} else {
		const char *img = r.image ? r.image : qemu_locate("tickprobe.img", NULL, img_buf, sizeof img_buf);
		if (!img || (!qemu_readable(img) && !r.dry_run)) {
			fprintf(stderr, "tickprobe qemu: no image %s (make image)\n", img ? img : "tickprobe.img");
			return QEMU_RC_MISSING;
		}
		if (!r.menu && !r.dry_run) {
			char blk[QEMU_ENV_SIZE];
			int fd = mkstemp(tmp_img), got;
			if (fd < 0) {
				perror("tickprobe qemu: temporary image");
				return QEMU_RC_MISSING;
			}
			have_tmp_img = true;
			if (!qemu_env_block(blk, r.preset ? r.preset : "", r.menu_timeout, r.options ? r.options : "")) {
				close(fd);
				unlink(tmp_img);
				fprintf(stderr, "tickprobe qemu: --options too long for the image's 512-byte block\n");
				return EXIT_USAGE;
			}
			got = qemu_patch_copy(img, fd, blk);
			close(fd);
			if (got <= 0) {
				fprintf(stderr, "tickprobe qemu: %s: %s\n", img,
					got < 0 ? "cannot copy it" : "no tickprobe.env block (an old image? make image)");
				unlink(tmp_img);
				return QEMU_RC_MISSING;
			}
			img = tmp_img;
		}
		snprintf(drive, sizeof drive, "file=%s,format=raw,%s", img,
			 r.cdrom ? "media=cdrom,readonly=on" : (have_tmp_img ? "media=disk" : "media=disk,snapshot=on"));
		qa[n++] = "-drive";
		qa[n++] = drive;
	}

	if (r.out) {
		log_path = r.out;
		snprintf(chardev, sizeof chardev, "file,id=ser0,path=%s", r.out);
	} else {
		int fd = r.dry_run ? -1 : mkstemp(tmp_log);
		if (fd >= 0) {
			close(fd);
			have_tmp_log = true;
		}
		log_path = tmp_log;
		snprintf(chardev, sizeof chardev, "stdio,id=ser0,signal=on%s%s", have_tmp_log ? ",logfile=" : "",
			 have_tmp_log ? tmp_log : "");
	}
	qa[n++] = "-chardev";
	qa[n++] = chardev;
	qa[n++] = "-serial";
	qa[n++] = "chardev:ser0";
	if (r.icount) {
		qa[n++] = "-icount";
		qa[n++] = "shift=0,sleep=off";
		/* The CMOS clock on the virtual clock from a fixed date: on the
		 * host's clock it ticks about 3 times a guest second under icount,
		 * and two boots would not be the same. */
		qa[n++] = "-rtc";
		qa[n++] = "base=2020-01-01T00:00:00,clock=vm";
	}
	qa[n++] = "-device";
	qa[n++] = "isa-debug-exit,iobase=0xf4,iosize=0x04";
	qa[n++] = "-no-reboot";
	qa[n++] = "-nic"; /* no NIC: OVMF would otherwise load iPXE and try PXE */
	qa[n++] = "none";
	qa[n++] = "-monitor";
	qa[n++] = "none";
	if (!r.display) {
		qa[n++] = "-display";
		qa[n++] = "none";
	}
	for (i = 0; i < r.nextra; i++)
		qa[n++] = r.extra[i];
	qa[n] = NULL;

	if (r.dry_run || r.verbose) {
		for (i = 0; i < n; i++)
			fprintf(r.dry_run ? stdout : stderr, "%s%s", i ? " " : "", qa[i]);
		fprintf(r.dry_run ? stdout : stderr, "\n");
		if (r.dry_run)
			return EXIT_CLEAN;
	}

	t0 = qemu_now();
	status = qemu_spawn(qa, r.timeout, NULL, NULL, &stopped);
	if (have_tmp_img)
		unlink(tmp_img);
	log_summary(log_path, endstatus, sizeof endstatus, &bytes, unsupported, sizeof unsupported);
	if (have_tmp_log)
		unlink(tmp_log);
	fflush(stdout);

	if (status == -2) {
		fprintf(stderr, "tickprobe qemu: cannot run %s: %s (install qemu-system-x86)\n", r.qemu, strerror(errno));
		return QEMU_RC_MISSING;
	}
	if (status == -1) {
		rc = QEMU_RC_OTHER;
		snprintf(msg, sizeof msg, stopped ? "interrupted, QEMU stopped" : "timed out after %.0f s, QEMU killed",
			 r.timeout);
	} else if (WIFSIGNALED(status)) {
		rc = QEMU_RC_OTHER;
		snprintf(msg, sizeof msg, "QEMU died of signal %d", WTERMSIG(status));
	} else {
		rc = exit_meaning(WEXITSTATUS(status), unsupported, msg, sizeof msg);
	}
	fprintf(stderr, "tickprobe qemu: %s | %s %s %s%s | %.1f s", msg, r.use_kernel ? "kernel" : r.cdrom ? "cd" : "disk",
		r.firmware, r.machine, r.kvm ? " kvm" : r.icount ? " tcg icount" : " tcg", qemu_now() - t0);
	if (bytes >= 0)
		fprintf(stderr, " | log %s%s: %ld bytes, end %s", r.out ? "" : "(stdout)", r.out ? r.out : "", bytes,
			*endstatus ? endstatus : "missing");
	fprintf(stderr, "\n");
	return rc;
}
