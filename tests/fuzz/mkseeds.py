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
"""
import csv, os, struct, sys

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
