/* SPDX-License-Identifier: BSD-2-Clause */
/* Exceptions: an IDT for vectors 0-31 that reports instead of rebooting.
 * Vectors 32-255 are copied from whatever IDT the firmware left (UEFI keeps
 * its timer interrupt working that way); the BIOS path has none. */
#ifndef ARCH_X86_IDT_H
#define ARCH_X86_IDT_H

#include <stdint.h>

struct exception_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

/* Called for an exception nobody expected.  Must not return. */
typedef void (*exception_hook)(void *ctx, const struct exception_frame *f);

void idt_install(exception_hook hook, void *ctx);

/* Called first for every exception, on whichever CPU took it; returns only
 * when the boot CPU is to handle it as usual (arch/x86/smp.c: an AP's
 * exception is handed to the boot CPU, and the AP halts). */
void idt_set_cpu_filter(void (*filter)(const struct exception_frame *f));
const char *exception_name(uint64_t vector);

/* An interrupt gate for one vector of 32-255 to `stub` (an assembly entry
 * that ends in iretq), in the one IDT every CPU loads. */
void idt_set_gate(unsigned vector, void (*stub)(void));

/* A recovery point for an instruction that may fault by design (rdmsr of an
 * MSR that may not exist): the handler resumes at `resume` and sets *faulted. */
void exception_expect(void *resume, volatile int *faulted);
void exception_expect_none(void);

#endif
