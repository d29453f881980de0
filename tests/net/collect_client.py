# SPDX-License-Identifier: BSD-2-Clause
"""Senders for tests/net/test_collect.sh and tests/bench/collect.sh: they
speak to a running `tickprobe collect` on loopback as the probe does (the
wire format: docs/collect.md) and check what it kept.

  collect_client.py SCENARIO READY-FILE DIR [ARGS...]

READY-FILE is the collector's --ready-file (http=ADDR:PORT syslog=ADDR:PORT),
DIR its --dir.  Each scenario prints PASS:/FAIL: lines (tests/lib/check.sh
counts them).  With TICKPROBE_TOKEN in the environment every sender gives
that token, but where a scenario gives its own or none on purpose.  The records are real logs' record lines (tests/data/logs/);
a sender's own copy is made distinct by a tag in the begin record's cmdline,
with every crc, and the end record's crc32, computed again.
"""
import http.client
import os
import random
import socket
import sys
import threading
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read, sealed  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LOGS = os.path.join(HERE, "..", "data", "logs", "schema1")
SOURCES = ("q35-uefi-default.log", "q35-bios-default.log")
CRC_TAIL = len(',"crc":"xxxxxxxx"}')
TOKEN = os.environ.get("TICKPROBE_TOKEN") or None
DEFAULT = object()  # a sender's token when none is given: TOKEN


def token_headers():
    return {"X-Tickprobe-Token": TOKEN} if TOKEN else {}


def ports(ready):
    """{'http': ('127.0.0.1', PORT), 'syslog': (...)} from the ready file."""
    out = {}
    for word in open(ready).read().split():
        key, addr = word.split("=", 1)
        host, port = addr.rsplit(":", 1)
        out[key] = (host, int(port))
    return out


def records(name):
    """The record lines of a real log: CR gone, each as bytes."""
    return read(os.path.join(LOGS, name)).lines


def retag(recs, tag, samples=0):
    """The log with `tag` in the begin record's cmdline and, before its end,
    `samples` more records as a verbose run writes them; every crc, and the
    end record's seq, records and crc32, made right."""
    bodies = [r[:-CRC_TAIL] for r in recs[:-1]]
    bodies[0] = bodies[0].replace(b'"cmdline":"preset=default',
                                  b'"cmdline":"preset=default sender=' + tag.encode(), 1)
    for k in range(samples):
        bodies.append(b'{"type":"samples","seq":%d,"name":"tsc","offset":%d,"values":[%d,%d,%d,%d]'
                      % (len(bodies), 4 * k, 20 + k % 7, 21, 20, 22 + k % 3))
    out = [sealed(b) for b in bodies]
    crc = 0
    for r in out:
        crc = zlib.crc32(r + b"\n", crc)
    end = recs[-1][:-CRC_TAIL]
    rest = end[end.index(b'"crc32":"') + len(b'"crc32":"') + 8:]
    out.append(sealed(b'{"type":"end","seq":%d,"records":%d,"crc32":"%08x' % (len(out), len(out), crc) + rest))
    return out


def expected(recs):
    return b"".join(r + b"\n" for r in recs)


def mac(i):
    return "52-54-00-%02x-%02x-%02x" % (i >> 16 & 255, i >> 8 & 255, i & 255)


def boot_of(machine, i):
    return "%s-%016x" % (machine, 0x1000 + i)


class Sender:
    """One probe over HTTP: its own keep-alive connection."""

    def __init__(self, addr, machine, boot, token=DEFAULT):
        token = TOKEN if token is DEFAULT else token
        self.conn = http.client.HTTPConnection(addr[0], addr[1], timeout=30)
        self.headers = {"X-Tickprobe-Machine": machine, "X-Tickprobe-Boot": boot,
                        "Content-Type": "application/json"}
        if token is not None:
            self.headers["X-Tickprobe-Token"] = token

    def post(self, body, extra=None):
        headers = dict(self.headers, **(extra or {}))
        self.conn.request("POST", "/log", body=body, headers=headers)
        r = self.conn.getresponse()
        r.read()
        return r.status

    def hello(self):
        return self.post(b"", {"X-Tickprobe-Hello": "1"})

    def close(self):
        self.conn.close()


