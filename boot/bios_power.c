/* SPDX-License-Identifier: BSD-2-Clause */
/* Reboot and power off on the BIOS path (boot/bios_power.h).  Nothing here
 * waits unbounded: each mechanism gets about 100 ms (port 0x80 writes, about
 * 1 us each on ISA-decoded hardware) before the next one is tried. */
#include "boot/bios_power.h"
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "acpi/acpi.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define PORT_RESET_CONTROL 0xcf9 /* PIIX3/ICH reset control: bit 1 hard reset, bit 2 do it */
#define KBC_STATUS 0x64
#define KBC_DATA 0x60
#define KBC_PULSE_RESET 0xfe
#define KBC_INPUT_FULL 0x02
#define KBC_OUTPUT_FULL 0x01
#define KBC_AUX_DATA 0x20
#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA 0xcfc
#define SETTLE_US 100000u /* per mechanism: a reset takes effect within microseconds */
#define S5_SETTLE_US 3000000u /* power off: the supply may take a second or two to drop */
#define SCI_EN_POLLS 3000u   /* ACPI_ENABLE: up to 3 s, in 1 ms steps */

/* The one struct this part owns: \_S5 as plan() found it, for run(). */
static struct {
	struct acpi_s5 s5;
} bpw;

static void delay_us(uint32_t us)
{
	while (us--)
		outb(0x80, 0); /* the POST port: one ISA write, about 1 us */
}

static const char *space_name(uint8_t space)
{
	return space == ACPI_GAS_IO ? "io" : space == ACPI_GAS_MEMORY ? "memory" : "PCI config";
}

static bool plan(void *ctx, enum options_after what, const struct acpi_info *acpi, char *via, size_t vcap,
		 char *why, size_t wcap)
{
	const struct acpi_power *pw = &acpi->power;
	struct acpi_mem mem = { phys_read, NULL };

	(void)ctx;
	if (what == OPT_AFTER_REBOOT) {
		if (pw->reset_reg)
			tp_snprintf(via, vcap, "the FADT reset register (%s 0x%llx <- 0x%x), then port 0xcf9, the "
				    "keyboard controller, a triple fault", space_name(pw->reset_space),
				    (unsigned long long)pw->reset_address, pw->reset_value);
		else
			tp_snprintf(via, vcap, "port 0xcf9 (no FADT reset register: %s), then the keyboard controller, "
				    "a triple fault", pw->have_fadt ? pw->reset_none : "no FADT");
		return true;
	}
	if (!acpi->have_fadt) {
		tp_snprintf(why, wcap, "no FADT, so no PM1 control block to write");
		return false;
	}
	if (pw->pm1_none) {
		tp_snprintf(why, wcap, "%s", pw->pm1_none);
		return false;
	}
	if (!acpi_s5_find(&mem, pw, &bpw.s5)) {
		tp_snprintf(why, wcap, "%s", bpw.s5.none);
		return false;
	}
	if (pw->pm1b_cnt)
		tp_snprintf(via, vcap, "ACPI S5: PM1a_CNT io 0x%x <- SLP_TYP %u, PM1b_CNT io 0x%x <- SLP_TYP %u, "
			    "SLP_EN (\\_S5 at DSDT offset 0x%x)", pw->pm1a_cnt, bpw.s5.slp_typ_a, pw->pm1b_cnt,
			    bpw.s5.slp_typ_b, bpw.s5.offset);
	else
		tp_snprintf(via, vcap, "ACPI S5: PM1a_CNT io 0x%x <- SLP_TYP %u | SLP_EN (\\_S5 at DSDT offset 0x%x)",
			    pw->pm1a_cnt, bpw.s5.slp_typ_a, bpw.s5.offset);
	return true;
}

/* The reset register as its GAS says: I/O, memory, or PCI configuration
 * space of bus 0 (address: device in bits 47:32, function 31:16, offset 15:0). */
static bool write_reset_reg(const struct acpi_power *pw)
{
	uint64_t a = pw->reset_address;

	if (pw->reset_space == ACPI_GAS_IO) {
		outb((uint16_t)a, pw->reset_value);
	} else if (pw->reset_space == ACPI_GAS_MEMORY) {
		if (!phys_mapped(a, 1))
			return false;
		*(volatile uint8_t *)(uintptr_t)a = pw->reset_value;
	} else {
		uint32_t dev = (uint32_t)(a >> 32) & 0x1f, fn = (uint32_t)(a >> 16) & 7, off = (uint32_t)a & 0xff;
		outl(PCI_CONFIG_ADDRESS, 0x80000000u | dev << 11 | fn << 8 | (off & 0xfc));
		outb((uint16_t)(PCI_CONFIG_DATA + (off & 3)), pw->reset_value);
	}
	return true;
}

