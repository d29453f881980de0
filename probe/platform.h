/* SPDX-License-Identifier: BSD-2-Clause */
/* Everything the run (probe/run.c) needs from the machine, in one struct.
 *
 * The run is the application: options, checks, calibration, the bracket
 * choice, the plan, the measurements, the end.  It is plain C and touches no
 * hardware; the platform hands it consoles, memory, a clock and its
 * brackets, the counters' drivers, the exception hook and the way out.  In
 * the image platform/pc.c fills this in; in the host unit tests a
 * simulated platform does (tests/unit/sim_platform.h), so the whole
 * sequence runs against simulated counters.
 *
 * Growth without reshaping: another output (a log file) is one more
 * console; another counter is one more driver in the list; more CPUs
 * come as a team (probe/team.h). */
#ifndef PROBE_PLATFORM_H
#define PROBE_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "acpi/acpi.h"
#include "probe/calibrate.h"
#include "probe/counter.h"
#include "probe/log.h"
#include "probe/measure.h"
#include "probe/options.h"
#include "probe/records_cpus.h"
#include "probe/records_run.h"
#include "probe/team.h"

#define PLATFORM_MAX_CONSOLES 4

/* An output: the serial line, the screen, a log file.  Every console that
 * takes records gets every record line; every one that takes text gets the
 * human lines. */
struct console {
	const char *name; /* "serial", "screen", ... */
	void (*write)(void *ctx, const char *s, size_t n);
	void *ctx;
	bool records;
	bool text;
};

/* A CPU exception, as the platform saw it. */
struct platform_exception {
	uint64_t vector, error_code, rip;
	uint64_t cr2; /* the faulting address of a page fault, else 0 */
	const char *name;
	bool cpu_known;   /* false: an AP that faulted before it had an index */
	unsigned cpu;     /* the CPU that took it, as in the cpus record */
	uint32_t apic_id;
};
/* Called for an exception nobody expected; never returns. */
typedef void (*platform_exception_fn)(void *ctx, const struct platform_exception *e);

/* A timing bracket the CPU can run (probe/measure.h's probe_clock.bracket). */
struct platform_bracket {
	const char *name; /* "cpuid-rdtsc/rdtscp-cpuid", "lfence-rdtsc-lfence" */
	uint64_t (*fn)(counter_read_fn fn, const struct counter *c);
};

/* What may follow the run (probe/run_after.c): rebooting or powering off the
 * machine, and a key that cancels it.  All members may be NULL. */
struct platform_after {
	/* How `what` (OPT_AFTER_REBOOT or _POWEROFF) would be done here, in
	 * words, into via; false with why when it cannot be. */
	bool (*plan)(void *ctx, enum options_after what, const struct acpi_info *acpi, char *via, size_t vcap,
		     char *why, size_t wcap);
	/* Does it; say(say_ctx, line) before each mechanism tried.  Returns
	 * only when every one failed, with why. */
	void (*run)(void *ctx, enum options_after what, const struct acpi_info *acpi,
		    void (*say)(void *say_ctx, const char *line), void *say_ctx, char *why, size_t wcap);
	/* One look for a key (keyboard or serial line); may wait up to 2 ms. */
	bool (*key)(void *ctx);
	/* The most polls the countdown makes in one second, should the TSC not
	 * run: bounds each second in any case. */
	uint32_t max_polls_per_s;
	/* A series of boots (runs=N, UEFI): records how this boot ended before
	 * the end record is written.  state: "continues", "done" or "stopped",
	 * why for stopped.  False, with why, when the series file could not
	 * be written: the series cannot go on. */
	bool (*series_end)(void *ctx, const char *state, const char *stop_why, char *why, size_t wcap);
};

/* This boot's place in a series of boots (runs=N); of == 0: none. */
struct platform_series {
	const char *id;
	unsigned index, of; /* index 1..of */
};

/* What the boot found out before the run: filled in once by the entry path
 * (boot/, in its struct boot_info), read by the run through the platform,
 * never copied. */
