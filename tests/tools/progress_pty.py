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


def read_some(master, wait):
    """What the terminal holds within WAIT seconds: b"" when nothing came,
    None once the child's side is closed."""
    r, _, _ = select.select([master], [], [], wait)
    if not r:
        return b""
    try:
        return os.read(master, 65536) or None
    except OSError:  # EIO: the child side closed
        return None


def main(argv):
    timeout = float(argv[1])
    master, slave = pty.openpty()
    p = subprocess.Popen(argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    err = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        exited = p.poll() is not None
        chunk = read_some(master, 0.2)
        if chunk is None:
            break
        err += chunk
        # The child may write its last line and exit between two looks:
        # only once it has exited and the terminal is empty is all read.
        if exited and not chunk:
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
