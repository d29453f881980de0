/* SPDX-License-Identifier: BSD-2-Clause */
/* Booting under QEMU, for `tickprobe qemu` and `tickprobe qemu --linux`
 * alike: the command line both boots share (qemu.h), and one boot of the
 * probe from the image or the multiboot kernel with its outcome.
 *
 * The image (build/tickprobe.img) boots through its menus, as on a machine.
 * To choose a preset without a keyboard, the boot uses a private copy of the
 * image whose environment block (tickprobe.env: 512 bytes, present twice, in
 * the ISO for GRUB and in the ESP for the UEFI app) is rewritten in place with
 * tp_preset, tp_options and tp_timeout=0 (tools/qemu/image.c).  --kernel
 * boots the multiboot ELF32 through QEMU's -kernel instead (BIOS only, about
 * 0.1 s to the probe). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/lib/exit_codes.h"
#include "tools/lib/textsafe.h"
#include "tools/qemu/events.h"
#include "tools/qemu/image.h"
#include "tools/qemu/qemu.h"
#include "tools/qemu/watch.h"
#include "probe/exit_status.h"

void qemu_escape(const char *s, char *out, size_t cap)
{
	size_t n = 0;
	for (; *s && n + 3 < cap; s++) {
		if (*s == ',')
			out[n++] = ',';
		out[n++] = *s;
	}
	out[n] = 0;
}

void qemu_arg(struct qemu_argv *a, const char *word)
{
	if (a->n < QEMU_MAX_ARGS - 1)
		a->v[a->n++] = (char *)word;
	a->v[a->n] = NULL;
}

void qemu_args_machine(const struct qemu_run *r, struct qemu_argv *a)
{
	qemu_arg(a, r->qemu);
	qemu_arg(a, "-machine");
	qemu_arg(a, r->machine);
	if (r->kvm)
		snprintf(a->accel, sizeof a->accel, "kvm");
	else if (r->tcg_thread)
		snprintf(a->accel, sizeof a->accel, "tcg,thread=%s", r->tcg_thread);
	else
		snprintf(a->accel, sizeof a->accel, "tcg");
	qemu_arg(a, "-accel");
	qemu_arg(a, a->accel);
	/* qemu64, QEMU's default model, has no RDTSCP; "max" is every feature
	 * TCG emulates. */
	qemu_arg(a, "-cpu");
	qemu_arg(a, r->cpu ? r->cpu : r->kvm ? "host" : "max");
	snprintf(a->mem, sizeof a->mem, "%d", r->memory);
	qemu_arg(a, "-m");
	qemu_arg(a, a->mem);
	if (r->smp > 0) {
		snprintf(a->smp, sizeof a->smp, "%d", r->smp);
		qemu_arg(a, "-smp");
		qemu_arg(a, a->smp);
	}
}

void qemu_args_tail(const struct qemu_run *r, struct qemu_argv *a, bool exit_device)
{
	if (r->icount) {
		snprintf(a->icount, sizeof a->icount, "shift=%d,sleep=off", r->icount_shift);
		qemu_arg(a, "-icount");
		qemu_arg(a, a->icount);
		/* The CMOS clock on the virtual clock from a fixed date: on the
		 * host's clock it ticks about 3 times a guest second under icount,
		 * and two boots would not be the same. */
		qemu_arg(a, "-rtc");
		qemu_arg(a, "base=2020-01-01T00:00:00,clock=vm");
	}
	if (exit_device) {
		qemu_arg(a, "-device");
		qemu_arg(a, "isa-debug-exit,iobase=0xf4,iosize=0x04");
	}
	qemu_arg(a, "-no-reboot");
	qemu_arg(a, "-nic"); /* no NIC: OVMF would otherwise load iPXE and try PXE */
	qemu_arg(a, "none");
	qemu_arg(a, "-monitor");
	qemu_arg(a, "none");
	if (!r->display) {
		qemu_arg(a, "-display");
		qemu_arg(a, "none");
	}
	for (int i = 0; i < r->nextra; i++)
		qemu_arg(a, r->extra[i]);
}

bool qemu_args_show(const struct qemu_run *r, const struct qemu_argv *a)
{
	FILE *to = r->dry_run ? stdout : stderr;
	if (!r->dry_run && !r->verbose)
		return false;
	for (int i = 0; i < a->n; i++)
		fprintf(to, "%s%s", i ? " " : "", a->v[i]);
	fprintf(to, "\n");
	return r->dry_run;
}

/* What one probe boot holds while it runs: its temporary files and the
 * buffers its QEMU arguments point into.  The arguments are put together
 * again for each QEMU of the run (probe_argv): with --event, a migration's
 * destination gets the first's, and its own sockets. */
