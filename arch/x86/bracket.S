/* SPDX-License-Identifier: BSD-2-Clause */
/* Timing brackets.  Under qemu -icount shift=0 every instruction costs one
 * TSC cycle, so the instructions between the two time-stamp reads are fixed
 * here, in assembly, where no compiler can move them: the empty bracket and
 * a read bracket differ by exactly the read's own instructions.
 *
 * bracket_cpuid_rdtscp (Paoloni, "How to Benchmark Code Execution Times on
 * Intel IA-32 and IA-64", 2010):
 *     CPUID; RDTSC  [body]  RDTSCP; CPUID
 * The first CPUID drains everything before the bracket; RDTSCP waits until
 * the body has executed and its loads are globally visible (an MMIO read
 * included); the last CPUID keeps what follows from starting early.  The
 * paper found the minimum of this sequence has zero variance over repeated
 * runs, which is what an overhead to subtract needs.
 *
 * bracket_lfence: LFENCE; RDTSC; LFENCE [body] LFENCE; RDTSC; LFENCE, for
 * CPUs without RDTSCP (qemu64 has none).  LFENCE orders RDTSC against the
 * loads around it, which is what Linux's rdtsc_ordered() relies on. */

	.text

/* Every bracket keeps fn in %r12, the descriptor in %r13 and the first
 * time stamp in %r14 (callee-saved, so the read may use anything else). */
.macro ENTER
	push %rbx
	push %r12
	push %r13
	push %r14
	push %r15
	mov %rdi, %r12
	mov %rsi, %r13
.endm

.macro LEAVE
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %rbx
	ret
.endm

/* LFENCE; RDTSC; LFENCE, joined into %rdx (start) or %rax (end). */
.macro LFENCE_START
	lfence
	rdtsc
	lfence
	shl $32, %rdx
	or %rax, %rdx
	mov %rdx, %r14
.endm

.macro LFENCE_END
	lfence
	rdtsc
	lfence
	shl $32, %rdx
	or %rdx, %rax
	sub %r14, %rax
.endm

/* uint64_t bracket_cpuid_rdtscp(counter_read_fn fn, const struct counter *c) */
	.globl bracket_cpuid_rdtscp
bracket_cpuid_rdtscp:
	ENTER
	xor %eax, %eax
	cpuid
	rdtsc
	shl $32, %rdx
	or %rax, %rdx
	mov %rdx, %r14
	mov %r13, %rdi
	call *%r12
	rdtscp
	shl $32, %rdx
	or %rax, %rdx
	mov %rdx, %r15
	xor %eax, %eax
	cpuid
	mov %r15, %rax
	sub %r14, %rax
	LEAVE

/* uint64_t bracket_lfence(counter_read_fn fn, const struct counter *c) */
	.globl bracket_lfence
bracket_lfence:
	ENTER
	LFENCE_START
	mov %r13, %rdi
	call *%r12
	LFENCE_END
	LEAVE

/* uint64_t bracket_block(counter_read_fn fn, const struct counter *c, uint64_t k) */
	.globl bracket_block
bracket_block:
	ENTER
	mov %rdx, %rbx
	LFENCE_START
	test %rbx, %rbx
	jz 2f
1:	mov %r13, %rdi
	call *%r12
	dec %rbx
	jnz 1b
2:	LFENCE_END
	LEAVE

/* The empty body: only the call and the return that every read also pays. */
	.globl bracket_empty_read
bracket_empty_read:
	ret

	.globl tsc_ordered
tsc_ordered:
	lfence
	rdtsc
	lfence
	shl $32, %rdx
	or %rdx, %rax
	ret

	.section .note.GNU-stack, "", @progbits
