#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Spoil one ACPI table's checksum in a running QEMU guest, between the
firmware building the tables and the probe reading them.

QEMU recomputes the checksum of every -acpitable it is given, so a table with
a bad checksum cannot come from the command line.  This talks QEMU's gdb
remote protocol (started with -S -gdb tcp::PORT): a breakpoint at the
multiboot kernel's entry stops the guest after SeaBIOS has laid out the
tables, the RSDP -> RSDT walk finds each table of signature SIG (and OEM id
OEM, when given), its checksum byte is changed by one, and the guest goes on.

    gdbpoke.py PORT ELF32 SIG [--oem OEMID] [--list] [--first]

Prints what it changed; exits 1 when nothing was found or the link failed.
--list changes nothing and prints the RSDT's tables in order, one a line:
"table SIG OEMID 0xADDRESS", and for an HPET table " base 0xBASE" (which
of two HPET tables comes first, and where each says the block is).
--first changes no table: it swaps the RSDT's entries so that the table of
signature SIG and OEM id OEM comes before every other SIG table (QEMU lists
its own before any -acpitable one), and fixes the RSDT's checksum.
"""
import argparse
import socket
import struct
import sys
import time


class Gdb:
    def __init__(self, port, timeout=20.0):
        deadline = time.time() + timeout
        while True:
            try:
                self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.05)
        # Each packet's "+" and the next request are small writes: without
        # NODELAY, Nagle holds the second for the first's delayed ACK, 40 ms
        # a request (a 128 KiB read took 5.7 s; 0.1 s with it).
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def _fill(self):
        chunk = self.s.recv(65536)
        if not chunk:
            raise EOFError("gdb link closed")
        self.buf += chunk

    def _upto(self, mark, after=0):
        """The buffer's bytes before the first MARK, which must have AFTER
        bytes behind it; the buffer keeps what follows those."""
        while True:
            i = self.buf.find(mark)
            if i >= 0 and len(self.buf) >= i + 1 + after:
                head, self.buf = self.buf[:i], self.buf[i + 1 + after:]
                return head
            self._fill()

    def send(self, data):
        pkt = b"$" + data + b"#" + b"%02x" % (sum(data) & 0xFF)
        self.s.sendall(pkt)
        self._upto(b"+")

    def reply(self):
        self._upto(b"$")
        data = self._upto(b"#", 2)  # the two checksum digits
        self.s.sendall(b"+")
        return data

    def cmd(self, data):
        self.send(data)
        return self.reply()

    def read(self, addr, n):
        out = b""
        while n:
            k = min(n, 1024)
            r = self.cmd(b"m%x,%x" % (addr, k))
            if r.startswith(b"E"):
                raise IOError("read 0x%x: %s" % (addr, r))
            out += bytes.fromhex(r.decode())
            addr += k
            n -= k
        return out

    def write(self, addr, data):
        r = self.cmd(b"M%x,%x:%s" % (addr, len(data), data.hex().encode()))
        if r != b"OK":
            raise IOError("write 0x%x: %s" % (addr, r))


def elf_entry(path):
    with open(path, "rb") as f:
        h = f.read(52)
    return struct.unpack_from("<I", h, 24)[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("elf")
    ap.add_argument("sig")
    ap.add_argument("--oem", default=None)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--first", action="store_true")
    a = ap.parse_args()

    g = Gdb(a.port)
    entry = elf_entry(a.elf)
    if g.cmd(b"Z1,%x,1" % entry) != b"OK":
        print("gdbpoke: breakpoint at 0x%x refused" % entry)
        return 1
    g.send(b"c")
    stop = g.reply()
    g.cmd(b"z1,%x,1" % entry)

    low = g.read(0xE0000, 0x20000)
    i = low.find(b"RSD PTR ")
    while i >= 0 and i % 16:
        i = low.find(b"RSD PTR ", i + 1)
    if i < 0:
        print("gdbpoke: no RSDP (stop reply %s)" % stop.decode(errors="replace"))
        g.send(b"c")
        return 1
    rsdt = struct.unpack_from("<I", low, i + 16)[0]
    hdr = g.read(rsdt, 36)
    n = (struct.unpack_from("<I", hdr, 4)[0] - 36) // 4
    entries = struct.unpack("<%dI" % n, g.read(rsdt + 36, 4 * n))
    changed = 0
    if a.first:
        sigs = [g.read(addr, 16) for addr in entries]
        mine = [k for k, t in enumerate(sigs) if t[:4] == a.sig.encode() and
                (not a.oem or t[10:16].rstrip(b"\0 ") == a.oem.encode())]
        same = [k for k, t in enumerate(sigs) if t[:4] == a.sig.encode()]
        if mine and same and mine[0] != same[0]:
            e = list(entries)
            e[same[0]], e[mine[0]] = e[mine[0]], e[same[0]]
            g.write(rsdt + 36, struct.pack("<%dI" % n, *e))
            table = bytearray(g.read(rsdt, 36 + 4 * n))
            table[9] = 0
            g.write(rsdt + 9, bytes([(-sum(table)) & 0xFF]))
            print("gdbpoke: RSDT entries %d and %d swapped: the %s table at 0x%x comes first" %
                  (same[0], mine[0], a.sig, entries[mine[0]]))
            changed = 1
        g.send(b"c")
        g.s.close()
        return 0 if changed else 1
    for addr in entries:
        t = g.read(addr, 36)
        if a.list:
            extra = ""
            if t[:4] == b"HPET":
                extra = " base 0x%x" % struct.unpack_from("<Q", g.read(addr + 44, 8))[0]
            print("table %s %s 0x%x%s" % (t[:4].decode(errors="replace"),
                                          t[10:16].rstrip(b"\0 ").decode(errors="replace"), addr, extra))
            changed += 1
            continue
        if t[:4] != a.sig.encode() or (a.oem and t[10:16].rstrip(b"\0 ") != a.oem.encode()):
            continue
        g.write(addr + 9, bytes([(t[9] + 1) & 0xFF]))
        print("gdbpoke: %s table at 0x%x: checksum 0x%02x -> 0x%02x" % (a.sig, addr, t[9], (t[9] + 1) & 0xFF))
        changed += 1
    g.send(b"c")
    g.s.close()
    return 0 if changed else 1


if __name__ == "__main__":
    sys.exit(main())