class RawSender:
    """The same requests, written whole on a socket and the answer's status
    line read back: a tenth of http.client's cost, for the benchmark."""

    def __init__(self, addr, machine, boot, token=DEFAULT):
        token = TOKEN if token is DEFAULT else token
        self.sock = socket.create_connection(addr, timeout=30)
        self.head = ("POST /log HTTP/1.1\r\nHost: collector\r\nContent-Type: application/json\r\n"
                     "X-Tickprobe-Machine: %s\r\nX-Tickprobe-Boot: %s\r\n%s" %
                     (machine, boot, "X-Tickprobe-Token: %s\r\n" % token if token else "")).encode()
        self.rest = b""

    def post(self, body):
        self.sock.sendall(self.head + b"Content-Length: %d\r\n\r\n" % len(body) + body)
        while b"\r\n\r\n" not in self.rest:
            got = self.sock.recv(65536)
            if not got:
                raise OSError("the collector closed the connection")
            self.rest += got
        head, _, self.rest = self.rest.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        while len(self.rest) < length:
            self.rest += self.sock.recv(65536)
        self.rest = self.rest[length:]
        return int(head.split(b" ")[1])

    def close(self):
        self.sock.close()


def log_file(d, machine, n=0):
    return os.path.join(d, machine, "%04d.log" % n)


def same_file(name, path, recs):
    try:
        got = open(path, "rb").read()
    except OSError as e:
        return ok(False, name, str(e))
    return ok(got == expected(recs), name, "%s: %d bytes, %d expected" % (path, len(got), len(expected(recs))))


def syslog_datagram(machine, boot, pas, seq, rec, token=DEFAULT):
    token = TOKEN if token is DEFAULT else token
    sd = '[tickprobe@32473 seq="%d"%s]' % (seq, ' token="%s"' % token if token else "")
    return ("<134>1 - %s tickprobe %s %s %s " % (machine, boot, pas, sd)).encode() + rec


# ---- scenarios -------------------------------------------------------------


def one(p, d, args):
    """One sender, in order, after its hello."""
    machine = args[0]
    recs = records(SOURCES[0])
    s = Sender(p["http"], machine, boot_of(machine, 1))
    ok(s.hello() == 204, "hello answered 204")
    codes = [s.post(r) for r in recs]
    s.close()
    ok(codes == [204] * len(recs), "one sender: every record answered 204", str(codes))
    same_file("one sender: the file is the log's record lines, byte for byte", log_file(d, machine), recs)


def shuffled(p, d, args):
    """Out of order, duplicated, and several records in one body."""
    machine = args[0]
    recs = retag(records(SOURCES[1]), machine)
    rnd = random.Random(7)
    order = list(range(len(recs)))
    rnd.shuffle(order)
    order += rnd.sample(order, 6)
    s = Sender(p["http"], machine, boot_of(machine, 2))
    codes = [s.post(recs[i]) for i in order[:-6]]
    codes.append(s.post(b"\n".join(recs[i] for i in order[-6:])))  # the duplicates, in one body
    s.close()
    ok(set(codes) == {204}, "out of order and duplicated: every body answered 204", str(codes))
    same_file("out of order and duplicated: the file in seq order, once each", log_file(d, machine), recs)


