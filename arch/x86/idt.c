/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/x86/idt.h"
#include "arch/x86/cpu.h"
#include "lib/util.h"

struct gate {
	uint16_t offset_low, selector;
	uint8_t ist, type;
	uint16_t offset_mid;
	uint32_t offset_high, zero;
} __attribute__((packed));

struct idt_pointer {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

extern char exception_stubs[];
void exception_dispatch(struct exception_frame *f);

/* The one struct this part owns: the table, who is told of an exception,
 * and the recovery point of an instruction that may fault by design. */
static struct {
	struct gate gates[256] __attribute__((aligned(16)));
	exception_hook report;
	void *report_ctx;
	void *volatile resume_at;
	volatile int *volatile resume_flag;
	volatile int depth;
	void (*cpu_filter)(const struct exception_frame *f);
} idt;

static const char *const names[32] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
	"#BR bound range", "#UD invalid opcode", "#NM device not available",
	"#DF double fault", "coprocessor segment overrun", "#TS invalid TSS",
	"#NP segment not present", "#SS stack fault", "#GP general protection",
	"#PF page fault", "reserved 15", "#MF x87 floating point", "#AC alignment check",
	"#MC machine check", "#XM SIMD floating point", "#VE virtualization",
	"#CP control protection", "reserved 22", "reserved 23", "reserved 24",
	"reserved 25", "reserved 26", "reserved 27", "#HV hypervisor injection",
	"#VC VMM communication", "#SX security", "reserved 31",
};

const char *exception_name(uint64_t vector)
{
	return vector < 32 ? names[vector] : "interrupt";
}

static struct gate gate_to(uint64_t a, uint16_t cs)
{
	return (struct gate){
		.offset_low = (uint16_t)a, .selector = cs, .ist = 0, .type = 0x8e,
		.offset_mid = (uint16_t)(a >> 16), .offset_high = (uint32_t)(a >> 32),
	};
}

void idt_set_gate(unsigned vector, void (*stub)(void))
{
	uint16_t cs;

	if (vector < 32 || vector > 255)
		return;
	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	idt.gates[vector] = gate_to((uintptr_t)stub, cs);
}

void idt_install(exception_hook hook, void *ctx)
{
	struct idt_pointer old, now;
	uint16_t cs;

	idt.report = hook;
	idt.report_ctx = ctx;
	__asm__ volatile("sidt %0" : "=m"(old));
	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	tp_memset(idt.gates, 0, sizeof idt.gates);
	/* Keep the firmware's interrupt vectors (UEFI's timer tick). */
	if (old.base && old.limit >= 32 * sizeof(struct gate) - 1) {
		size_t n = (old.limit + 1u) / sizeof(struct gate);
		if (n > 256)
			n = 256;
		tp_memcpy(&idt.gates[32], (const void *)(uintptr_t)(old.base + 32 * sizeof(struct gate)),
			  (n - 32) * sizeof(struct gate));
	}
	for (int v = 0; v < 32; v++)
		idt.gates[v] = gate_to((uintptr_t)exception_stubs + 16u * (unsigned)v, cs);
	now.limit = sizeof idt.gates - 1;
	now.base = (uintptr_t)idt.gates;
	__asm__ volatile("lidt %0" : : "m"(now));
}

void exception_expect(void *resume, volatile int *faulted)
{
	*faulted = 0;
	idt.resume_flag = faulted;
	idt.resume_at = resume;
}

void exception_expect_none(void)
{
	idt.resume_at = 0;
	idt.resume_flag = 0;
}

void idt_set_cpu_filter(void (*filter)(const struct exception_frame *f))
{
	idt.cpu_filter = filter;
}

void exception_dispatch(struct exception_frame *f)
{
	if (idt.cpu_filter)
		idt.cpu_filter(f); /* before the recovery point: that is the boot CPU's */
	if (idt.resume_at && f->vector == 13) {
		f->rip = (uintptr_t)idt.resume_at;
		*idt.resume_flag = 1;
		exception_expect_none();
		return;
	}
	/* A fault while reporting a fault: nothing more can be said safely. */
	if (idt.depth++ || !idt.report)
		for (;;)
			__asm__ volatile("cli; hlt");
	idt.report(idt.report_ctx, f);
	for (;;)
		__asm__ volatile("cli; hlt");
}
