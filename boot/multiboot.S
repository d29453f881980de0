/* SPDX-License-Identifier: BSD-2-Clause */
/* Multiboot v1 entry: GRUB (`multiboot`) and `qemu -kernel` start us here in
 * 32-bit protected mode, paging off, EAX = 0x2BADB002, EBX = multiboot info.
 * This stub checks the CPU (boot/cpu_check.S), climbs into long mode and
 * calls bios_entry() (boot/bios.c);
 * everything after that is the shared 64-bit core. */

#define MB_MAGIC 0x1BADB002
#define MB_FLAGS 0x00000003 /* 4 KiB-aligned modules, give us the memory map */

#define CR0_PE (1 << 0)
#define CR0_MP (1 << 1)
#define CR0_EM (1 << 2)
#define CR0_PG (1 << 31)
#define CR4_PAE (1 << 5)
#define CR4_OSFXSR (1 << 9)      /* SSE on: the core computes statistics in doubles */
#define CR4_OSXMMEXCPT (1 << 10)
#define MSR_EFER 0xC0000080
#define EFER_LME (1 << 8)

/* 2 MiB pages: present, writable, large. */
#define PDE_WB 0x83
/* PCD|PWT on top: uncached. Applied from 3 GiB up, where chipsets put
 * MMIO (HPET at 0xFED00000, local APIC, and the odd bases seen in real
 * tables: 0xFE800000, 0xFEFF0000). MTRRs say so too on a sane BIOS; the
 * page attribute makes it hold on one that is not. */
#define PDE_UC (PDE_WB | 0x18)
#define UC_FROM_2M 1536 /* 3 GiB / 2 MiB */

	.section .multiboot, "a"
	.align 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.section .text

	.code32
	.globl _start
_start:
	cli
	cld
	mov %eax, %edi /* magic, and the info pointer: bios_entry's arguments */
	mov %ebx, %esi
	mov $boot_stack_top, %esp

	/* Nothing below may run on a CPU that cannot take it: without long
	 * mode (or PAE, MSRs, SSE2 ...) cpu_check says so on screen and COM1
	 * and stops there (boot/cpu_check.S). */
	call cpu_check

	/* Identity-map the low 4 GiB: PML4[0] -> PDPT, PDPT[0..3] -> 4 page directories. */
	movl $(boot_pdpt + 3), boot_pml4
	movl $0, boot_pml4 + 4
	xor %ecx, %ecx
1:	mov %ecx, %eax
	shl $12, %eax
	add $(boot_pd + 3), %eax
	mov %eax, boot_pdpt(, %ecx, 8)
	movl $0, boot_pdpt + 4(, %ecx, 8)
	inc %ecx
	cmp $4, %ecx
	jb 1b

	xor %ecx, %ecx
2:	mov %ecx, %eax
	shl $21, %eax
	or $PDE_WB, %eax
	cmp $UC_FROM_2M, %ecx
	jb 3f
	or $PDE_UC, %eax
3:	mov %eax, boot_pd(, %ecx, 8)
	movl $0, boot_pd + 4(, %ecx, 8)
	inc %ecx
	cmp $2048, %ecx
	jb 2b

	mov %cr4, %eax
	or $(CR4_PAE | CR4_OSFXSR | CR4_OSXMMEXCPT), %eax
	mov %eax, %cr4
	mov $boot_pml4, %eax
	mov %eax, %cr3
	mov $MSR_EFER, %ecx
	rdmsr
	or $EFER_LME, %eax
	wrmsr
	mov %cr0, %eax
	and $~CR0_EM, %eax
	or $(CR0_PG | CR0_PE | CR0_MP), %eax
	mov %eax, %cr0

	lgdt boot_gdt_desc
	ljmp $0x08, $long_mode

	.code64
long_mode:
	mov $0x10, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	xor %ax, %ax
	mov %ax, %fs
	mov %ax, %gs
	mov $boot_stack_top, %rsp
	/* The upper halves of the registers are undefined after the switch. */
	mov %edi, %edi
	mov %esi, %esi
	call bios_entry
6:	cli
	hlt
	jmp 6b

	.section .rodata
	.align 16
boot_gdt:
	.quad 0
	.quad 0x00AF9A000000FFFF /* 0x08: 64-bit code */
	.quad 0x00CF92000000FFFF /* 0x10: data */
boot_gdt_end:
boot_gdt_desc:
	.word boot_gdt_end - boot_gdt - 1
	.quad boot_gdt

	.section .bss
	.align 4096
boot_pml4:
	.skip 4096
boot_pdpt:
	.skip 4096
boot_pd:
	.skip 4 * 4096
	.align 16
	.skip 256 * 1024
boot_stack_top:
	.section .note.GNU-stack, "", @progbits
