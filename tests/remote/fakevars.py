# SPDX-License-Identifier: BSD-2-Clause
"""EFI variables for tests/remote/test_schedule.sh, written and read the way
the UEFI 2.10 specification lays them out (section 3.1.3, EFI_LOAD_OPTION;
10.3, device paths), separately from the C code under test.

  fakevars.py ovmf DIR            Boot0000-0002 and BootOrder as OVMF makes them
  fakevars.py option DESC PART_GUID START SIZE PATH OPTIONS
                                  the efivarfs bytes of such a Boot#### entry, as hex
  fakevars.py set DIR NAME HEX    a variable from hex (attribute word included)
"""
import binascii
import struct
import sys
import uuid

GLOBAL = '8be4df61-93ca-11d2-aa0d-00e098032b8c'
ATTRS = struct.pack('<I', 7)


def ucs2(s):
    return s.encode('utf-16-le') + b'\0\0'


def node(t, sub, body):
    return struct.pack('<BBH', t, sub, 4 + len(body)) + body


def load_option(desc, path_nodes, data=b''):
    fp = b''.join(path_nodes) + node(0x7f, 0xff, b'')
    return struct.pack('<IH', 1, len(fp)) + ucs2(desc) + fp + data


def hd(number, start, size, guid):
    return node(4, 1, struct.pack('<IQQ', number, start, size) + uuid.UUID(guid).bytes_le + bytes([2, 2]))


def put(d, name, value):
    with open('%s/%s-%s' % (d, name, GLOBAL), 'wb') as f:
        f.write(ATTRS + value)


def ovmf(d):
    # UiApp and the EFI shell are firmware volume files (media type 4, subtype 6/7);
    # the disk's entry is a PCI/NVMe path; all carry OVMF's 16-byte GUID as data.
    tag = uuid.UUID('eb704011-1402-11d3-8e77-00a0c969723b').bytes_le
    fv = node(4, 7, uuid.UUID('7cb8bdc9-f8eb-4f34-aaea-3ee4af6516a1').bytes_le)
    put(d, 'Boot0000', load_option('UiApp', [fv, node(4, 6, uuid.UUID('462caa21-7614-4503-836e-8ab6f4662331').bytes_le)], tag))
    put(d, 'Boot0001', load_option('UEFI QEMU NVMe Ctrl tp0 1', [node(1, 1, bytes([0, 1])), node(3, 23, struct.pack('<IQ', 1, 0))], tag))
    put(d, 'Boot0002', load_option('EFI Internal Shell', [fv, node(4, 6, uuid.UUID('7c04a583-9e3e-4f1c-ad65-e05268d0b4d1').bytes_le)], tag))
    put(d, 'BootOrder', struct.pack('<HHH', 0, 1, 2))


def main():
    if sys.argv[1] == 'ovmf':
        ovmf(sys.argv[2])
    elif sys.argv[1] == 'option':
        desc, guid, start, size, path, options = sys.argv[2:8]
        data = ucs2(options) if options else b''
        print(binascii.hexlify(ATTRS + load_option(desc, [hd(1, int(start), int(size), guid), node(4, 4, ucs2(path))], data)).decode())
    elif sys.argv[1] == 'set':
        with open('%s/%s-%s' % (sys.argv[2], sys.argv[3], GLOBAL), 'wb') as f:
            f.write(binascii.unhexlify(sys.argv[4]))


main()