def syslog_drop(p, d, args):
    """net_drop=20: the first pass loses every seq % 20 == 19, the second
    (`again`) sends the whole log.  The log is a real one with a verbose
    run's samples records, 60 in all, so that three are lost."""
    machine = args[0]
    recs = retag(records(SOURCES[0]), machine, 42)
    boot = boot_of(machine, 3)
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for seq, r in enumerate(recs):
        if seq % 20 != 19:
            u.sendto(syslog_datagram(machine, boot, "first", seq, r), p["syslog"])
            time.sleep(0.001)
    deadline = time.time() + 10
    partial = b""
    while time.time() < deadline and partial != expected(recs[:19]):
        time.sleep(0.1)
        partial = open(log_file(d, machine), "rb").read() if os.path.exists(log_file(d, machine)) else b""
    ok(partial == expected(recs[:19]),
       "syslog first pass, 1 in 20 lost: the file stops before the first lost record",
       "%d bytes, %d expected" % (len(partial), len(expected(recs[:19]))))
    for seq, r in enumerate(recs):
        u.sendto(syslog_datagram(machine, boot, "again", seq, r), p["syslog"])
        time.sleep(0.001)
    u.close()
    deadline = time.time() + 10
    while time.time() < deadline and open(log_file(d, machine), "rb").read() != expected(recs):
        time.sleep(0.1)
    same_file("syslog second pass: the lost records filled in, the log complete", log_file(d, machine), recs)


def many(p, d, args):
    """N senders at once, each its own machine and boot and log:
    many N [BASE [PACE [SAMPLES [raw]]]], PACE the mean seconds between a
    sender's records, SAMPLES records added to each log (a longer run),
    raw: RawSender's requests."""
    n = int(args[0])
    base = int(args[1]) if len(args) > 1 else 0x100
    pace = float(args[2]) if len(args) > 2 else 0  # seconds between one sender's records
    extra = int(args[3]) if len(args) > 3 else 0  # samples records added to each log
    kind = RawSender if len(args) > 4 and args[4] == "raw" else Sender
    srcs = [records(s) for s in SOURCES]
    logs = [retag(srcs[i % 2], mac(base + i), extra) for i in range(n)]
    bad = []
    start = threading.Barrier(n)

    def send(i):
        rnd = random.Random(i)
        machine = mac(base + i)
        order = list(range(len(logs[i])))
        if i % 3 == 0:
            rnd.shuffle(order)
        try:
            start.wait(30)
            s = kind(p["http"], machine, boot_of(machine, i))
            for k in order:
                time.sleep(pace * (0.5 + i / n) * rnd.random() * 2)  # the last 3 times as slow as the first
                code = s.post(logs[i][k])
                if code != 204:
                    bad.append("%s seq %d: %d" % (machine, k, code))
            s.close()
        except Exception as e:  # noqa: BLE001 (a sender's failure is a finding)
            bad.append("%s: %r" % (machine, e))

    threads = [threading.Thread(target=send, args=(i,)) for i in range(n)]
    t0 = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    spent = time.time() - t0
    total = sum(len(x) for x in logs)
    ok(not bad, "%d senders at once: every record answered 204" % n, "; ".join(bad[:5]))
    wrong = []
    for i in range(n):
        machine = mac(base + i)
        try:
            files = sorted(os.listdir(os.path.join(d, machine)))
            got = open(log_file(d, machine), "rb").read()
        except OSError as e:
            wrong.append(str(e))
            continue
        if files != ["0000.log"] or got != expected(logs[i]):
            wrong.append("%s: %s, %d bytes" % (machine, files, len(got)))
    ok(not wrong, "%d senders at once: each machine's one log is its own, byte for byte" % n, "; ".join(wrong[:5]))
    print("records: %d in %.2f s: %.0f records/s" % (total, spent, total / spent))


