# SPDX-License-Identifier: BSD-2-Clause
"""Helpers of tests/net/test_uefi_net.sh.

    netcheck.py records CAPTURE OUT   the record lines of a serial capture (CR and
                                      ANSI sequences removed), one per line, to OUT
    netcheck.py field CAPTURE TYPE KEY  one member of the first TYPE record, as JSON
    netcheck.py note CAPTURE          the UEFI end note about the network, or nothing
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import clean_lines, read, record_lines  # noqa: E402


def main():
    cmd = sys.argv[1]
    if cmd == "records":
        with open(sys.argv[3], "wb") as f:
            f.write(b"".join(r + b"\n" for r in record_lines(sys.argv[2], clean=True)))
    elif cmd == "field":
        rec = read(sys.argv[2], clean=True).first(sys.argv[3])
        print(json.dumps(rec.get(sys.argv[4], "(missing)")) if rec is not None else '"(no such record)"')
    elif cmd == "note":
        for line in clean_lines(open(sys.argv[2], "rb").read()):
            if line.startswith(b"tickprobe (UEFI): ") and (b" sent to " in line or b"sending the log" in line):
                print(line.decode(errors="replace"))
                return
    else:
        sys.exit("netcheck.py: unknown command " + cmd)


if __name__ == "__main__":
    main()
