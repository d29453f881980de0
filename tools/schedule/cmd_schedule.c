/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe schedule [--preset P] [--runs N] [--reboot] [--dry-run] [--cancel]:
 * one boot into the probe at the next restart, then back into this system
 * (schedule.h); --after-boot is the package unit's step on the boot after
 * (afterboot.h); --uninstall is the package's prerm's. */
#include <stdio.h>
#include <string.h>
#include "probe/options.h"
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/schedule/afterboot.h"
#include "tools/schedule/schedule.h"

enum {
	OPT_PRESET = ARGS_OPT_FIRST, OPT_RUNS, OPT_REBOOT, OPT_DRY, OPT_CANCEL, OPT_AFTER_BOOT, OPT_UNINSTALL,
	OPT_METHOD, OPT_ESP, OPT_DISK, OPT_PARTITION, OPT_EFIVARS, OPT_BOOT_DIR, OPT_STATE_DIR, OPT_OS_OPTIONS,
	OPT_OS_TIMEOUT, OPT_QUIET
};

static const struct option schedule_options_table[] = {
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "runs", required_argument, NULL, OPT_RUNS },
	{ "reboot", no_argument, NULL, OPT_REBOOT },
	{ "dry-run", no_argument, NULL, OPT_DRY },
	{ "cancel", no_argument, NULL, OPT_CANCEL },
	{ "after-boot", no_argument, NULL, OPT_AFTER_BOOT },
	{ "uninstall", no_argument, NULL, OPT_UNINSTALL },
	{ "method", required_argument, NULL, OPT_METHOD },
	{ "esp", required_argument, NULL, OPT_ESP },
	{ "disk", required_argument, NULL, OPT_DISK },
	{ "partition", required_argument, NULL, OPT_PARTITION },
	{ "efivars", required_argument, NULL, OPT_EFIVARS },
	{ "boot-directory", required_argument, NULL, OPT_BOOT_DIR },
	{ "state-dir", required_argument, NULL, OPT_STATE_DIR },
	{ "os-options", required_argument, NULL, OPT_OS_OPTIONS },
	{ "os-timeout", required_argument, NULL, OPT_OS_TIMEOUT },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	ARGS_OPTIONS_END
};

static const struct args_spec schedule_spec = {
	.name = "schedule",
	.synopsis = "[--preset P] [--runs N] [--reboot] [--dry-run] [--cancel]",
	.help = "  Arrange one boot into tickprobe at the next restart only, then a boot back into\n"
		"  this system (as root).  On UEFI: a Boot#### entry for \\EFI\\tickprobe\\tickprobe.efi\n"
		"  on the EFI system partition with the probe's options (tickprobe's entry is\n"
		"  reused), made the one-time BootNext; BootOrder is left alone.  Where GRUB boots\n"
		"  the system (BIOS too): grub-reboot to the package's 'tickprobe' entry, its\n"
		"  options in GRUB's environment block for that boot only.  The probe runs with\n"
		"  after=reboot; BootNext and grub-reboot last one boot, so a probe that hangs is\n"
		"  followed, at the next reset, by this system.  What is to be done is recorded in\n"
		"  STATE/schedule.state before anything is changed; a step that fails has the\n"
		"  steps before it undone.\n"
		"  --preset P          a preset of presets.cfg (default: the probe's default)\n"
		"  --runs N            the probe runs N times (runs=N), then reboots\n"
		"  --reboot            reboot now (systemctl reboot)\n"
		"  --dry-run           print what would be done, do nothing\n"
		"  --cancel            undo what the last schedule did, if its boot has not happened;\n"
		"                      with no record, remove what schedule makes: a BootNext naming\n"
		"                      tickprobe's entry, its entries outside BootOrder, GRUB's one-shot\n"
		"  --after-boot        the boot after: new ESP logs into STATE/fleet.db, `tickprobe os`\n"
		"                      once (STATE/logs/os-NNNN.log), and `tickprobe compare` of the\n"
		"                      newest bare log against it into STATE/latest.txt; quiet when\n"
		"                      there is nothing new; a log whose import failed is tried\n"
		"                      again at the next run (the unit tickprobe-after-boot.service)\n"
		"  --uninstall         remove tickprobe's Boot#### entries and GRUB one-shot (prerm)\n"
		"  --method efi|grub   the way to choose the next boot (default: efi when the\n"
		"                      firmware's variables are there, else grub)\n"
		"  --esp DIR           the mounted ESP (default: /boot/efi, /efi or /boot)\n"
		"  --disk DEV --partition N   the ESP's disk and GPT partition (default: from sysfs)\n"
		"  --efivars DIR       default /sys/firmware/efi/efivars\n"
		"  --boot-directory DIR  GRUB's: DIR/grub/grub.cfg and grubenv (default /boot)\n"
		"  --state-dir DIR     default /var/lib/tickprobe; it must be this user's alone\n"
		"  --os-options TEXT   --after-boot's tickprobe os options (default \"--quick\")\n"
		"  --os-timeout S      --after-boot stops tickprobe os after S seconds (default 240)\n"
		"  -q, --quiet         no steps on stdout\n",
	.exits = "Exit status: 0 done, 1 usage error, 2 could not be done (said on stderr).\n",
	.shortopts = "q",
	.longopts = schedule_options_table,
};

