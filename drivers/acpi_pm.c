/* SPDX-License-Identifier: BSD-2-Clause */
/* The ACPI power-management timer: 3,579,545 Hz, 24 or 32 bits, at the
 * port or memory address the FADT gives ("acpi-fast", one read, and
 * "acpi-safe", the erratum's three).  A memory-space timer outside the
 * probe's memory map is absent. */
#include "acpi/acpi.h"
#include "arch/x86/paging.h"
#include "lib/fmt.h"
#include "lib/hwregs.h"
#include "lib/util.h"
#include "probe/counter.h"


/* acpi-fast: one 32-bit read, masked to the timer's width. */
uint64_t acpi_pm_read_io(const struct counter *c);
uint64_t acpi_pm_read_mmio(const struct counter *c);
/* acpi-safe: the PIIX4 erratum (82371AB specification update, #1) makes a
 * read indeterminate in a 3 ns window every 69.8 ns, when the counter's
 * ripple carry is in flight.  FreeBSD's ACPI-safe and Linux's
 * acpi_pm_read_verified() answer it the same way: read three times until the
 * three values step forward in order, and keep the middle one.  "In order"
 * is decided on masked differences, so a 24-bit wrap between reads is fine:
 * both steps must be under half the range.  The retry is bounded at 64
 * triples; a timer that never settles is returned as is and caught by the
 * monotonicity check. */
uint64_t acpi_pm_read_safe_io(const struct counter *c);
uint64_t acpi_pm_read_safe_mmio(const struct counter *c);

#define SAFE_READ(name, load)                                                   \
	"" #name ":\n"                                                          \
	"	mov 8(%rdi), %r8\n"  /* mask */                                     \
	"	mov %r8, %r9\n"                                                     \
	"	shr $1, %r9\n"                                                      \
	"	not %r9\n"                                                          \
	"	and %r8, %r9\n"      /* the top bit of the range */                 \
	"	mov $64, %r11d\n"                                                   \
	"1:	" load "\n"                                                         \
	"	mov %eax, %ecx\n"    /* v1 */                                       \
	"	" load "\n"                                                         \
	"	mov %eax, %esi\n"    /* v2 */                                       \
	"	" load "\n"          /* v3 */                                       \
	"	sub %esi, %eax\n"                                                   \
	"	mov %esi, %r10d\n"                                                  \
	"	sub %ecx, %r10d\n"                                                  \
	"	or %r10d, %eax\n"                                                   \
	"	and %r8d, %eax\n"                                                   \
	"	test %r9d, %eax\n"   /* both steps forward and small? */            \
	"	jz 2f\n"                                                            \
	"	dec %r11d\n"                                                        \
	"	jnz 1b\n"                                                           \
	"2:	mov %esi, %eax\n"                                                   \
	"	and %r8d, %eax\n"                                                   \
	"	ret\n"

__asm__(".text\n"
	"acpi_pm_read_io:\n"
	"	mov (%rdi), %edx\n"
	"	in (%dx), %eax\n"
	"	and 8(%rdi), %eax\n"
	"	ret\n"
	"acpi_pm_read_mmio:\n"
	"	mov (%rdi), %rax\n"
	"	mov (%rax), %eax\n"
	"	and 8(%rdi), %eax\n"
	"	ret\n"
	"acpi_pm_read_safe_io:\n"
	"	mov (%rdi), %edx\n"
	SAFE_READ(acpi_pm_safe_io_body, "in (%dx), %eax")
	"acpi_pm_read_safe_mmio:\n"
	"	mov (%rdi), %rdx\n"
	SAFE_READ(acpi_pm_safe_mmio_body, "mov (%rdx), %eax"));

/* Instructions on the path where the first triple is in order:
 * 1 (address) + 6 (setup) + 12 (one triple, jz taken) + 2 (result). */
#define SAFE_INSNS 21

/* The port reads; attach takes the MMIO ones, and the width, from the
 * FADT.  acpi-safe's rate is acpi-fast's: one timer. */
static const struct counter_desc acpi_pm_counters[] = {
	{ .name = "acpi-fast", .read = acpi_pm_read_io, .insns = 3 /* address, load, mask */,
	  .method = "inl of PM_TMR, masked", .width = 24, .nominal_hz = ACPI_PM_HZ, .is_counter = true,
	  .calibrates = "pm_timer" },
	{ .name = "acpi-safe", .read = acpi_pm_read_safe_io, .insns = SAFE_INSNS,
	  .method = "3 reads in order, the middle kept (PIIX4 erratum)", .width = 24, .nominal_hz = ACPI_PM_HZ,
	  .is_counter = true, .rate_from = "acpi-fast" },
};
#define ACPI_PM_COUNTERS (sizeof acpi_pm_counters / sizeof acpi_pm_counters[0])

/* The one struct this part owns: the descriptors as attach filled them. */
static struct {
	struct counter c[ACPI_PM_COUNTERS];
} acpi_pm;

static void acpi_pm_setup(bool present, bool mmio, uint64_t address, unsigned bits, const char *why_absent,
			  struct counter *d, struct counter_state *s)
{
	struct counter *fast = &d[0], *safe = &d[1];

	counter_from_desc(fast, &acpi_pm_counters[0]);
	counter_from_desc(safe, &acpi_pm_counters[1]);
	if (mmio) {
		fast->read = acpi_pm_read_mmio;
		fast->method = "32-bit MMIO load of PM_TMR, masked";
		safe->read = acpi_pm_read_safe_mmio;
	}
	fast->hw = safe->hw = address;
	fast->mask = safe->mask = bits == 32 ? 0xffffffffull : 0xffffffull;
	counter_state_init(&s[0]);
	s[0].present = present && address;
	if (!s[0].present)
		tp_snprintf(s[0].reason, sizeof s[0].reason, "%s", why_absent ? why_absent : "no PM timer in the FADT");
	else if (mmio && !phys_mapped(address, 4)) {
		s[0].present = false;
		tp_snprintf(s[0].reason, sizeof s[0].reason,
			    "PM timer at 0x%llx cannot be reached: the address is outside this boot's memory map",
			    (unsigned long long)address);
	}
	s[1] = s[0];
}

static void acpi_pm_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	const struct acpi_info *a = env->acpi;

	acpi_pm_setup(a->pm_space != ACPI_SPACE_NONE, a->pm_space == ACPI_SPACE_MMIO, a->pm_address, a->pm_bits,
		      a->pm_none ? a->pm_none : "no PM timer in the FADT", acpi_pm.c, s);
	for (unsigned i = 0; i < ACPI_PM_COUNTERS; i++)
		c[i] = &acpi_pm.c[i];
}

const struct counter_driver acpi_pm_driver = {
	.name = "PM timer", .counters = acpi_pm_counters, .n = ACPI_PM_COUNTERS, .attach = acpi_pm_attach,
};