def garbage(p, d, args):
    """Non-JSON, bad CRC, a good CRC over non-JSON, no identity, not a POST."""
    machine = args[0]
    rec = records(SOURCES[0])[1]
    flipped = rec[:20] + (b"0" if rec[20:21] != b"0" else b"1") + rec[21:]
    s = Sender(p["http"], machine, boot_of(machine, 9))
    ok(s.post(b"hello, collector") == 400, "garbage: a body that is not JSON is 400")
    ok(s.post(flipped) == 400, "garbage: a record with a flipped byte (bad CRC) is 400")
    ok(s.post(sealed(b'{"seq":0,"type":"begin"')) == 400, "garbage: a good CRC over what is not a record is 400")
    ok(s.post(sealed(b'{"type":"begin","seq":0,[')) == 400, "garbage: a good CRC over broken JSON is 400")
    ok(s.post(b"") == 400, "garbage: no body is 400")
    s.close()
    c = http.client.HTTPConnection(*p["http"], timeout=10)
    c.request("POST", "/log", body=rec, headers=dict(token_headers(), **{"X-Tickprobe-Machine": "../../etc",
                                                                       "X-Tickprobe-Boot": "b"}))
    r = c.getresponse()
    r.read()
    ok(r.status == 400, "garbage: a machine name that is a path is 400", str(r.status))
    c.request("GET", "/log")
    r = c.getresponse()
    r.read()
    ok(r.status == 405, "garbage: a GET is 405", str(r.status))
    c.close()
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    boot = boot_of(machine, 9)
    for dgram in (b"not syslog at all", syslog_datagram(machine, boot, "first", 1, flipped),
                  syslog_datagram(machine, boot, "first", 2, rec),  # seq in the header is not the record's
                  syslog_datagram(machine, boot, "first", 1, rec).replace(b"tickprobe ", b"other ", 1)):
        u.sendto(dgram, p["syslog"])
    u.close()
    time.sleep(0.3)
    ok(not os.path.exists(os.path.join(d, machine)), "garbage: nothing of it stored",
       str(os.listdir(os.path.join(d, machine))) if os.path.exists(os.path.join(d, machine)) else "")


def vm(pid, key):
    for line in open("/proc/%d/status" % pid):
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return -1


def big(p, d, args):
    """A 100 MB body: refused at once by its length; streamed, never kept.
    PID 0: the collector's memory is not looked at (others send beside it)."""
    pid = int(args[0])
    before = vm(pid, "VmHWM") if pid else 0
    head = b"POST /log HTTP/1.1\r\nHost: x\r\nX-Tickprobe-Machine: m\r\nX-Tickprobe-Boot: m-1\r\n"
    head += b"".join(b"%s: %s\r\n" % (k.encode(), v.encode()) for k, v in token_headers().items())
    chunk = b"x" * 65536
    for mode in ("Content-Length", "chunked"):
        s = socket.create_connection(p["http"], timeout=30)
        if mode == "chunked":
            s.sendall(head + b"Transfer-Encoding: chunked\r\n\r\n")
        else:
            s.sendall(head + b"Content-Length: %d\r\n\r\n" % (100 << 20))
        sent = 0
        try:
            while sent < 100 << 20:
                s.sendall(b"10000\r\n" + chunk + b"\r\n" if mode == "chunked" else chunk)
                sent += len(chunk)
            if mode == "chunked":
                s.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # refused before the end: the collector stopped reading
        try:
            answer = s.recv(64)
        except OSError as e:
            answer = repr(e).encode()
        s.close()
        ok(answer.startswith(b"HTTP/1.1 413"), "a 100 MB body (%s) is answered 413" % mode, answer[:40])
        if mode == "Content-Length":
            ok(sent < 100 << 20, "a 100 MB body with its length is refused before it is read",
               "%d bytes were taken" % sent)
    if not pid:
        return
    after = vm(pid, "VmHWM")
    ok(0 < after - before + 1 and after - before < 8192,
       "the collector's peak memory grew under 8 MiB with the 100 MB bodies (VmHWM %d -> %d kB)" % (before, after),
       "%d kB" % (after - before))