__attribute__((noreturn)) static void triple_fault(void)
{
	static const uint8_t none[10] = { 0 }; /* the IDT pseudo-descriptor: limit 0, base 0 */
	__asm__ volatile("lidt %0; int3" : : "m"(none) : "memory");
	for (;;)
		__asm__ volatile("hlt");
}

static void reboot(const struct acpi_power *pw, void (*say)(void *, const char *), void *sctx)
{
	char line[96];
	uint8_t v;

	if (pw->reset_reg) {
		tp_snprintf(line, sizeof line, "reboot: the FADT reset register (%s 0x%llx <- 0x%x)",
			    space_name(pw->reset_space), (unsigned long long)pw->reset_address, pw->reset_value);
		say(sctx, line);
		if (write_reset_reg(pw))
			delay_us(SETTLE_US);
	}
	say(sctx, "reboot: port 0xcf9 (reset control <- 0x02, then 0x06)");
	v = inb(PORT_RESET_CONTROL) & (uint8_t)~0x06;
	outb(PORT_RESET_CONTROL, v | 0x02);
	delay_us(50);
	outb(PORT_RESET_CONTROL, v | 0x06);
	delay_us(SETTLE_US);
	say(sctx, "reboot: the keyboard controller (0xfe to port 0x64)");
	for (int i = 0; i < 100000 && (inb(KBC_STATUS) & KBC_INPUT_FULL); i++)
		delay_us(1);
	outb(KBC_STATUS, KBC_PULSE_RESET);
	delay_us(SETTLE_US);
	say(sctx, "reboot: a triple fault (an empty IDT, then int3)");
	triple_fault();
}

static void poweroff(const struct acpi_power *pw, char *why, size_t wcap)
{
	uint16_t a = pw->pm1a_cnt, b = pw->pm1b_cnt;

	/* A firmware still in legacy mode (SCI_EN clear) is asked to hand
	 * ACPI over first, as an OS does, through SMI_CMD. */
	if (!(inw(a) & ACPI_PM1_SCI_EN) && pw->smi_cmd && pw->acpi_enable) {
		outb(pw->smi_cmd, pw->acpi_enable);
		for (unsigned i = 0; i < SCI_EN_POLLS && !(inw(a) & ACPI_PM1_SCI_EN); i++)
			delay_us(1000);
	}
	/* SLP_TYP first, then SLP_EN with it, as ACPICA writes them. */
	outw(a, (uint16_t)(acpi_s5_pm1_value(inw(a), bpw.s5.slp_typ_a) & ~ACPI_PM1_SLP_EN));
	if (b)
		outw(b, (uint16_t)(acpi_s5_pm1_value(inw(b), bpw.s5.slp_typ_b) & ~ACPI_PM1_SLP_EN));
	outw(a, acpi_s5_pm1_value(inw(a), bpw.s5.slp_typ_a));
	if (b)
		outw(b, acpi_s5_pm1_value(inw(b), bpw.s5.slp_typ_b));
	delay_us(S5_SETTLE_US);
	tp_snprintf(why, wcap, "the machine is still on 3 s after SLP_TYP %u | SLP_EN went to PM1a_CNT 0x%x",
		    bpw.s5.slp_typ_a, a);
}

static void run(void *ctx, enum options_after what, const struct acpi_info *acpi,
		void (*say)(void *say_ctx, const char *line), void *say_ctx, char *why, size_t wcap)
{
	(void)ctx;
	if (what == OPT_AFTER_REBOOT)
		reboot(&acpi->power, say, say_ctx);
	say(say_ctx, "poweroff: ACPI S5");
	poweroff(&acpi->power, why, wcap);
}

/* A key on the PS/2 keyboard: the i8042's output buffer holds a byte that
 * is not mouse data.  A status of 0xff is no controller at all (port 0x64
 * floats on legacy-free machines), not a key. */
static bool key(void *ctx)
{
	uint8_t st = inb(KBC_STATUS);

	(void)ctx;
	if (st == 0xff || !(st & KBC_OUTPUT_FULL))
		return false;
	(void)inb(KBC_DATA); /* taken, so the next poll sees the next byte */
	return !(st & KBC_AUX_DATA);
}

const struct platform_after bios_after = {
	.plan = plan,
	.run = run,
	.key = key,
	/* Two port reads a poll, 1-3 us on hardware: a second is under 1e6
	 * polls; 2e7 bound it should the TSC not run. */
	.max_polls_per_s = 20000000u,
};