struct probe_boot {
	struct qemu_run r;
	struct qemu_argv a;
	char img_buf[PATH_MAX], cfg_buf[PATH_MAX], kern_buf[PATH_MAX];
	char tmp_img[32], tmp_log[32], drive[PATH_MAX * 2 + 64], chardev[PATH_MAX * 2 + 64];
	char cmdline[1024], popts[512], path_e[PATH_MAX * 2];
	const char *cfg, *log_path, *fw, *kernel;
	bool have_tmp_img, have_tmp_log;
	struct boot_watch watch;
	double next_watch_tick;
	struct spawn_proc proc;
	struct qemu_events ev;
	struct qemu_event_args ev_args;
};

/* -bios OVMF for UEFI; -1 to go on, or the exit status. */
static int probe_firmware(struct probe_boot *b)
{
	const struct qemu_run *r = &b->r;
	const char *cands[] = { r->ovmf, getenv("TICKPROBE_OVMF"), "/usr/share/ovmf/OVMF.fd",
				"/usr/share/OVMF/OVMF.fd", "/usr/share/qemu/OVMF.fd" };
	const char *fw = NULL;

	if (strcmp(r->firmware, "uefi"))
		return -1;
	for (int i = 0; i < 5 && !fw; i++)
		if (cands[i] && (qemu_readable(cands[i]) || (i == 0 && r->dry_run)))
			fw = cands[i];
	if (!fw) {
		fprintf(stderr, "tickprobe qemu: no OVMF firmware (%s); install the ovmf package\n",
			r->ovmf ? r->ovmf : "/usr/share/ovmf/OVMF.fd");
		return QEMU_RC_MISSING;
	}
	b->fw = fw;
	return -1;
}

/* --kernel: -kernel, and -append with the preset's options and ours. */
static int probe_kernel(struct probe_boot *b)
{
	const struct qemu_run *r = &b->r;
	const char *k = r->kernel ? r->kernel : qemu_locate("tickprobe.elf32", NULL, b->kern_buf, sizeof b->kern_buf);

	if (!k || (!qemu_readable(k) && !r->dry_run)) {
		fprintf(stderr, "tickprobe qemu: no kernel %s (make kernel)\n", k ? k : "tickprobe.elf32");
		return QEMU_RC_MISSING;
	}
	b->kernel = k;
	return -1;
}

/* The image: a private copy with the preset in its environment block
 * (unless --menu), as a disk or a CD. */
static int probe_image(struct probe_boot *b)
{
	const struct qemu_run *r = &b->r;
	const char *img = r->image ? r->image : qemu_locate("tickprobe.img", NULL, b->img_buf, sizeof b->img_buf);
	char blk[QEMU_ENV_SIZE];
	int fd, got;

	if (!img || (!qemu_readable(img) && !r->dry_run)) {
		fprintf(stderr, "tickprobe qemu: no image %s (make image)\n", img ? img : "tickprobe.img");
		return QEMU_RC_MISSING;
	}
	if (!r->menu && !r->dry_run) {
		snprintf(b->tmp_img, sizeof b->tmp_img, "%s", "/tmp/tickprobe-qemu-XXXXXX");
		if ((fd = mkstemp(b->tmp_img)) < 0) {
			perror("tickprobe qemu: temporary image");
			return QEMU_RC_MISSING;
		}
		b->have_tmp_img = true;
		if (!qemu_env_block(blk, r->preset ? r->preset : "", r->menu_timeout, r->options ? r->options : "")) {
			close(fd);
			fprintf(stderr, "tickprobe qemu: --options too long for the image's 512-byte block\n");
			return EXIT_USAGE;
		}
		got = qemu_patch_copy(img, fd, blk);
		close(fd);
		if (got <= 0) {
			fprintf(stderr, "tickprobe qemu: %s: %s\n", img,
				got < 0 ? "cannot copy it" : "no tickprobe.env block (an old image? make image)");
			return QEMU_RC_MISSING;
		}
		img = b->tmp_img;
	}
	qemu_escape(img, b->path_e, sizeof b->path_e);
	snprintf(b->drive, sizeof b->drive, "file=%s,format=raw,%s", b->path_e,
		 r->cdrom ? "media=cdrom,readonly=on" : (b->have_tmp_img ? "media=disk" : "media=disk,snapshot=on"));
	return -1;
}

/* COM1's log when it goes to stdout: a private copy to read the outcome
 * from. */
static void probe_serial_log(struct probe_boot *b)
{
	int fd;

	if (b->r.out) {
		b->log_path = b->r.out;
		return;
	}
	snprintf(b->tmp_log, sizeof b->tmp_log, "%s", "/tmp/tickprobe-serial-XXXXXX");
	fd = b->r.dry_run ? -1 : mkstemp(b->tmp_log);
	if (fd >= 0) {
		close(fd);
		b->have_tmp_log = true;
	}
	b->log_path = b->tmp_log;
}