static int check_preset(struct args *a, const char *name)
{
	char words[96];
	struct options o;
	snprintf(words, sizeof words, "preset=%s", name);
	options_parse(&o, words);
	if (o.n_problems || strcmp(o.preset, name))
		return args_fail(a, "--preset: '%s' is not a preset this build knows (image/presets.cfg)", name);
	return 0;
}

/* One option into s or ab; 0 or EXIT_USAGE. */
static int one_option(struct args *a, int c, struct schedule *s, struct after_boot *ab, int *action)
{
	static const char *const methods[] = { "efi", "grub", NULL };
	long v;
	int i;

	switch (c) {
	case OPT_PRESET: s->preset = a->value; return check_preset(a, a->value);
	case OPT_RUNS: return args_long(a, 1, 999, &s->runs);
	case OPT_REBOOT: s->reboot = true; return 0;
	case OPT_DRY: s->dry_run = true; return 0;
	case OPT_CANCEL: case OPT_AFTER_BOOT: case OPT_UNINSTALL:
		if (*action && *action != c)
			return args_fail(a, "--cancel, --after-boot and --uninstall go alone");
		*action = c;
		return 0;
	case OPT_METHOD:
		if (args_choice(a, methods, &i))
			return EXIT_USAGE;
		s->method = i ? METHOD_GRUB : METHOD_EFI;
		return 0;
	case OPT_ESP: s->esp = a->value; return 0;
	case OPT_DISK: s->disk = a->value; return 0;
	case OPT_PARTITION:
		if (args_long(a, 1, 128, &v))
			return EXIT_USAGE;
		s->partition = (unsigned)v;
		return 0;
	case OPT_EFIVARS: s->efivars = a->value; return 0;
	case OPT_BOOT_DIR: s->boot_dir = a->value; return 0;
	case OPT_STATE_DIR: s->state_dir = a->value; return 0;
	case OPT_OS_OPTIONS: ab->os_options = a->value; return 0;
	case OPT_OS_TIMEOUT: return args_double(a, 1, 3600, &ab->os_timeout);
	case 'q': case OPT_QUIET: s->quiet = true; return 0;
	default: return EXIT_USAGE;
	}
}

int cmd_schedule(int argc, char **argv)
{
	struct schedule s = { .efivars = "/sys/firmware/efi/efivars", .boot_dir = "/boot",
			      .state_dir = "/var/lib/tickprobe", .method = METHOD_AUTO };
	struct after_boot ab = { .os_options = "--quick", .os_timeout = 240 };
	struct args a;
	int c, action = 0;

	args_start(&a, &schedule_spec, argc, argv);
	while ((c = args_next(&a)) > 0)
		if (one_option(&a, c, &s, &ab, &action))
			return EXIT_USAGE;
	if (c == ARGS_STOP)
		return a.status;
	if (!s.disk != !s.partition)
		return args_fail(&a, "--disk and --partition go together");
	if (action && (s.preset || s.runs || s.reboot))
		return args_fail(&a, "--preset, --runs and --reboot are for scheduling, not with --cancel, --after-boot "
				     "or --uninstall");
	if (action == OPT_AFTER_BOOT && s.dry_run)
		return args_fail(&a, "--after-boot has no --dry-run");
	if (action == OPT_CANCEL)
		return schedule_cancel(&s);
	if (action == OPT_UNINSTALL)
		return schedule_uninstall(&s);
	if (action == OPT_AFTER_BOOT)
		return schedule_after_boot(&s, &ab);
	return schedule_arrange(&s);
}
