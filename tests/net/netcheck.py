# SPDX-License-Identifier: BSD-2-Clause
"""Helpers of tests/net/test_uefi_net.sh.

    netcheck.py records CAPTURE OUT   the record lines of a serial capture (CR and
                                      ANSI sequences removed), one per line, to OUT
    netcheck.py field CAPTURE TYPE KEY  one member of the first TYPE record, as JSON
    netcheck.py note CAPTURE          the UEFI end note about the network, or nothing
"""
import json
import re
import sys

ANSI = re.compile(rb"\x1b\[[0-9;=?]*[A-Za-z]")


def plain(capture):
    with open(capture, "rb") as f:
        return ANSI.sub(b"", f.read().replace(b"\r", b""))


def records(capture):
    return [line for line in plain(capture).split(b"\n") if line.startswith(b'{"type":')]


def main():
    cmd = sys.argv[1]
    if cmd == "records":
        with open(sys.argv[3], "wb") as f:
            f.write(b"".join(r + b"\n" for r in records(sys.argv[2])))
    elif cmd == "field":
        for line in records(sys.argv[2]):
            rec = json.loads(line)
            if rec.get("type") == sys.argv[3]:
                print(json.dumps(rec.get(sys.argv[4], "(missing)")))
                return
        print('"(no such record)"')
    elif cmd == "note":
        for line in plain(sys.argv[2]).split(b"\n"):
            if line.startswith(b"tickprobe (UEFI): ") and (b" sent to " in line or b"sending the log" in line):
                print(line.decode(errors="replace"))
                return
    else:
        sys.exit("netcheck.py: unknown command " + cmd)


if __name__ == "__main__":
    main()