/* COM1 into the -o file, or to stdout and the private copy; a QEMU
 * restored from a migration (gen 2 on) appends to what the first wrote.
 * With --event, COM2 is the channel to the guest, and QMP on a socket. */
static void probe_serial(struct probe_boot *b, struct qemu_argv *a, int gen)
{
	const struct qemu_run *r = &b->r;
	char e[PATH_MAX * 2];

	if (r->out) {
		qemu_escape(r->out, e, sizeof e);
		snprintf(b->chardev, sizeof b->chardev, "file,id=ser0,path=%s%s", e, gen > 1 ? ",append=on" : "");
	} else {
		qemu_escape(b->tmp_log, e, sizeof e);
		snprintf(b->chardev, sizeof b->chardev, "stdio,id=ser0,signal=on%s%s%s", b->have_tmp_log ? ",logfile=" : "",
			 b->have_tmp_log ? e : "", b->have_tmp_log && gen > 1 ? ",logappend=on" : "");
	}
	qemu_arg(a, "-chardev");
	qemu_arg(a, b->chardev);
	qemu_arg(a, "-serial");
	qemu_arg(a, "chardev:ser0");
	if (!r->nevents)
		return;
	qemu_arg(a, "-qmp");
	qemu_arg(a, b->ev_args.qmp);
	qemu_arg(a, "-chardev");
	qemu_arg(a, b->ev_args.chardev);
	qemu_arg(a, "-serial"); /* after COM1's: COM2, at I/O port 0x2f8 */
	qemu_arg(a, "chardev:events");
}

/* The command of QEMU number gen of the run: 1, or one restored from a
 * migration.  False when the private directory's path cannot be used. */
static bool probe_argv(struct probe_boot *b, struct qemu_argv *a, int gen)
{
	const struct qemu_run *r = &b->r;

	if (r->nevents && !qemu_events_args(b->ev.dir, gen, &b->ev_args))
		return false;
	a->n = 0;
	qemu_args_machine(r, a);
	if (b->fw) {
		qemu_arg(a, "-bios");
		qemu_arg(a, b->fw);
	}
	if (b->kernel) {
		qemu_arg(a, "-kernel"); /* a plain file name: QEMU splits no commas here */
		qemu_arg(a, b->kernel);
		qemu_arg(a, "-append");
		qemu_arg(a, b->cmdline);
	} else {
		qemu_arg(a, "-drive");
		qemu_arg(a, b->drive);
	}
	probe_serial(b, a, gen);
	qemu_args_tail(r, a, true);
	if (gen > 1) {
		qemu_arg(a, "-incoming");
		qemu_arg(a, b->ev_args.incoming);
	}
	return true;
}

/* The events' way to the command of a migration's destination. */
static char **probe_argv_for(void *ctx, int gen)
{
	struct probe_boot *b = ctx;

	if (!probe_argv(b, &b->a, gen))
		return NULL;
	if (b->r.verbose)
		progress_clear(&b->watch.prog);
	qemu_args_show(&b->r, &b->a);
	return b->a.v;
}

static void probe_tick(void *ctx)
{
	struct probe_boot *b = ctx;

	if (b->r.nevents)
		qemu_events_tick(&b->ev);
	if (qemu_now() >= b->next_watch_tick) {
		boot_watch_tick(&b->watch);
		b->next_watch_tick = qemu_now() + 0.25;
	}
}

/* Runs the assembled command; the probe's status. */
static int probe_run(struct probe_boot *b)
{
	const struct qemu_run *r = &b->r;
	char endstatus[32], msg[512], unsupported[200];
	int status, stopped, rc;
	double t0 = qemu_now();
	long bytes;

	/* The progress line only where the serial text is not on the same
	 * terminal already: with -o, or stdout to a pipe or a file. */
	boot_watch_init(&b->watch, b->log_path, "tickprobe qemu", r->quiet || (!r->out && isatty(1)));
	b->proc.terminal = !r->out;
	status = spawn_proc_run(&b->proc, b->a.v, r->timeout, &stopped, probe_tick, b);
	boot_watch_end(&b->watch);
	if (status == -2)
		b->ev.next = b->ev.n; /* no QEMU ran: no event to call not done */
	qemu_events_finish(&b->ev);
	qemu_log_summary(b->log_path, endstatus, sizeof endstatus, &bytes, unsupported, sizeof unsupported);
	fflush(stdout);
	if (status == -2) {
		fprintf(stderr, "tickprobe qemu: cannot run %s: %s (install qemu-system-x86)\n", r->qemu, strerror(errno));
		return QEMU_RC_MISSING;
	}
	rc = qemu_probe_outcome(r, status, stopped, unsupported, endstatus, msg, sizeof msg);
	/* msg and the end status quote the guest's serial log: escaped. */
	fputs("tickprobe qemu: ", stderr);
	ts_puts(stderr, msg);
	fprintf(stderr, " | %s %s %s%s | %.1f s", r->use_kernel ? "kernel" : r->cdrom ? "cd" : "disk", r->firmware,
		r->machine, r->kvm ? " kvm" : r->icount ? " tcg icount" : " tcg", qemu_now() - t0);
	if (bytes >= 0) {
		fprintf(stderr, " | log %s%s: %ld bytes, end ", r->out ? "" : "(stdout)", r->out ? r->out : "", bytes);
		ts_puts(stderr, *endstatus ? endstatus : "missing");
	}
	fprintf(stderr, "\n");
	return rc;
}

