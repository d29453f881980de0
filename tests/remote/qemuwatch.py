#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Runs one QEMU command and watches how it ends, for tests/remote/test_*.sh:

    qemuwatch.py [--type PATTERN TEXT | --key PATTERN QCODE] TIMEOUT SERIAL_OUT -- QEMU ARGS...

QEMU gets its QMP monitor on a Unix socket in a temporary directory (QEMU
waits for it before it starts the guest).  The serial bytes go to
SERIAL_OUT; with --type or --key the serial line is a pair of FIFOs too, and
TEXT is typed on it once PATTERN has shown in it (a person at a serial
console pressing a key), or with --key QMP's send-key presses QCODE ("x") on
the machine's keyboard then.  FIFOs, not a socket: QEMU's 16550 drops a byte
the chardev refuses four times in a row, and a Unix socket charges each
one-byte write far more than a byte of its send buffer.  With this reader
stopped for 3 s a socket kept 280 bytes of a 4,351-byte log; a FIFO holds
64 KiB of bytes, so a reader descheduled on a busy host loses none.
The QMP events that end a machine are printed, one a line:

    event SHUTDOWN guest-shutdown      (ACPI S5, ResetSystem(EfiResetShutdown))
    event SHUTDOWN guest-reset         (a reset, under -no-reboot)
    event RESET guest-reset            (a reset QEMU carries out: a series' reboot)

then "exit N" with QEMU's status, or "timeout" (QEMU killed) after TIMEOUT s.
Exit status: 0 when QEMU ended by itself, 1 on timeout or a setup error.
"""
import json
import os
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time


def connect(path, deadline, proc):
    while time.time() < deadline:
        if proc.poll() is not None:
            return None
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            s.close()
            time.sleep(0.05)
    return None


def qmp_lines(buf):
    while b"\n" in buf:
        line, buf = buf.split(b"\n", 1)
        try:
            yield json.loads(line), None  # QMP's messages, not a log's records
        except ValueError:
            pass
    yield None, buf


def main():
    args = sys.argv[1:]
    typing, key = None, None
    if args[:1] == ["--type"]:
        typing = (args[1].encode(), args[2].encode())
        args = args[3:]
    elif args[:1] == ["--key"]:
        typing = (args[1].encode(), b"")
        key = args[2]
        args = args[3:]
    timeout, out_path = float(args[0]), args[1]
    qemu = args[3:] if args[2] == "--" else args[2:]
    with tempfile.TemporaryDirectory() as tmp:
        qsock, fifo = os.path.join(tmp, "qmp"), os.path.join(tmp, "serial")
        # Without typing, QEMU writes the serial file itself (no reader).
        # The serial chardev first: QEMU opens both FIFOs read-write while it
        # makes it, before it waits for QMP's connection.
        cmd = list(qemu)
        if typing:
            os.mkfifo(fifo + ".in")
            os.mkfifo(fifo + ".out")
            cmd += ["-chardev", f"pipe,id=ser0,path={fifo}", "-serial", "chardev:ser0"]
        else:
            cmd += ["-serial", f"file:{out_path}"]
        cmd += ["-qmp", f"unix:{qsock},server=on,wait=on"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + timeout
        q = connect(qsock, deadline, proc)
        if not q:
            proc.kill()
            print("setup: QEMU did not open its QMP socket: " + proc.stderr.read().decode(errors="replace")[-300:])
            return 1
        # So these opens do not wait; the guest has not run yet.
        s_in = os.open(fifo + ".out", os.O_RDONLY | os.O_NONBLOCK) if typing else None
        s_out = os.open(fifo + ".in", os.O_WRONLY) if typing else None
        q.sendall(b'{"execute":"qmp_capabilities"}\n')
        q.setblocking(False)
        seen = {"serial": b"", "typed": False}
        out = open(out_path, "wb") if typing else None

        # The serial line's reader.  QEMU holds the FIFO open for writing
        # too, so it never reads as ended: the reader stops once QEMU has
        # ended and nothing is left.
        def reader():
            while True:
                ready, _, _ = select.select([s_in], [], [], 0.05)
                data = os.read(s_in, 65536) if ready else b""
                if not data:
                    if proc.poll() is not None:
                        return
                    continue
                out.write(data)
                out.flush()
                seen["serial"] += data
                if typing and not seen["typed"] and typing[0] in seen["serial"]:
                    seen["typed"] = True
                    if key:
                        q.sendall(json.dumps({"execute": "send-key", "arguments": {
                            "keys": [{"type": "qcode", "data": key}]}}).encode() + b"\n")
                        print("pressed " + key, flush=True)
                    else:
                        os.write(s_out, typing[1])
                        print("typed " + typing[1].decode(errors="replace").strip(), flush=True)
        t = threading.Thread(target=reader, daemon=True)
        if typing:
            t.start()
        qbuf = b""
        if True:
            last = False
            while not last:
                # One more pass once QEMU has ended: what it wrote last.
                last = proc.poll() is not None or time.time() >= deadline
                time.sleep(0.02)
                while True:
                    try:
                        data = q.recv(65536)
                    except OSError:
                        break
                    if not data:
                        break
                    qbuf += data
                for msg, rest in qmp_lines(qbuf):
                    if msg is None:
                        qbuf = rest
                    elif msg.get("event") in ("SHUTDOWN", "RESET", "POWERDOWN"):
                        reason = msg.get("data", {}).get("reason", "?")
                        print(f"event {msg['event']} {reason}", flush=True)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if typing:
            t.join(5)
            out.close()
            os.close(s_in)
            os.close(s_out)
        if proc.returncode < 0:
            print("timeout")
            return 1
        print(f"exit {proc.returncode}")
        return 0


if __name__ == "__main__":
    sys.exit(main())