struct boot_facts {
	const char *boot;          /* "bios", "uefi" */
	const char *boot_services; /* UEFI: "active"; else NULL */
	const char *cmdline;       /* options, "name=value" words; NULL for none */
	const struct options *opt; /* the cmdline, parsed once, by the entry path */
	/* The log file, when the boot saves the records to one: its path and
	 * its volume in words, or NULL and why there is none (NULL: nothing to
	 * say).  Its console is one of open_consoles'. */
	const char *log_file, *log_volume, *log_file_problem;
	/* The network console, when the records are also sent: the URL they go
	 * to, or NULL; and why they are not, or what is done instead (NULL:
	 * nothing to say). */
	const char *net, *net_problem;
	/* Secure Boot, as the firmware reports it; !secure_boot_known: unknown. */
	bool secure_boot_known, secure_boot;
	/* The series this boot belongs to (of 0: none), and why runs=N could
	 * not start or continue one (NULL: nothing to say). */
	struct platform_series series;
	const char *series_problem;
	uint64_t rsdp; /* the firmware's RSDP (UEFI); 0: search the BIOS areas */
};

struct platform {
	void *ctx; /* handed back to every function below */

	const struct boot_facts *facts;
	const struct platform_after *after; /* NULL: the machine halts, always */

	/* Zeroed memory for the run's buffers (hundreds of KiB: the log buffer,
	 * histograms, raw samples), or NULL when there is none left. */
	void *(*alloc)(void *ctx, size_t bytes);

	/* The consoles in use once the options are known: the serial line at
	 * port (0: none) when it answers, and whatever else the boot offers.
	 * Returns how many it wrote into out. */
	unsigned (*open_consoles)(void *ctx, uint16_t serial_port, uint32_t baud, struct console *out,
				  unsigned max);

	/* Exceptions: the hook is called for any CPU exception from then on. */
	void (*set_exception_hook)(void *ctx, platform_exception_fn hook, void *hook_ctx);
	/* A deliberate exception, for the tests of that path: "gp" or "pf". */
	void (*fault)(void *ctx, const char *kind);

	/* What the machine record says (CPUID, memory, the RTC's date). */
	void (*machine_facts)(void *ctx, struct machine_facts *m);
	/* ACPI: physical memory (the RSDP is a boot fact). */
	struct acpi_mem mem;

	/* The clock: an ordered TSC, the throughput block, the empty read, the
	 * SMI count and the wait bounds (its bracket is chosen by the run). */
	struct probe_clock clock;
	const struct platform_bracket *brackets; /* the ones this CPU can run, Paoloni's first */
	unsigned n_brackets;
	void (*tsc_claims)(void *ctx, struct tsc_claims *claims);
	bool invariant_tsc;

	/* The counters' drivers (probe/counter.h), in the order they are
	 * measured: each owns its counters' descriptors. */
	const struct counter_driver *const *drivers;
	unsigned n_drivers;

	/* The other CPUs, once the TSC rate is known (0: unknown): start those
	 * that acpi's MADT lists and the options allow, and say what became of
	 * every CPU listed (up to out->max; the `cpus` record).  Returns the team
	 * of every CPU that runs (the boot CPU alone when there is none); NULL
	 * for no multi-CPU support at all. */
	const struct team *(*start_cpus)(void *ctx, const struct options *o, const struct acpi_info *acpi,
					 double tsc_hz, struct cpus_facts *out);
	/* MSRs for the multi-CPU measurements (probe/smp_env.h), on the calling
	 * CPU: a read that may fault, whether IA32_TSC_ADJUST exists, and the
	 * core type of a team CPU (CPUID 0x1A: 0x20 Atom, 0x40 Core; 0: not
	 * hybrid or not known).  Any may be NULL. */
	bool (*rdmsr)(uint32_t msr, uint64_t *value);
	bool (*has_tsc_adjust)(void);
	uint8_t (*core_type)(void *ctx, unsigned cpu);
	/* One team operation on every started CPU, as proof that each works,
	 * and what came of it (the `team_check` record).  May be NULL. */
	void (*check_cpus)(void *ctx, const struct options *o, double tsc_hz, struct team_check_facts *out);

	/* The line to the host a VM runs on (events=PORT; probe/watch_channel.h):
	 * open the UART at port (false: none answers there), take what it has
	 * received without waiting (how many bytes went into buf), send text.
	 * All NULL where there is none. */
	bool (*channel_open)(void *ctx, uint16_t port);
	unsigned (*channel_read)(void *ctx, char *buf, unsigned cap);
	void (*channel_write)(void *ctx, const char *s, size_t n);

	/* The end: the status is logged and shown.  Leave the screen readable
	 * and hand exit_code (probe/exit_status.h) to a VM's exit device;
	 * returns when there is none (a real PC), or when exit_code is 0: the
	 * machine reboots or powers off next (after=). */
	void (*end)(void *ctx, const char *status, unsigned exit_code);
	/* Stop for good. */
	__attribute__((noreturn)) void (*halt)(void *ctx);
};

#endif