/* --event: the watch the probe will run, read from the options it will
 * get; -1 to go on, or the exit status. */
static int probe_events_check(struct probe_boot *b)
{
	const struct qemu_run *r = &b->r;
	char why[300];

	memcpy(b->ev.ev, r->events, sizeof b->ev.ev);
	b->ev.n = r->nevents;
	if (!qemu_events_watch(b->ev.ev, b->ev.n, b->cmdline, &b->ev.watch_s, why, sizeof why)) {
		fprintf(stderr, "tickprobe qemu: %s\n", why);
		return EXIT_USAGE;
	}
	b->ev.proc = &b->proc;
	b->ev.argv_for = probe_argv_for;
	b->ev.argv_ctx = b;
	b->ev.prog = &b->watch.prog;
	return -1;
}

static bool probe_migrates(const struct qemu_run *r)
{
	for (int i = 0; i < r->nevents; i++)
		if (r->events[i].kind == QEMU_EVENT_MIGRATE)
			return true;
	return false;
}

static int probe_boot_steps(struct probe_boot *b)
{
	const struct qemu_run *r = &b->r;
	int rc;

	b->cfg = qemu_locate("presets.cfg", "image/presets.cfg", b->cfg_buf, sizeof b->cfg_buf);
	if (r->preset && b->cfg && !qemu_preset_options(b->cfg, r->preset, b->popts, sizeof b->popts))
		return EXIT_USAGE;
	if (r->preset && !b->cfg && r->use_kernel) {
		fprintf(stderr, "tickprobe qemu: presets.cfg not found; use --options\n");
		return QEMU_RC_MISSING;
	}
	if (!r->preset && b->cfg && (r->use_kernel || r->nevents))
		qemu_preset_options(b->cfg, "default", b->popts, sizeof b->popts);
	else if (r->preset && !b->cfg) /* the image's own presets.cfg: the probe's table has its words */
		snprintf(b->popts, sizeof b->popts, "preset=%s", r->preset);
	snprintf(b->cmdline, sizeof b->cmdline, "%s%s%s", b->popts, *b->popts && r->options ? " " : "",
		 r->options ? r->options : "");
	if (r->nevents && (rc = probe_events_check(b)) >= 0)
		return rc;
	if ((rc = probe_firmware(b)) >= 0 || (rc = r->use_kernel ? probe_kernel(b) : probe_image(b)) >= 0)
		return rc;
	probe_serial_log(b);
	if (r->nevents && !qemu_events_start(&b->ev, r->dry_run))
		return QEMU_RC_MISSING;
	if (!probe_argv(b, &b->a, 1)) {
		fprintf(stderr, "tickprobe qemu: %s: a path an exec: migration cannot take\n", b->ev.dir);
		return QEMU_RC_MISSING;
	}
	if (qemu_args_show(r, &b->a)) {
		/* and what a migration's destination would run */
		if (probe_migrates(r) && probe_argv(b, &b->a, 2))
			qemu_args_show(r, &b->a);
		return EXIT_CLEAN;
	}
	return probe_run(b);
}

int qemu_boot_probe(const struct qemu_run *r)
{
	struct probe_boot *b = calloc(1, sizeof *b);
	int rc;

	if (!b) {
		fprintf(stderr, "tickprobe qemu: out of memory\n");
		return QEMU_RC_MISSING;
	}
	b->r = *r;
	rc = probe_boot_steps(b);
	b->ev.next = b->ev.n; /* a boot that ended before QEMU ran has no event to report */
	qemu_events_finish(&b->ev);
	if (b->have_tmp_img)
		unlink(b->tmp_img);
	if (b->have_tmp_log)
		unlink(b->tmp_log);
	free(b);
	return rc;
}
