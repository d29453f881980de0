# SPDX-License-Identifier: BSD-2-Clause
"""A small collector for the probe-side tests of the UEFI network console.

It speaks the probe's half of the contract (docs/netboot.md, "What a UEFI
machine sends"): the HTTP hello and record POSTs, and RFC 5424 syslog datagrams.
It listens on 127.0.0.1 only (the guest reaches it as 10.0.2.2) and writes,
into --out:

  http.log       every record body received over HTTP, one per line, in order
  syslog.log     the contiguous prefix of syslog records by seq, one per line
  passes.txt     "first N" / "again N": datagrams received per pass
  hellos.txt     one line per hello: the answer given and the headers
  last.txt       time.time() when the last record arrived
  ready.txt      "http=PORT syslog=PORT" once both listen

--token T: a hello or record without X-Tickprobe-Token T gets 403.
--fail-after N: once N records are stored, every record gets 503 (a collector
that breaks down part-way).
"""
import argparse
import http.server
import os
import re
import socket
import sys
import threading
import time

SYSLOG_RE = re.compile(rb'^<134>1 - (\S+) tickprobe (\S+) (first|again) \[tickprobe@32473 seq="(\d+)"'
                       rb'(?: token="([^"]*)")?\] (.*)$', re.S)


class State:
    def __init__(self, out, token, fail_after):
        self.out, self.token, self.fail_after = out, token, fail_after
        self.stored = 0
        self.lock = threading.Lock()
        self.by_seq = {}
        self.passes = {"first": 0, "again": 0}

    def stamp(self):
        with open(os.path.join(self.out, "last.txt"), "w") as f:
            f.write("%.3f\n" % time.time())

    def append(self, name, line):
        with open(os.path.join(self.out, name), "ab") as f:
            f.write(line + b"\n")


def handler_for(state):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, code):
            self.send_response(code)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_POST(self):
            n = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(n) if n else b""
            ok = not state.token or self.headers.get("X-Tickprobe-Token") == state.token
            code = 204 if ok else 403
            with state.lock:
                if self.headers.get("X-Tickprobe-Hello") == "1":
                    state.append("hellos.txt", ("%d %s machine=%s boot=%s" % (
                        code, self.path, self.headers.get("X-Tickprobe-Machine"),
                        self.headers.get("X-Tickprobe-Boot"))).encode())
                elif ok and 0 <= state.fail_after <= state.stored:
                    code = 503
                elif ok:
                    for line in body.split(b"\n"):
                        if line:
                            state.append("http.log", line)
                            state.stored += 1
                    state.stamp()
            self.answer(code)

    return Handler


def syslog_loop(sock, state):
    while True:
        data, _ = sock.recvfrom(70000)
        m = SYSLOG_RE.match(data)
        if not m:
            continue
        token = (m.group(5) or b"").decode()
        if state.token and token != state.token:
            continue
        seq, record = int(m.group(4)), m.group(6)
        with state.lock:
            state.passes[m.group(3).decode()] += 1
            state.by_seq.setdefault(seq, record)
            prefix = []
            while len(prefix) in state.by_seq:
                prefix.append(state.by_seq[len(prefix)])
            with open(os.path.join(state.out, "syslog.log"), "wb") as f:
                f.write(b"".join(r + b"\n" for r in prefix))
            with open(os.path.join(state.out, "passes.txt"), "w") as f:
                f.write("first %d\nagain %d\n" % (state.passes["first"], state.passes["again"]))
            state.stamp()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--token", default="")
    ap.add_argument("--fail-after", type=int, default=-1)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    state = State(args.out, args.token, args.fail_after)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler_for(state))
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    threading.Thread(target=syslog_loop, args=(udp, state), daemon=True).start()
    with open(os.path.join(args.out, "ready.txt.tmp"), "w") as f:
        f.write("http=%d syslog=%d\n" % (httpd.server_address[1], udp.getsockname()[1]))
    os.rename(os.path.join(args.out, "ready.txt.tmp"), os.path.join(args.out, "ready.txt"))
    sys.stdout.flush()
    httpd.serve_forever()


if __name__ == "__main__":
    main()
