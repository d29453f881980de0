# SPDX-License-Identifier: BSD-2-Clause
"""What a command printed from a hostile log (tests/tools/evil_log.py): safe to show.

Run by the tests in tests/tools/ from the top of the tree.
Arguments: [--json] [--cr] WHAT FILE MARKS WHOLE
  FILE holds the command's output (stdout or stderr).  It must be UTF-8 with no
  raw C0 control but newline and tab (--cr: carriage return too, a progress
  line's), no DEL, no C1 control, no line or paragraph separator and no
  bidirectional control; the payload's start, ESC ] 0 ; PWNED BEL, must be
  there escaped at least MARKS times, and the whole payload, every part
  escaped as tools/lib/textsafe.h says and its "é" unchanged, at least WHOLE
  times.  --json: FILE is one JSON document (or one a line) that parses; the
  payload's start is written as JSON escapes at least MARKS times, and at
  least WHOLE of its strings read back as the exact payload.
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evil_log import SHOWN  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok  # noqa: E402

MARK_TEXT = "\\x1b]0;PWNED\\x07"
MARK_JSON = "\\u001b]0;PWNED\\u0007"
# The payload as a JSON reader gets it back: the raw 0x9b byte was written as
# \u009b, the log format's escape of a byte, which a JSON reader takes as U+009B.
DECODED = "\x1b]0;PWNED\x07\x1b[31m\u009b\u009b\u202e\n\x7f\u00e9"
BAD = set(range(0x20)) | {0x7f} | set(range(0x80, 0xa0)) | {0x2028, 0x2029} | set(range(0x202a, 0x202f)) | \
    set(range(0x2066, 0x206a))


def main():
    args = sys.argv[1:]
    as_json = "--json" in args
    allowed = {0x0a, 0x09} | ({0x0d} if "--cr" in args else set())
    what, path, marks, whole = [a for a in args if not a.startswith("--")]
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        ok(False, what + ": output is UTF-8", "%s, near %r" % (e.reason, data[max(0, e.start - 40):e.end + 40]))
        return
    bad = [(i, c) for i, c in enumerate(text) if ord(c) in BAD and ord(c) not in allowed]
    ok(not bad, what + ": no raw control character in %d bytes" % len(data),
       "U+%04X at %d, near %r" % (ord(bad[0][1]), bad[0][0], text[max(0, bad[0][0] - 60):bad[0][0] + 20])
       if bad else "")
    if as_json:
        json_checks(what, text, int(marks), int(whole))
        return
    n, w = text.count(MARK_TEXT), text.count(SHOWN)
    ok(n >= int(marks), what + ": the hostile text shown escaped (%d >= %s times)" % (n, marks),
       "the output starts %r" % text[:300])
    ok(w >= int(whole), what + ": the whole payload escaped as documented (%d >= %s times)" % (w, whole),
       "want %r" % SHOWN)


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)


def json_checks(what, text, marks, whole):
    """JSON keeps the exact characters, each control written as an escape."""
    try:
        docs = [json.loads(text)]  # a command's JSON output, not a log
    except ValueError:
        try:
            docs = [json.loads(l) for l in text.splitlines() if l.strip()]
        except ValueError as e:
            ok(False, what + ": valid JSON", str(e))
            return
    ok(bool(docs), what + ": valid JSON", "no output")
    n = text.count(MARK_JSON)
    w = sum(DECODED in s for d in docs for s in strings(d))
    ok(n >= marks, what + ": the hostile text written as JSON escapes (%d >= %d times)" % (n, marks),
       "the output starts %r" % text[:300])
    ok(w >= whole, what + ": the whole payload read back exactly (%d >= %d strings)" % (w, whole),
       "want %r" % DECODED)

if __name__ == "__main__":
    main()
