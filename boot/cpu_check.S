/* SPDX-License-Identifier: BSD-2-Clause */
/* The multiboot path's first question, asked in 32-bit protected mode before
 * anything depends on the answer: can this CPU run tickprobe at all?  The
 * stub (boot/multiboot.S) needs CPUID, long mode, PAE and the MSRs (EFER);
 * the 64-bit core is compiled for baseline x86-64, so it uses the FPU, CMOV,
 * CMPXCHG8B, FXSR, SSE and SSE2 (doubles in the statistics, LFENCE/MFENCE in
 * the brackets), and every measurement is timed with the TSC.
 *
 * cpu_check returns when all of that is there.  Otherwise it says what is
 * missing, with the CPU's vendor and family, in plain text on the screen (VGA
 * text at 0xB8000) and on COM1 (0x3F8, 115200 8N1: the probe's own default,
 * before any option is read), writes EXIT_CODE_UNSUPPORTED to the exit device
 * when the machine is QEMU, and halts with the message on screen.  32-bit
 * assembly only: the build has no 32-bit C library (no gcc-multilib). */
#include "probe/exit_status.h"

#define EFLAGS_AC (1 << 18) /* settable from the 80486 on */
#define EFLAGS_ID (1 << 21) /* settable iff the CPU has CPUID */
#define COM1 0x3f8
#define VGA_TEXT 0xb8000
#define VGA_END (VGA_TEXT + 80 * 25 * 2)
#define ATTR_MSG 0x4f00 /* white on red */
#define ATTR_BLANK 0x0720
#define UART_SPINS 100000 /* per byte: 87 us at 115200 baud is far less */
#define FW_CFG_SELECT 0x510
#define FW_CFG_DATA 0x511

/* A requirement: the register (0: CPUID.01H:EDX, 1: CPUID.80000001H:EDX),
 * the bit, and its name in the message. */
#define NEED(reg, bit, name) .long reg, bit, name

	.section .rodata
need_table:
	NEED(1, 29, s_lm)
	NEED(0, 6, s_pae)
	NEED(0, 4, s_tsc)
	NEED(0, 5, s_msr)
	NEED(0, 0, s_fpu)
	NEED(0, 8, s_cx8)
	NEED(0, 15, s_cmov)
	NEED(0, 24, s_fxsr)
	NEED(0, 25, s_sse)
	NEED(0, 26, s_sse2)
	.long -1
s_lm:	.asciz "64-bit long mode"
s_pae:	.asciz "PAE"
s_tsc:	.asciz "TSC"
s_msr:	.asciz "MSRs"
s_fpu:	.asciz "FPU"
s_cx8:	.asciz "CMPXCHG8B"
s_cmov:	.asciz "CMOV"
s_fxsr:	.asciz "FXSR"
s_sse:	.asciz "SSE"
s_sse2:	.asciz "SSE2"
s_comma: .asciz ", "
s_wrap: .asciz ",\n  "
s_head:	.asciz "tickprobe: this CPU cannot run tickprobe: it lacks "
s_no_cpuid: .asciz "CPUID (EFLAGS.ID fixed)"
s_vendor: .asciz ".\ntickprobe: CPU vendor "
s_family: .asciz ", family "
s_model: .asciz ", model "
s_stepping: .asciz ", stepping "
s_unknown: .asciz "unknown (no CPUID), family "
s_i486:	.asciz " (EFLAGS.AC settable: 80486)"
s_i386:	.asciz " (EFLAGS.AC fixed: 80386)"
s_tail:	.ascii "\ntickprobe: it needs an x86-64 CPU with long mode, PAE, TSC, MSRs, FPU,\n"
	.ascii "tickprobe: CMPXCHG8B, CMOV, FXSR, SSE and SSE2. Nothing was measured.\n"
	.asciz "tickprobe: halted. Power off or reset when done.\n"

	.section .bss
	.align 4
cpu_vendor:
	.skip 16 /* 12 characters and a NUL */
cpu_sig:
	.skip 4
cpu_regs:
	.skip 8 /* CPUID.01H:EDX, CPUID.80000001H:EDX */
line_start:
	.skip 4 /* where the message's current line starts */
cpu_msg:
	.skip 1024

	.section .text
	.code32
	.globl cpu_check
