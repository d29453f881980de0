#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Read a QEMU guest's VGA text screen through the human monitor.

    vgascreen.py SOCK OUT --until TEXT [--timeout S] [--quit]

Connects to `-monitor unix:SOCK,server,nowait`, and every 0.2 s saves the
text buffer (physical 0xB8000, 80 x 25 cells of character + attribute, 4000
bytes) with `pmemsave`, until the screen holds TEXT or S seconds pass.  Writes
the last screen to OUT as 25 lines of text, and with --quit ends QEMU with
`quit`.  Exits 0 when TEXT was seen, 1 when not.
"""
import argparse
import os
import socket
import sys
import time

COLS, ROWS = 80, 25


def screen_text(raw):
    chars = raw[0::2]
    rows = [chars[r * COLS:(r + 1) * COLS].decode("cp437", "replace").rstrip() for r in range(ROWS)]
    return "\n".join(rows) + "\n"


class Monitor:
    def __init__(self, path, timeout):
        deadline = time.time() + timeout
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.05)
        self.s.settimeout(timeout)
        self.until_prompt()

    def until_prompt(self):
        data = b""
        while not data.endswith(b"(qemu) "):
            chunk = self.s.recv(4096)
            if not chunk:
                raise EOFError("monitor closed")
            data += chunk
        return data

    def cmd(self, line):
        self.s.sendall(line.encode() + b"\n")
        return self.until_prompt()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sock")
    ap.add_argument("out")
    ap.add_argument("--until", required=True)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--quit", action="store_true")
    a = ap.parse_args()

    mon = Monitor(a.sock, a.timeout)
    dump = a.out + ".raw"
    deadline = time.time() + a.timeout
    seen, text = False, ""
    while True:
        if os.path.exists(dump):
            os.unlink(dump)
        mon.cmd("pmemsave 0xb8000 %d \"%s\"" % (COLS * ROWS * 2, dump))
        if os.path.exists(dump):
            with open(dump, "rb") as f:
                text = screen_text(f.read())
        if a.until in text:
            seen = True
            break
        if time.time() > deadline:
            break
        time.sleep(0.2)
    with open(a.out, "w") as f:
        f.write(text)
    if a.quit:
        try:
            mon.s.sendall(b"quit\n")
            while mon.s.recv(4096):  # QEMU closes the monitor as it exits
                pass
        except OSError:
            pass
    return 0 if seen else 1


if __name__ == "__main__":
    sys.exit(main())
