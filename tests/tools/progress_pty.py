# SPDX-License-Identifier: BSD-2-Clause
"""Runs a command with its stderr on a pseudo-terminal and its stdout on a
pipe; prints what each received as JSON: {"rc", "stdout", "stderr"}.

  progress_pty.py TIMEOUT COMMAND [ARG...]
"""
import json
import os
import pty
import select
import subprocess
import sys
import time


def main(argv):
    timeout = float(argv[1])
    master, slave = pty.openpty()
    p = subprocess.Popen(argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    err = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child side closed
                chunk = b""
            if not chunk:
                break
            err += chunk
        elif p.poll() is not None:
            break
    if p.poll() is None:
        p.kill()
    out = p.stdout.read()
    rc = p.wait()
    os.close(master)
    print(json.dumps({"rc": rc, "stdout": out.decode("utf-8", "replace"),
                      "stderr": err.decode("utf-8", "replace")}))


if __name__ == "__main__":
    main(sys.argv)