def slow(p, d, args):
    """Senders at a byte a second are cut; a sender beside them gets through."""
    n, machine = int(args[0]), args[1]
    req = b"POST /log HTTP/1.1\r\nHost: x\r\nX-Tickprobe-Machine: m\r\nX-Tickprobe-Boot: m-2\r\nContent-Length: 300\r\n\r\n"
    closed = []

    def trickle(i):
        s = socket.create_connection(p["http"], timeout=60)
        t0 = time.time()
        try:
            for k in range(len(req) + 300):
                s.sendall(req[k:k + 1] if k < len(req) else b"x")
                s.settimeout(1)
                try:
                    if s.recv(100) == b"":
                        break
                except socket.timeout:
                    pass
        except OSError:
            pass
        closed.append(time.time() - t0)
        s.close()

    threads = [threading.Thread(target=trickle, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    time.sleep(2)
    recs = retag(records(SOURCES[0]), machine)
    s = Sender(p["http"], machine, boot_of(machine, 4))
    t0 = time.time()
    codes = [s.post(r) for r in recs]
    s.close()
    ok(codes == [204] * len(recs) and time.time() - t0 < 10, "beside %d slow senders another gets through" % n,
       "%s in %.1f s" % (codes, time.time() - t0))
    same_file("beside the slow senders: that log is whole", log_file(d, machine), recs)
    for t in threads:
        t.join()
    ok(len(closed) == n and max(closed) < 40,
       "the %d senders at a byte a second were cut (after %s s)" % (n, ", ".join("%.0f" % x for x in sorted(closed))),
       str(closed))


def token(p, d, args):
    """A collector with --token: wrong or missing is 403, stored nothing."""
    tok, machine = args[0], args[1]
    recs = retag(records(SOURCES[0]), machine)
    boot = boot_of(machine, 5)
    for given, what in ((None, "missing"), (tok + "x", "wrong")):
        s = Sender(p["http"], machine, boot, given)
        ok(s.hello() == 403, "token %s: the hello is 403" % what)
        codes = {s.post(r) for r in recs}
        s.close()
        ok(codes == {403}, "token %s: every record is 403" % what, str(codes))
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for seq, r in enumerate(recs):
        u.sendto(syslog_datagram(machine, boot, "first", seq, r, tok + "x"), p["syslog"])
    u.close()
    time.sleep(0.3)
    ok(not os.path.exists(os.path.join(d, machine)), "token wrong or missing: nothing stored")
    s = Sender(p["http"], machine, boot, tok)
    codes = {s.post(r) for r in recs}
    s.close()
    ok(codes == {204}, "token right: stored", str(codes))
    same_file("token right: the log is whole", log_file(d, machine), recs)


def part(p, d, args):
    """The first K records of a log, then nothing (a boot cut short); with
    the token if one is given."""
    machine, k = args[0], int(args[1])
    recs = retag(records(SOURCES[1]), machine)
    s = Sender(p["http"], machine, boot_of(machine, 6), args[2] if len(args) > 2 else DEFAULT)
    codes = {s.post(r) for r in recs[:k]}
    s.close()
    ok(codes == {204}, "a boot cut short after %d records: taken" % k, str(codes))
    same_file("a boot cut short: its file holds what arrived", log_file(d, machine), recs[:k])


def prefixes(p, d, args):
    """After a stop in the middle of `many N BASE`: each file is a whole-record
    prefix of its sender's log; prints how many are complete."""
    n, base = int(args[0]), int(args[1])
    srcs = [records(s) for s in SOURCES]
    wrong, complete, present = [], 0, 0
    for i in range(n):
        machine = mac(base + i)
        path = log_file(d, machine)
        if not os.path.exists(path):
            continue
        present += 1
        log = retag(srcs[i % 2], machine)
        got = open(path, "rb").read()
        whole = [expected(log[:k]) for k in range(len(log) + 1)]
        if got not in whole:
            wrong.append("%s: %d bytes, not a prefix of whole records" % (machine, len(got)))
        complete += got == whole[-1]
    ok(not wrong,
       "stopped in the middle: each of the %d files holds whole records of its own log, in order" % present,
       "; ".join(wrong[:5]))
    print("complete=%d" % complete)


def crash(p, d, args):
    """A hello whose body is a record, with no machine or boot header: once
    it reached the per-boot table with NULL names and killed the collector."""
    rec = records(SOURCES[0])[0]
    c = http.client.HTTPConnection(*p["http"], timeout=10)
    c.request("POST", "/log", body=rec, headers=dict(token_headers(), **{"X-Tickprobe-Hello": "1"}))
    r = c.getresponse()
    r.read()
    c.close()
    ok(r.status == 400, "a hello with a record and no machine or boot is 400", str(r.status))
    c = http.client.HTTPConnection(*p["http"], timeout=10)
    c.request("POST", "/log", body=b"", headers=dict(token_headers(), **{"X-Tickprobe-Hello": "1"}))
    r = c.getresponse()
    r.read()
    c.close()
    ok(r.status == 400, "a bare hello with no machine or boot is 400", str(r.status))


def flood(p, d, args):
    """N forged syslog datagrams, each a new boot from its own address
    (127.x.y.z: every one is loopback's), then a probe's hello and log over
    HTTP: it is taken at once."""
    n, machine = int(args[0]), args[1]
    rec = records(SOURCES[0])[1]
    sent = 0
    for i in range(n):
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.bind(("127.%d.%d.%d" % (1 + (i >> 16 & 127), i >> 8 & 255, 1 + (i & 127)), 0))
        boot = "forged-%d" % i
        u.sendto(syslog_datagram("forged-%d" % i, boot, "first", 1, rec), p["syslog"])
        u.close()
        sent += 1
    time.sleep(0.5)  # the collector's thread takes what the socket holds
    recs = retag(records(SOURCES[0]), machine)
    s = Sender(p["http"], machine, boot_of(machine, 8))
    code = s.hello()
    codes = [s.post(r) for r in recs]
    s.close()
    ok(code == 204, "after %d forged datagrams a hello is 204" % sent, str(code))
    ok(codes == [204] * len(recs), "after the flood every record of the probe's log is 204", str(codes))
    same_file("after the flood: the probe's log is whole", log_file(d, machine), recs)


def biglog(p, d, args):
    """One log of about MB megabytes (a verbose run's samples records), sent
    in bodies of 64 records: complete and imported, and the collector's peak
    memory stays under LIMIT MiB whatever the log's length."""
    pid, mb, limit, machine = int(args[0]), int(args[1]), int(args[2]), args[3]
    base = records(SOURCES[0])
    per = len(retag(base, machine, 1)[-2]) + 1  # what one samples record takes
    recs = retag(base, machine, mb * 1000000 // per)
    before = vm(pid, "VmHWM")
    s = Sender(p["http"], machine, boot_of(machine, 10))
    codes = set()
    for k in range(0, len(recs), 64):
        codes.add(s.post(b"\n".join(recs[k:k + 64])))
    s.close()
    size = len(expected(recs))
    ok(codes == {204}, "a %.1f MB log: every body answered 204" % (size / 1e6), str(codes))
    deadline = time.time() + 60
    while time.time() < deadline and vm(pid, "VmHWM") >= 0:
        out = open(args[4]).read() if len(args) > 4 else ""
        if "%s 0000.log: complete" % machine in out:
            break
        time.sleep(0.2)
    after = vm(pid, "VmHWM")
    print("INFO: a %.1f MB log: the collector's peak memory (VmHWM) %d kB before, %d kB after" % (size / 1e6, before, after))
    ok(0 < after < limit * 1024,
       "a %.1f MB log: the collector's peak memory stays under %d MiB (VmHWM %d kB)" % (size / 1e6, limit, after),
       "%d kB" % after)
    same_file("a %.1f MB log: the file is the log, byte for byte" % (size / 1e6), log_file(d, machine), recs)


def cut(p, d, args):
    """A log longer than --max-log-bytes, PER records a body (default 1):
    the body with the record that would cross it and every later one are
    413, and the file stops at the limit on a whole record: the longest run
    of the log's first records that fits."""
    limit, machine = int(args[0]), args[1]
    per = int(args[2]) if len(args) > 2 else 1
    base = records(SOURCES[0])
    recs = retag(base, machine, 2 * limit // len(retag(base, machine, 1)[-2]))  # twice the limit
    s = Sender(p["http"], machine, boot_of(machine, 11))
    codes = [s.post(b"\n".join(recs[k:k + per])) for k in range(0, len(recs), per)]
    s.close()
    first = codes.index(413) if 413 in codes else -1
    ok(first > 0 and set(codes[:first]) == {204} and set(codes[first:]) == {413},
       "a log past --max-log-bytes %d: the bodies from the one that would cross it are 413" % limit,
       str(sorted(set(codes))))
    fits, size = 0, 0
    while fits < len(recs) and size + len(recs[fits]) + 1 <= limit:
        size += len(recs[fits]) + 1
        fits += 1
    same_file("a log past the limit: the file holds the %d records that fit" % fits, log_file(d, machine),
              recs[:fits])


def link(p, d, args):
    """A machine's folder that someone swapped for a link to elsewhere: its
    boot is refused (503), the files where it points untouched."""
    machine, victim = args[0], args[1]
    os.makedirs(victim, exist_ok=True)
    target = os.path.join(victim, "0000.log")
    with open(target, "w") as f:
        f.write("secret\n")
    os.chmod(target, 0o600)
    os.symlink(victim, os.path.join(d, machine))
    recs = retag(records(SOURCES[0]), machine)
    s = Sender(p["http"], machine, boot_of(machine, 12))
    codes = [s.post(recs[0]), s.post(recs[0])]  # record 0 makes the log; the sender tries again
    s.close()
    ok(codes == [503, 503], "a machine folder that is a link: its record 0 is 503, each time", str(codes))
    ok(open(target).read() == "secret\n" and os.listdir(victim) == ["0000.log"],
       "a machine folder that is a link: not followed, the file it points at untouched", str(os.listdir(victim)))


def expect(p, d, args):
    """The logs a sender wrote as it expects them stored (collect_send
    --expect EXPECT: EXPECT/MACHINE.log): each is DIR/MACHINE/0000.log byte
    for byte, and the collector's output (OUT) says it is complete and
    imported."""
    where, out = args[0], args[1]
    done = set()
    for line in open(out):
        words = line.split(" ")
        if len(words) > 3 and words[1] == "0000.log:" and words[2] == "complete," and \
                line.rstrip("\n").endswith(" records, imported"):
            done.add(words[0])
    wrong = []
    names = sorted(n[:-4] for n in os.listdir(where) if n.endswith(".log"))
    for m in names:
        try:
            same = open(os.path.join(where, m + ".log"), "rb").read() == open(log_file(d, m), "rb").read()
        except OSError as e:
            same = False
            wrong.append("%s: %s" % (m, e))
        if not same or m not in done:
            wrong.append("%s: %s" % (m, "not complete and imported" if same else "not the log sent"))
    ok(names and not wrong, "the %d logs sent: each whole, complete and imported" % len(names), "; ".join(wrong[:5]))


SCENARIOS = {"one": one, "shuffled": shuffled, "syslog": syslog_drop, "many": many, "garbage": garbage,
             "big": big, "slow": slow, "token": token, "part": part,
             "prefixes": prefixes, "crash": crash, "flood": flood, "biglog": biglog, "cut": cut, "link": link,
             "expect": expect}

if __name__ == "__main__":
    SCENARIOS[sys.argv[1]](ports(sys.argv[2]), sys.argv[3], sys.argv[4:])
