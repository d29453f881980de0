#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Generate the fuzz seed corpora from the real test data in tests/data:
mkseeds.py OUTDIR DATA [QEMU_LOG] [FIXTURE_DIR]

  OUTDIR/acpi/      raw FADT/HPET/MADT tables of distinct shapes, and fake physical
                    memories for the walk and the BIOS search (the input
                    format of fuzz_acpi.c: a mode byte, then regions
                    u64 address, u32 length, bytes)
  OUTDIR/madt/      real MADTs of distinct shapes, with fuzz_madt.c's mode and
                    repeat bytes in front
  OUTDIR/logread/   a real serial log and the unit test's fixture logs, each
                    with fuzz_logread.c's three setup bytes in front
  OUTDIR/ministat/  the reference data sets, two option bytes in front
  OUTDIR/options/   every preset line of image/presets.cfg
  OUTDIR/collect/   real logs' records sent to the collector as probes send
                    them, over HTTP and syslog, in order and not, with and
                    without a token, cut at the size limit, and a flood of
                    forged datagrams before a hello (fuzz_collect.c's format)
"""
import csv, os, struct, sys, zlib

if len(sys.argv) < 3:
    sys.exit('usage: mkseeds.py OUTDIR DATA [QEMU_LOG] [FIXTURE_DIR]')
out, data = sys.argv[1], sys.argv[2]
qlog = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
fixtures = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None
acpi = os.path.join(data, 'acpi')
# The data is part of the tree: a missing piece is a broken checkout, not
# something to fuzz without.
for need in ('acpi/linuxhw/expected.csv', 'acpi/linuxhw/expected_madt.csv', 'acpi/walk',
             'acpi/corrupt/fwts02_corrupted_checksums', 'ministat'):
    if not os.path.exists(os.path.join(data, need)):
        sys.exit('mkseeds.py: %s missing (tests/data/README.md lists what belongs there)'
                 % os.path.join(data, need))


def put(harness, name, blob):
    d = os.path.join(out, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(blob)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def region(addr, blob):
    return struct.pack('<QI', addr, len(blob)) + blob


# ---- acpi: raw tables of each (revision, length) shape, and the odd ones ----
def listdir(p):
    return sorted(os.listdir(p)) if os.path.isdir(p) else []


seen = set()
with open(os.path.join(acpi, 'linuxhw', 'expected.csv')) as f:
    for row in csv.DictReader(f):
        d = os.path.join(acpi, 'linuxhw', row['machine'])
        key = (row['fadt_rev'], row['fadt_len'], row['hw_reduced'], row['x_space'],
               row['expect_hpet'], row['n_hpet'])
        if key in seen:
            continue
        seen.add(key)
        for t in ('FACP', 'HPET', 'HPET2'):
            p = os.path.join(d, t + '.bin')
            if os.path.exists(p):
                put('acpi', 'raw-%s-%s' % (row['machine'], t), b'\x00' + read(p))
# MADTs: one per (revision, entry kinds, undefined entry types, tables) shape.
seen = set()
with open(os.path.join(acpi, 'linuxhw', 'expected_madt.csv')) as f:
    for row in csv.DictReader(f):
        key = (row['madt_rev'], row['n_lapic'] != '0', row['n_x2apic'] != '0',
               row['other_types'], row['n_madt'], row['pcat_compat'])
        if key in seen:
            continue
        seen.add(key)
        for t in ('APIC', 'APIC2'):
            p = os.path.join(acpi, 'linuxhw', row['machine'], t + '.bin')
            if os.path.exists(p):
                put('acpi', 'raw-%s-%s' % (row['machine'], t), b'\x00' + read(p))
for p in listdir(os.path.join(acpi, 'corrupt', 'fwts02_corrupted_checksums')):
    if p.endswith('.bin'):
        put('acpi', 'raw-corrupt-' + p,
            b'\x0c' + read(os.path.join(acpi, 'corrupt', 'fwts02_corrupted_checksums', p)))


# ---- acpi: whole table sets laid out at their physical addresses ------------
def memmap(walkdir):
    tables = []
    with open(os.path.join(walkdir, 'memory', 'memmap.txt')) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            addr, length, sig, name = line.split()
            blob = read(os.path.join(walkdir, 'memory', name))
            # The walk reads only the header of tables other than these.
            if sig not in ('RSDP', 'RSDT', 'XSDT', 'FACP', 'HPET', 'APIC'):
                blob = blob[:36]
            tables.append((int(addr, 16), sig, name, blob))
    tables.sort(key=lambda t: t[1] != 'RSDP')  # the RSDP first: fuzz_acpi walks from it
    return tables


def image(tables, replace=None):
    replace = replace or {}
    return b''.join(region(a, replace.get(n, b)) for a, s, n, b in tables)


for w in listdir(os.path.join(acpi, 'walk')):
    tables = memmap(os.path.join(acpi, 'walk', w))
    put('acpi', 'walk-' + w, b'\x01' + image(tables))
    rsdp = tables[0][3]
    rest = image(tables[1:])
    # The BIOS search: the RSDP in the 0xE0000 area, then in the EBDA.
    put('acpi', 'bios-e0000-' + w, b'\x02' + region(0xF7240, rsdp) + rest)
    put('acpi', 'bios-ebda-' + w,
        b'\x03' + region(0x9FC10, rsdp) + region(0x40E, struct.pack('<H', 0x9FC0)) + rest)

fw = os.path.join(acpi, 'walk', 'fwts01_lenovo_thinkpad_crestline')
bad = os.path.join(acpi, 'corrupt', 'fwts02_corrupted_checksums')
if os.path.isdir(fw) and os.path.isdir(bad):
    tables = memmap(fw)
    put('acpi', 'walk-corrupt', b'\x01' + image(tables, {
        'XSDT_1.bin': read(os.path.join(bad, 'XSDT_bad_checksum.bin')),
        'FACP_2.bin': read(os.path.join(bad, 'FACP_bad_checksum.bin')),
        'HPET_1.bin': read(os.path.join(bad, 'HPET_bad_checksum.bin'))}))

# ---- madt: one real MADT per (revision, entry kinds, undefined types) -------
seen = set()
hw = os.path.join(acpi, 'linuxhw', 'expected_madt.csv')
with open(hw if os.path.exists(hw) else os.devnull) as f:
    for row in csv.DictReader(f):
        d = os.path.join(acpi, 'linuxhw', row['machine'])
        key = (row['madt_rev'], row['n_lapic'] != '0', row['n_x2apic'] != '0',
               row['n_enabled'] != row['n_lapic'], row['other_types'], row['n_madt'])
        if key in seen:
            continue
        seen.add(key)
        for t in ('APIC', 'APIC2'):
            p = os.path.join(d, t + '.bin')
            if os.path.exists(p):
                # As found; then Length and checksum fixed, decoded twice, walked
                # in place, and the entries laid out 8 (or 80, renumbered) times over.
                put('madt', 'lhw-%s-%s' % (row['machine'], t), b'\x00\x00' + read(p))
                put('madt', 'lhw-%s-%s-x8' % (row['machine'], t), b'\xff\x07' + read(p))
                put('madt', 'lhw-%s-%s-x80' % (row['machine'], t), b'\xff\xcf' + read(p))
for w in listdir(os.path.join(acpi, 'walk')):
    mem = os.path.join(acpi, 'walk', w, 'memory')
    for p in listdir(mem):
        if p.startswith('APIC'):
            put('madt', 'walk-%s-%s' % (w, p), b'\x0c\x00' + read(os.path.join(mem, p)))

# ---- logread ----------------------------------------------------------------
logs = []
if qlog and os.path.exists(qlog) and os.path.getsize(qlog):
    logs.append(('qemu', read(qlog)))
for p in listdir(os.path.join(data, 'logs', 'schema1')):  # real schema-1 captures
    if p.endswith('.log'):
        logs.append(('schema1-' + p, read(os.path.join(data, 'logs', 'schema1', p))))
if fixtures and os.path.isdir(fixtures):
    for p in listdir(fixtures):
        full = os.path.join(fixtures, p)
        if os.path.isfile(full) and os.path.getsize(full) <= 65536:
            logs.append(('fixture-' + p, read(full)))
for name, blob in logs:
    put('logread', name, b'\xff\xff\x7f' + blob)      # roomy buffers, chunked
    put('logread', name + '-tight', b'\x10\x08\x84' + blob)  # small ones, byte by byte

# ---- ministat ---------------------------------------------------------------
ms = os.path.join(data, 'ministat')
for case in listdir(ms):
    d = os.path.join(ms, case)
    if not os.path.isdir(d):
        continue
    for p in sorted(os.listdir(d)):
        if p.endswith('.txt') or p.endswith('.md'):
            continue
        put('ministat', case[:6] + '-' + p, b'\x00\x00' + read(os.path.join(d, p)))
    txt = os.path.join(d, 'manpage_examples_raw.txt')
    if os.path.exists(txt):
        put('ministat', case[:6] + '-manpage-text', b'\x01\x01' + read(txt))

# ---- options ----------------------------------------------------------------
presets = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'image', 'presets.cfg')
if os.path.exists(presets):
    for line in open(presets):
        if ':' in line and not line.startswith('#'):
            name, opts = line.split(':', 1)
            put('options', 'preset-' + name.strip(), opts.strip().encode())

# ---- collect ----------------------------------------------------------------
# fuzz_collect.c's operations; a sender's machine and boot as the probe names them.
MACHINE, BOOT = b'52-54-00-12-34-56', b'52-54-00-12-34-56-0000000000001000'


def http(body, machine=MACHINE, boot=BOOT, token=None, hello=False, length=True, piece=0, src=None):
    flags = 1 | 2 * (machine is not None) | 4 * (boot is not None) | 8 * (token is not None) | 16 * hello
    flags |= 32 * length | 64 * (src is not None)
    op = bytes([ord('H'), flags])
    for value in (machine, boot, token, b'%d' % len(body) if length else None):
        if value is not None:
            op += value + b'\n'
    if src is not None:
        op += bytes([src])
    return op + struct.pack('>H', len(body)) + body + bytes([piece])


def datagram(seq, rec, pas=b'first', machine=MACHINE, boot=BOOT, token=None, src=1):
    sd = b'[tickprobe@32473 seq="%d"%s]' % (seq, b' token="%s"' % token if token else b'')
    msg = b'<134>1 - %s tickprobe %s %s %s %s' % (machine, boot, pas, sd, rec)
    return b'U' + bytes([src]) + struct.pack('>H', len(msg)) + msg


def tick(seconds):
    return b'R' + bytes([seconds])


def record_lines(name):
    return [line.rstrip(b'\r') for line in read(os.path.join(data, 'logs', 'schema1', name)).split(b'\n')
            if line.startswith(b'{')]


recs = {p: record_lines(p) for p in listdir(os.path.join(data, 'logs', 'schema1')) if p.endswith('.log')}
for name, lines in sorted(recs.items()):
    short = name[:-4]
    # In order, a POST a record after the hello; imported (setup bit 1).
    put('collect', 'http-' + short, b'\x02' + http(b'', hello=True) + b''.join(http(r) for r in lines) + tick(1))
    # Six records a body, out of order, handed over in 64-byte pieces.
    order = list(range(len(lines)))
    order = order[1::2] + order[::2]
    bodies = [b'\n'.join(lines[i] for i in order[k:k + 6]) + b'\n' for k in range(0, len(order), 6)]
    put('collect', 'http-shuffled-' + short, b'\x00' + b''.join(http(b, piece=1) for b in bodies) + tick(1))
    # Syslog: the first pass loses one in five, the second brings them all.
    first = b''.join(datagram(i, r) for i, r in enumerate(lines) if i % 5 != 4)
    again = b''.join(datagram(i, r, b'again') for i, r in enumerate(lines))
    put('collect', 'syslog-' + short, b'\x02' + first + tick(1) + again + tick(1))
# A token: missing, wrong, then right; every record in one body.
lines = recs['os-quick.log']
whole = b'\n'.join(lines)
put('collect', 'token', b'\x03' + http(whole) + http(whole, token=b'T0ken!') +
    datagram(0, lines[0], token=b'wrong') + http(whole, token=b'T0ken') + tick(1))
# A log past --max-log-bytes 4096: cut, and imported as far as it goes.
put('collect', 'cut', b'\x0a' + b''.join(http(r) for r in lines) + tick(1))
# Bodies over --max-body 1024, with and without their length.
put('collect', 'body-bound', b'\x10' + http(whole) + http(whole, length=False, piece=4) + http(lines[0]))
# Silent past --incomplete-after 5 s, then heard from again.
put('collect', 'silent', b'\x20' + b''.join(http(r) for r in lines[:5]) + tick(9) +
    b''.join(http(r) for r in lines[5:]) + tick(1))
# Forged datagrams, each its own boot from one of 250 addresses, more than
# the table holds: then a probe's hello and log, which make room.
note = b'{"type":"note","seq":1'
note += b',"crc":"%08x"}' % (zlib.crc32(note) & 0xFFFFFFFF)
flood = b''.join(datagram(1, note, machine=b'f%d' % i, boot=b'f%d' % i, src=2 + i % 250) for i in range(1090))
put('collect', 'flood', b'\x00' + flood + http(b'', hello=True, src=1) + b''.join(http(r, src=1) for r in lines))
# --max-boots-per-source 2: a third boot from one address is turned away.
put('collect', 'per-source', b'\x04' + b''.join(datagram(1, note, machine=b'f%d' % i, boot=b'f%d' % i, src=9)
                                              for i in range(3)) +
    http(b'', hello=True, boot=b'b3', src=9) + http(b'', hello=True, boot=b'b4', src=10))
