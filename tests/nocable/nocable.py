#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Helpers of the tests/nocable/ scripts, on copies of the image:

    nocable.py esp-offset IMG              byte offset of the GPT's EFI System partition
    nocable.py set-env IMG PRESET TIMEOUT OPTIONS
                                           rewrite every tickprobe.env block in place
    nocable.py records CAPTURE OUT         the record lines of a serial capture, as the
                                           probe wrote them (CR and ANSI escapes removed)
    nocable.py field LOG TYPE KEY          one member of the first TYPE record, as JSON
    nocable.py prefix [--cut] A B          exit 0 when A's lines are the first lines of B;
                                           --cut: A may end in NUL bytes (cut_tail)
    nocable.py unhealthy LOG               the timer records that are not healthy, and why
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import read, record_lines  # noqa: E402

ESP_TYPE = bytes.fromhex("28732ac11ff8d211ba4b00a0c93ec93b")  # C12A7328-F81F-11D2-BA4B-00A0C93EC93B
ENV_SIG = b"# GRUB Environment Block\ntp_preset="


def esp_offset(img):
    with open(img, "rb") as f:
        head = f.read(1 << 16)
    if head[512:520] != b"EFI PART":
        sys.exit(f"{img}: no GPT header at LBA 1")
    lba, count, size = struct.unpack_from("<QII", head, 512 + 72)
    for i in range(count):
        e = head[lba * 512 + i * size:lba * 512 + (i + 1) * size]
        if e[:16] == ESP_TYPE:
            return struct.unpack_from("<Q", e, 32)[0] * 512
    sys.exit(f"{img}: no EFI System partition in the GPT")


def set_env(img, preset, timeout, options):
    body = f"# GRUB Environment Block\ntp_preset={preset}\ntp_timeout={timeout}\ntp_options={options}\n".encode()
    blk = body + b"#" * (512 - len(body))
    with open(img, "r+b") as f:
        data = bytearray(f.read())
        n = 0
        for off in range(0, len(data) - 511, 512):
            if data[off:off + len(ENV_SIG)] == ENV_SIG and data[off + 511] == ord("#"):
                data[off:off + 512] = blk
                n += 1
        if n != 2:
            sys.exit(f"{img}: {n} tickprobe.env blocks, not 2")
        f.seek(0)
        f.write(data)


def field(log, rtype, key):
    r = read(log, clean=True).first(rtype)
    if r is None:
        sys.exit(f"{log}: no {rtype} record")
    return json.dumps(r.get(key))


def unhealthy(log):
    out = [f"{r.get('name')}: {r.get('reason')}" for r in read(log, clean=True).of("timer") if r.get("healthy") is False]
    return "; ".join(out) or "none unhealthy"


def cut_tail(data):
    """A log file whose machine died in the middle of a write, without the
    NUL bytes after its last line.  The firmware's FAT driver may write the
    file's new size to its directory entry before the data: seen in one
    `make check` run, a file ending in the 588 NUL bytes of the record being
    written when QEMU was killed.  Only a tail of nothing but NULs goes;
    a NUL anywhere else is left for the comparison to fail on."""
    end = data.rfind(b"\n") + 1
    tail = data[end:]
    if tail and tail.count(0) == len(tail):
        print(f"INFO: {len(tail)} NUL bytes after the last line: the size reached the disk before the data")
        return data[:end]
    return data


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "esp-offset":
        print(esp_offset(args[0]))
    elif cmd == "set-env":
        set_env(*args)
    elif cmd == "records":
        open(args[1], "wb").write(b"".join(line + b"\n" for line in record_lines(args[0], clean=True)))
    elif cmd == "field":
        print(field(*args))
    elif cmd == "unhealthy":
        print(unhealthy(args[0]))
    elif cmd == "prefix":
        cut = args[:1] == ["--cut"]
        a_path, b_path = args[cut:]
        a, b = open(a_path, "rb").read(), open(b_path, "rb").read()
        if cut:
            a = cut_tail(a)
        sys.exit(0 if a and b.startswith(a) else 1)
    else:
        sys.exit(f"nocable.py: unknown command {cmd}")


if __name__ == "__main__":
    main()
