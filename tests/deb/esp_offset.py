# SPDX-License-Identifier: BSD-2-Clause
"""The byte offset of the EFI system partition in a GPT disk image.

Run by tests/deb/test_deb_boot.sh from the top of the tree.  Arguments: IMAGE.
"""
import struct, sys
with open(sys.argv[1], "rb") as f:
    f.seek(512)
    h = f.read(92)
    if h[:8] != b"EFI PART":
        sys.exit("no GPT")
    lba, n, size = struct.unpack_from("<QII", h, 72)
    f.seek(lba * 512)
    esp = bytes.fromhex("28732ac11ff8d211ba4b00a0c93ec93b")  # C12A7328-F81F-11D2-BA4B-00A0C93EC93B
    for _ in range(n):
        e = f.read(size)
        if e[:16] == esp:
            print(struct.unpack_from("<Q", e, 32)[0] * 512)
            sys.exit(0)
sys.exit("no EFI system partition")