cpu_check:
	pushal
	mov $cpu_msg, %edi
	pushfl
	pop %eax
	mov %eax, %ecx
	xor $EFLAGS_ID, %eax
	push %eax
	popfl
	pushfl
	pop %eax
	push %ecx
	popfl
	xor %ecx, %eax
	test $EFLAGS_ID, %eax
	jz no_cpuid

	xor %eax, %eax
	cpuid
	mov %ebx, cpu_vendor
	mov %edx, cpu_vendor + 4
	mov %ecx, cpu_vendor + 8
	movb $0, cpu_vendor + 12
	mov %eax, %ebp /* the highest basic leaf */
	xor %eax, %eax
	xor %edx, %edx
	cmp $1, %ebp
	jb 1f
	mov $1, %eax
	cpuid
1:	mov %eax, cpu_sig
	mov %edx, cpu_regs
	/* Intel CPUs before the Pentium 4 answer an extended leaf with a basic
	 * leaf's data: only 0x80000001..0x8000ffff says the leaf exists. */
	mov $0x80000000, %eax
	cpuid
	xor %edx, %edx
	sub $0x80000001, %eax
	cmp $0xfffe, %eax
	ja 2f
	mov $0x80000001, %eax
	cpuid
2:	mov %edx, cpu_regs + 4

	/* Name each missing requirement after s_head; ebp counts them.  A
	 * name that would pass column 78 (80 on screen, less ", " or ".")
	 * starts an indented line. */
	mov %edi, line_start
	mov $s_head, %esi
	call cat
	xor %ebp, %ebp
	mov $need_table, %ebx
3:	mov (%ebx), %eax
	cmp $-1, %eax
	je 5f
	mov cpu_regs(, %eax, 4), %edx
	mov 4(%ebx), %ecx
	bt %ecx, %edx
	jc 4f
	test %ebp, %ebp
	jz 6f
	mov 8(%ebx), %esi
	call str_len
	add %edi, %ecx
	sub line_start, %ecx
	mov $s_comma, %esi
	cmp $76, %ecx
	jbe 7f
	mov $s_wrap, %esi
	lea 2(%edi), %eax
	mov %eax, line_start /* after ",\n" */
7:	call cat
6:	mov 8(%ebx), %esi
	call cat
	inc %ebp
4:	add $12, %ebx
	jmp 3b
5:	test %ebp, %ebp
	jnz unsupported
	popal
	ret

unsupported:
	mov $s_vendor, %esi
	call cat
	mov $cpu_vendor, %esi
	call cat
	mov $s_family, %esi
	call cat
	/* Display family and model (Intel SDM vol. 2, CPUID leaf 1): the
	 * extended family adds on base family 15, the extended model is the
	 * high nibble on families 6 and 15. */
	mov cpu_sig, %eax
	mov %eax, %ebx
	shr $8, %ebx
	and $0xf, %ebx /* base family */
	mov %ebx, %eax
	cmp $0xf, %ebx
	jne 7f
	mov cpu_sig, %ecx
	shr $20, %ecx
	and $0xff, %ecx
	add %ecx, %eax
7:	call cat_dec
	mov $s_model, %esi
	call cat
	mov cpu_sig, %eax
	shr $4, %eax
	and $0xf, %eax
	cmp $6, %ebx
	je 8f
	cmp $0xf, %ebx
	jne 9f
8:	mov cpu_sig, %ecx
	shr $12, %ecx
	and $0xf0, %ecx
	add %ecx, %eax
9:	call cat_dec
	mov $s_stepping, %esi
	call cat
	mov cpu_sig, %eax
	and $0xf, %eax
	call cat_dec
	jmp say_and_stop

no_cpuid:
	mov $s_head, %esi
	call cat
	mov $s_no_cpuid, %esi
	call cat
	mov $s_vendor, %esi
	call cat
	mov $s_unknown, %esi
	call cat
	/* The 80386 cannot set EFLAGS.AC; the 80486 can. */
	pushfl
	pop %eax
	mov %eax, %ecx
	xor $EFLAGS_AC, %eax
	push %eax
	popfl
	pushfl
	pop %eax
	push %ecx
	popfl
	xor %ecx, %eax
	mov $s_i386, %esi
	mov $3, %ebx
	test $EFLAGS_AC, %eax
	jz 1f
	mov $s_i486, %esi
	mov $4, %ebx
