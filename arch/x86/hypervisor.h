/* SPDX-License-Identifier: BSD-2-Clause */
/* The hypervisor's CPUID leaves.  CPUID.01H:ECX[31] says a hypervisor is
 * there; its vendor signature is in EBX, ECX, EDX of leaf 0x40000000.  A
 * hypervisor that also offers another one's interface (KVM with Hyper-V
 * enlightenments puts "Microsoft Hv" at 0x40000000 and "KVMKVMKVM" at
 * 0x40000100) repeats the block 0x100 leaves further on, so the search steps
 * through 0x40000000..0x4000FF00 as Linux's hypervisor_cpuid_base() does. */
#ifndef ARCH_X86_HYPERVISOR_H
#define ARCH_X86_HYPERVISOR_H

#include <stdint.h>

#define HYPERVISOR_SIG_LEN 12

/* The base leaf whose signature is sig (12 bytes, NULs included as they are
 * in the leaf: "KVMKVMKVM\0\0\0"), or 0.  first gets the signature at
 * 0x40000000, printable, or "" when there is no hypervisor (at least
 * HYPERVISOR_SIG_LEN + 1 bytes). */
uint32_t hypervisor_base(const char *sig, char *first);

/* Why sig is not there, for a counter's reason: "no hypervisor
 * (CPUID.01H:ECX[31] clear), so no <name>" or "the hypervisor is TCGTCGTCGTCG, not
 * <name>" (the signature at 0x40000000: no later block was <name>'s). */
void hypervisor_absent(const char *name, const char *first, char *buf, unsigned cap);

#endif
