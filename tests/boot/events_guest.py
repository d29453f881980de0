# SPDX-License-Identifier: BSD-2-Clause
"""The guest's side of `tickprobe qemu --event`'s channel, played on the host
for tests/boot/test_events.sh and tests/bench/events.sh: tests/boot/events_qemu.sh
unplugs QEMU's COM2 socket and starts this on its path instead, so that the
host's side (QMP, the migration, the lines and their bounds) is tested with a
real QEMU whatever the probe itself says on COM2.

  events_guest.py SOCKET MODE LOG RECORD

MODE:
  first     wait for LOG to hold the watch_begin record, send three lines the
            host must ignore, then "watching N" (N: $EVENTS_WATCH_S, default
            6); answer each "event ID NAME" with "ready ID"; send "watch-end"
            once LOG holds the watch's last record
  now       the same, "watching N" at once when the host connects
  restored  a QEMU restored from a migration: no "watching", the rest as first
  silent    "watching N" at once; never answer; $EVENTS_HOLD_S (default 32)
            after the first event line, send "ready ID" (too late) and
            "watch-end", then end
Every line received is appended to RECORD as "MODE: LINE".  Bounded: it ends
after 300 s, or when the host closes the channel (QEMU then quits).
"""
import os
import socket
import sys
import time

BOUND_S = 300


def log_has(path, text):
    try:
        with open(path, "rb") as f:
            return text.encode() in f.read()
    except OSError:
        return False


def main():
    path, mode, log, record = sys.argv[1:5]
    watch_s = os.environ.get("EVENTS_WATCH_S", "6")
    hold_s = float(os.environ.get("EVENTS_HOLD_S", "32"))
    deadline = time.monotonic() + BOUND_S
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    srv.settimeout(1.0)
    conn = None
    while conn is None and time.monotonic() < deadline:
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            continue
    if conn is None:
        return
    conn.settimeout(0.1)
    said_watching = mode == "restored"
    said_end = False
    first_event = None
    buf = b""
    while time.monotonic() < deadline:
        if not said_watching and (mode != "first" or log_has(log, '"type":"watch_begin"')):
            if mode == "first":
                conn.sendall(b"hello guest\nready 9\nwatching 007\n")
            conn.sendall(b"watching %s\n" % watch_s.encode())
            said_watching = True
        if mode in ("first", "restored") and not said_end and log_has(log, '"type":"watch",'):
            conn.sendall(b"watch-end\n")
            said_end = True
        if mode == "silent" and first_event and time.monotonic() - first_event[0] > hold_s:
            conn.sendall(b"ready %s\nwatch-end\n" % first_event[1])
            return
        try:
            got = conn.recv(4096)
        except socket.timeout:
            continue
        if not got:
            return
        buf += got
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            with open(record, "ab") as f:
                f.write(mode.encode() + b": " + line + b"\n")
            words = line.split()
            if len(words) == 3 and words[0] == b"event":
                if mode == "silent":
                    first_event = first_event or (time.monotonic(), words[1])
                else:
                    conn.sendall(b"ready " + words[1] + b"\n")


main()
