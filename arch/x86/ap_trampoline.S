/* SPDX-License-Identifier: BSD-2-Clause */
/* The other CPUs' first instructions.  A STARTUP IPI starts an AP in real mode
 * at vector:0000; arch/x86/smp.c has copied everything from ap_trampoline_start
 * to ap_trampoline_end there, filled the data block and built small page
 * tables in the pages after it.  The path:
 *
 *   real mode -> 32-bit protected mode (the block's GDT) -> long mode on the
 *   temporary tables (which map only this page and the 2 MiB holding
 *   ap_entry64) -> ap_entry64 in the image, whose first instruction loads the
 *   boot CPU's CR3 with a 64-bit move (on UEFI it may lie above 4 GiB) -> the
 *   boot CPU's GDT and IDT, this CPU's entry claimed by APIC ID, its own stack,
 *   ap_main() in smp.c.
 *
 * Nothing here writes to the low page and no stack is used before the entry is
 * claimed, so any number of APs may run it at once, and one that arrives after
 * the boot CPU gave up on it finds its entry abandoned and halts.  Interrupts
 * stay off throughout. */
#include "arch/x86/ap_boot.h"

#define CR0_PE 0x1
#define MSR_EFER 0xc0000080
#define MSR_APIC_BASE 0x1b
#define MSR_X2APIC_ID 0x802
#define XAPIC_ID 0x20

/* Offsets in the copied page: the code uses its own position in real mode
 * (CS), and EBX holds the page's linear address from then on. */
#define TR(x) (ap_trampoline_data - ap_trampoline_start + (x))

	.text
	.balign 16
	.globl ap_trampoline_start, ap_trampoline_end, ap_trampoline_data
	.code16
ap_trampoline_start:
	cli
	cld
	mov %cs, %ax
	mov %ax, %ds
	movzwl %ax, %ebx
	shl $4, %ebx
	lgdtl TR(TRD_GDTR)
	mov %cr0, %eax
	or $CR0_PE, %eax
	mov %eax, %cr0
	ljmpl *TR(TRD_JMP32)

	.code32
ap_trampoline_32:
	mov $TR_SEL_DATA, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	mov %ax, %fs
	mov %ax, %gs
	mov TR(TRD_CR4)(%ebx), %eax     /* PAE first, LA57 too when the boot CPU has it */
	mov %eax, %cr4
	mov TR(TRD_CR3)(%ebx), %eax
	mov %eax, %cr3
	mov $MSR_EFER, %ecx
	rdmsr
	or TR(TRD_EFER)(%ebx), %eax
	wrmsr
	mov TR(TRD_CR0)(%ebx), %eax     /* paging on; caches on (INIT left CD and NW set) */
	mov %eax, %cr0
	ljmpl *TR(TRD_JMP64)(%ebx)

	.code64
ap_trampoline_64:
	mov %ebx, %ebx                  /* upper halves are undefined after the switch */
	mov TR(TRD_REAL_CR3)(%rbx), %rdx
	mov TR(TRD_HANDOVER)(%rbx), %rsi
	mov TR(TRD_ENTRY)(%rbx), %rax
	jmp *%rax

	/* The data block, as the boot CPU finds it before filling it in: the
	 * GDT and the far pointers' offsets relative to the page, which it
	 * turns into linear addresses. */
	.balign 16
ap_trampoline_data:
	.quad 0
	.quad 0x00cf9a000000ffff        /* 0x08: 32-bit code, flat */
	.quad 0x00cf92000000ffff        /* 0x10: data, flat */
	.quad 0x00af9a000000ffff        /* 0x18: 64-bit code */
	.word 31                        /* TRD_GDTR */
	.long TR(TRD_GDT)
	.word 0
	.long ap_trampoline_32 - ap_trampoline_start /* TRD_JMP32 */
	.word TR_SEL_CODE32, 0
	.long ap_trampoline_64 - ap_trampoline_start /* TRD_JMP64 */
	.word TR_SEL_CODE64, 0
	.skip TRD_SIZE - TRD_CR3
ap_trampoline_end:

/* In the image, entered from the trampoline with RDX = the boot CPU's CR3 and
 * RSI = the hand-over block (its offsets: ap_boot.h).  Only the first
 * instruction runs on the temporary tables; it sits inside one aligned 16
 * bytes, so within the one 2 MiB page they map here. */
	.balign 16
	.globl ap_entry64
ap_entry64:
	mov %rdx, %cr3
	lgdt HO_GDTR(%rsi)
	lidt HO_IDTR(%rsi)
	/* Which CPU is this: the APIC ID, in this CPU's own APIC mode. */
	mov $MSR_APIC_BASE, %ecx
	rdmsr
	bt $10, %eax
	jnc 1f
	mov $MSR_X2APIC_ID, %ecx
	rdmsr
	jmp 2f
1:	mov HO_APIC_BASE(%rsi), %rax
	mov XAPIC_ID(%rax), %eax
	shr $24, %eax
2:	mov HO_COUNT(%rsi), %ecx
	xor %edi, %edi
3:	cmp %ecx, %edi
	jae ap_park
	cmp %eax, HO_APIC_IDS(%rsi, %rdi, 4)
	je 4f
	inc %edi
	jmp 3b
	/* Claim the entry: STARTING -> ARRIVED, or halt if the boot CPU gave
	 * up on it (ABANDONED) or never started it. */
4:	mov $AP_STARTING, %eax
	mov $AP_ARRIVED, %ecx
	lock cmpxchg %ecx, HO_STATE(%rsi, %rdi, 4)
	jne ap_park
	mov %rdi, %rax
	imul HO_STACK_BYTES(%rsi), %rax
	add HO_STACKS(%rsi), %rax
	and $-16, %rax
	mov %rax, %rsp
	/* Now that there is a stack: the boot CPU's code and data selectors. */
	movzwl HO_CS(%rsi), %eax
	push %rax
	lea 5f(%rip), %rax
	push %rax
	lretq
5:	movzwl HO_DS(%rsi), %eax
	mov %eax, %ds
	mov %eax, %es
	movzwl HO_SS(%rsi), %eax
	mov %eax, %ss
	xor %eax, %eax
	mov %eax, %fs
	mov %eax, %gs
	xor %ebp, %ebp
	call ap_main                    /* edi: the entry; never returns */
	.globl ap_park
ap_park:
	cli
	hlt
	jmp ap_park

	.section .note.GNU-stack, "", @progbits
