/* SPDX-License-Identifier: BSD-2-Clause */
/* One 16-byte stub per vector 0-31, so that stub v is at exception_stubs + 16 v.
 * Each pushes a dummy error code where the CPU pushes none, then the vector. */
	.text
	.globl exception_stubs
	.align 16
exception_stubs:
	.irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.align 16
	.if (\v == 8) || (\v == 10) || (\v == 11) || (\v == 12) || (\v == 13) || (\v == 14) || (\v == 17) || (\v == 21) || (\v == 29) || (\v == 30)
	.else
	pushq $0
	.endif
	pushq $\v
	jmp exception_common
	.endr

exception_common:
	push %rax
	push %rbx
	push %rcx
	push %rdx
	push %rsi
	push %rdi
	push %rbp
	push %r8
	push %r9
	push %r10
	push %r11
	push %r12
	push %r13
	push %r14
	push %r15
	cld
	mov %rsp, %rdi
	mov %rsp, %rbx /* callee-saved: the frame, to restore after aligning */
	and $-16, %rsp
	call exception_dispatch
	mov %rbx, %rsp
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %r11
	pop %r10
	pop %r9
	pop %r8
	pop %rbp
	pop %rdi
	pop %rsi
	pop %rdx
	pop %rcx
	pop %rbx
	pop %rax
	add $16, %rsp /* vector and error code */
	iretq

/* The wake-up IPI of an idle AP (arch/x86/smp_team.c): its only work is the
 * EOI, in C; the caller-saved registers are kept for the code it interrupted
 * (an AP's sti; hlt or sti; mwait, so in practice none are live). */
	.globl irq_wake_stub
irq_wake_stub:
	push %rax
	push %rcx
	push %rdx
	push %rsi
	push %rdi
	push %r8
	push %r9
	push %r10
	push %r11
	push %rbx
	cld
	mov %rsp, %rbx
	and $-16, %rsp
	call smp_wake_eoi
	mov %rbx, %rsp
	pop %rbx
	pop %r11
	pop %r10
	pop %r9
	pop %r8
	pop %rdi
	pop %rsi
	pop %rdx
	pop %rcx
	pop %rax
	iretq

/* The APIC's spurious vector: no EOI (SDM vol. 3A, 11.9). */
	.globl irq_spurious_stub
irq_spurious_stub:
	iretq

	.section .note.GNU-stack, "", @progbits
