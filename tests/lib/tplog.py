# SPDX-License-Identifier: BSD-2-Clause
"""What the Python checkers under tests/ share: the records of a log, each
held to its crc, and the PASS/FAIL lines that tests/lib/check.sh counts.

A checker imports it by its path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    from tplog import ok, read  # noqa: E402

Records (docs/log-format.md, "Integrity"): a record is a line that begins
with `{` (after any leading blanks), or a `{"type":"` glued after other text
on its line (firmware text with no newline before it), as the C reader takes
it; its `crc` is the CRC-32 of the line's bytes from the `{` up to, not
including, the `,"crc":"` that introduces it, and the line ends with `"}`.
Other lines (console text) are skipped.  A record whose crc does not hold,
or that is not a JSON object with a "type", is no evidence of anything: the
reader leaves it out and counts it in `bad`.

    crc_check(line)      -> (good, why): one record line (bytes) held to its crc
    sealed(body)         -> the record line of a body (bytes, up to its crc member),
                            its crc member after it: what the log editors write
    clean_lines(data)    -> the lines of a capture (bytes), CR and ANSI escapes gone
    record_lines(src)    -> every record line of a log, crc unchecked, as bytes
    parse(line)          -> the record of one record line as a dict, or None when
                            its crc does not hold or it is no record
    read(src)            -> Log: the records whose crc holds, in order and by type,
                            and the count of those that did not
    ok(cond, msg, detail=None)
                         -> prints "PASS: msg" or "FAIL: msg[: detail]"; returns cond

`src` is a file's path or the bytes of a log; `clean=True` removes CR and
ANSI escapes from anywhere in a line first (a serial capture).
"""
import json
import re
import sys
import zlib

CRC_MEMBER = b',"crc":"'
GLUED = b'{"type":"'
# CSI (ESC [ ... final), OVMF's "ESC[=3h" included; charset selections
# (ESC ( B); and single-character escapes such as ESC c.
ANSI = re.compile(rb"\x1b\[[0-9;?=<>]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[@-Z\\-_]")


def ok(cond, msg, detail=None):
    """One check's line: "PASS: msg", or "FAIL: msg" with ": detail" after
    it when there is one.  Returns cond, so that a check can guard the next."""
    if cond:
        print("PASS: " + msg)
    elif detail is None or detail == "":
        print("FAIL: " + msg)
    else:
        print("FAIL: %s: %s" % (msg, detail))
    sys.stdout.flush()
    return cond


def crc_of(body):
    """The crc member's value for a record's body (bytes, up to its crc member)."""
    return "%08x" % (zlib.crc32(body) & 0xFFFFFFFF)


def sealed(body):
    """The record line of a body (bytes, up to its crc member): body, crc, "}"."""
    return body + CRC_MEMBER + crc_of(body).encode("ascii") + b'"}'


def crc_check(line):
    """(good, why) for one record line, bytes without its line end."""
    i = line.rfind(CRC_MEMBER)
    if i < 0 or not line.endswith(b'"}'):
        return False, "no crc member at the end"
    want = line[i + len(CRC_MEMBER):-2].decode("ascii", "replace")
    got = crc_of(line[:i])
    return want == got, f"crc {want}, computed {got}"


def crc_good(line):
    return crc_check(line)[0]


def clean_lines(data):
    """Capture bytes -> list of lines without CR and ANSI escapes."""
    return [ANSI.sub(b"", raw).rstrip(b"\r").replace(b"\r", b"") for raw in data.split(b"\n")]


def _data(src):
    if isinstance(src, (bytes, bytearray)):
        return bytes(src)
    with open(src, "rb") as f:
        return f.read()


def _lines(src, clean):
    data = _data(src)
    return clean_lines(data) if clean else [raw.rstrip(b"\r") for raw in data.split(b"\n")]


def record_of(line):
    """The record in one line (bytes, no line end), or None: the line from
    its `{`, or from a `{"type":"` glued after other text."""
    s = line.lstrip()
    if s.startswith(b"{"):
        return s
    k = s.find(GLUED)
    return s[k:] if k > 0 else None


def record_lines(src, clean=False):
    """Every record line of a log, crc unchecked, as bytes without the line end."""
    return [r for r in map(record_of, _lines(src, clean)) if r is not None]


class Log:
    """The records of one log whose crc holds.

    items     [(line, record)]: the line as bytes, the record as a dict, in order
    records   [record] in order
    lines     [line] in order
    by_type   {type: [record]} in order
    bad       how many record lines were left out: a bad crc, or not a record
    first(t)  the first record of type t, or None
    """

    def __init__(self, items, bad):
        self.items, self.bad = items, bad
        self.records = [r for _, r in items]
        self.lines = [l for l, _ in items]
        self.by_type = {}
        for r in self.records:
            self.by_type.setdefault(r["type"], []).append(r)

    def first(self, rtype, default=None):
        return self.by_type.get(rtype, [default])[0]

    def of(self, rtype):
        return self.by_type.get(rtype, [])


def parse(line):
    """The record of one record line (bytes, no line end) as a dict, or None
    when its crc does not hold or it is not a JSON object with a "type"."""
    if not crc_good(line):
        return None
    try:
        rec = json.loads(line.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(rec, dict) or not isinstance(rec.get("type"), str):
        return None
    return rec


def read(src, clean=False):
    """The Log of a path or of a log's bytes: every record whose crc holds."""
    items, bad = [], 0
    for line in record_lines(src, clean):
        rec = parse(line)
        if rec is None:
            bad += 1
            continue
        items.append((line, rec))
    return Log(items, bad)
