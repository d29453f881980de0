#!/usr/bin/env python3
"""Generate the fuzz seed corpora from the real test data in tests/data:
mkseeds.py OUTDIR DATA [QEMU_LOG] [FIXTURE_DIR]

  OUTDIR/acpi/      raw FADT/HPET tables of distinct shapes, and fake physical
                    memories for the walk and the BIOS search (the input
                    format of fuzz_acpi.c: a mode byte, then regions
                    u64 address, u32 length, bytes)
  OUTDIR/logread/   a real serial log and the unit test's fixture logs, each
                    with fuzz_logread.c's three setup bytes in front
  OUTDIR/ministat/  the reference data sets, two option bytes in front
  OUTDIR/options/   every preset line of image/presets.cfg
"""
import csv, os, struct, sys

out, data = sys.argv[1], sys.argv[2]
qlog = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
fixtures = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None
acpi = os.path.join(data, 'acpi')


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
hw = os.path.join(acpi, 'linuxhw', 'expected.csv')
with open(hw if os.path.exists(hw) else os.devnull) as f:
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
            if sig not in ('RSDP', 'RSDT', 'XSDT', 'FACP', 'HPET'):
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