1:	mov %ebx, %eax
	push %esi
	call cat_dec
	pop %esi
	call cat
	jmp say_and_stop

/* The message so far, the list of needs, then out it goes; never returns. */
say_and_stop:
	mov $s_tail, %esi
	call cat
	movb $0, (%edi)
	call uart_init
	call vga_clear
	mov $cpu_msg, %esi
	mov $VGA_TEXT, %edi
1:	lodsb
	test %al, %al
	jz 2f
	call put_char
	jmp 1b
2:	call qemu_exit
3:	cli
	hlt
	jmp 3b

/* Appends the NUL-terminated string at esi to edi (left on the NUL's place). */
cat:
	lodsb
	test %al, %al
	jz 1f
	stosb
	jmp cat
1:	ret

/* Appends eax in decimal. */
cat_dec:
	mov $10, %ecx
	xor %esi, %esi
1:	xor %edx, %edx
	div %ecx
	push %edx
	inc %esi
	test %eax, %eax
	jnz 1b
2:	pop %eax
	add $'0', %al
	stosb
	dec %esi
	jnz 2b
	ret

/* ecx = the length of the NUL-terminated string at esi. */
str_len:
	xor %ecx, %ecx
1:	cmpb $0, (%esi, %ecx)
	je 2f
	inc %ecx
	jmp 1b
2:	ret

/* COM1 at 115200 8N1, FIFOs on; harmless where there is no UART. */
uart_init:
	mov $COM1 + 1, %dx
	xor %al, %al
	out %al, %dx /* no interrupts */
	mov $COM1 + 3, %dx
	mov $0x80, %al
	out %al, %dx /* divisor latch */
	mov $COM1, %dx
	mov $1, %al
	out %al, %dx /* 115200 / 1 */
	mov $COM1 + 1, %dx
	xor %al, %al
	out %al, %dx
	mov $COM1 + 3, %dx
	mov $0x03, %al
	out %al, %dx /* 8N1 */
	mov $COM1 + 2, %dx
	mov $0xc7, %al
	out %al, %dx
	mov $COM1 + 4, %dx
	mov $0x03, %al
	out %al, %dx /* DTR, RTS */
	ret

/* One byte to COM1: a bounded wait for the transmitter (a port that reads
 * 0xff, no UART, counts as ready). */
uart_put:
	push %eax
	mov $UART_SPINS, %ecx
	mov $COM1 + 5, %dx
1:	in %dx, %al
	test $0x20, %al
	jnz 2f
	loop 1b
2:	pop %eax
	mov $COM1, %dx
	out %al, %dx
	ret

vga_clear:
	mov $VGA_TEXT, %edi
	mov $ATTR_BLANK, %eax
	mov $80 * 25, %ecx
	rep stosw
	ret

/* al to COM1 (\n as \r\n) and to the screen at edi (\n: the next row). */
put_char:
	cmp $'\n', %al
	jne 1f
	push %eax
	mov $'\r', %al
	call uart_put
	pop %eax
	call uart_put
	mov %edi, %eax
	sub $VGA_TEXT, %eax
	xor %edx, %edx
	mov $160, %ecx
	div %ecx
	sub %edx, %edi
	add $160, %edi
	ret
1:	push %eax
	call uart_put
	pop %eax
	cmp $VGA_END, %edi
	jae 2f
	movzbw %al, %ax
	or $ATTR_MSG, %ax
	stosw
2:	ret

/* EXIT_CODE_UNSUPPORTED to isa-debug-exit when fw_cfg says QEMU, as the core
 * does at the end of a run (platform/machine.c): no other machine gets a
 * write to port 0xf4. */
qemu_exit:
	mov $FW_CFG_SELECT, %dx
	xor %eax, %eax
	out %ax, %dx /* FW_CFG_SIGNATURE */
	mov $FW_CFG_DATA, %dx
	mov $4, %ecx
1:	in %dx, %al
	shl $8, %ebx
	mov %al, %bl
	loop 1b
	cmp $0x51454d55, %ebx /* 'Q' 'E' 'M' 'U', first byte highest */
	jne 2f
	mov $EXIT_CODE_UNSUPPORTED, %al
	out %al, $EXIT_PORT
2:	ret
	.section .note.GNU-stack, "", @progbits
