#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Write an ACPI HPET table (IA-PC HPET spec 1.0a, table 3) for QEMU's
-acpitable file=FILE, to feed the probe an HPET that is not the machine's.

    mkacpi.py hpet OUT [--base 0xFEB00000] [--block-id 0x8086A201] [--space 0]
    mkacpi.py madt OUT [--base 0xFEB00000]

QEMU sets Length and recomputes Checksum of every -acpitable, so a table
damaged in those two fields cannot come from here: test_faults.sh spoils the
checksum inside the guest instead (gdbpoke.py).

Layout (56 bytes): the 36-byte header ("HPET", Length, Revision 1,
Checksum, OEM ids), then Event Timer Block ID (u32 at 36), the base as a
Generic Address Structure (12 bytes at 40: space id, bit width, bit offset,
access size, u64 address), HPET number (u8 at 52), minimum clock tick
(u16 at 53) and page protection (u8 at 55).
"""
import argparse
import struct
import sys


def hpet_table(base, block_id, space=0):
    body = struct.pack("<I", block_id)
    body += struct.pack("<BBBBQ", space, 64, 0, 0, base)
    body += struct.pack("<BHB", 0, 0x80, 0)
    header = struct.pack("<4sIBB6s8sI4sI", b"HPET", 36 + len(body), 1, 0, b"TPTEST", b"TPFAULT ",
                         1, b"TPRB", 1)
    table = bytearray(header + body)
    table[9] = (-sum(table)) & 0xFF  # all bytes sum to 0 mod 256
    return bytes(table)


def madt_table(base):
    """A MADT (ACPI 6.5, 5.2.12) for one CPU whose Local APIC Address Override
    (entry type 5, 12 bytes: reserved u16, u64 address) puts the local APIC at
    base; the 32-bit field says the usual 0xFEE00000."""
    body = struct.pack("<II", 0xFEE00000, 1)                 # Local APIC Address, flags PCAT_COMPAT
    body += struct.pack("<BBBBI", 0, 8, 0, 0, 1)             # Processor Local APIC: uid 0, id 0, enabled
    body += struct.pack("<BBHQ", 5, 12, 0, base)             # Local APIC Address Override
    header = struct.pack("<4sIBB6s8sI4sI", b"APIC", 36 + len(body), 5, 0, b"TPTEST", b"TPFAULT ",
                         1, b"TPRB", 1)
    table = bytearray(header + body)
    table[9] = (-sum(table)) & 0xFF
    return bytes(table)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["hpet", "madt"])
    ap.add_argument("out")
    ap.add_argument("--base", type=lambda s: int(s, 0), default=0xFEB00000)
    ap.add_argument("--block-id", type=lambda s: int(s, 0), default=0x8086A201)
    ap.add_argument("--space", type=int, default=0)
    a = ap.parse_args()
    data = hpet_table(a.base, a.block_id, a.space) if a.kind == "hpet" else madt_table(a.base)
    with open(a.out, "wb") as f:
        f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
