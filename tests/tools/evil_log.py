# SPDX-License-Identifier: BSD-2-Clause
"""A hostile log, every CRC valid: what a machine nobody vouches for can send.

Run by the tests in tests/tools/ from the top of the tree.  Arguments: LOG OUT_LOG.
Any log will do (a fixture, a real boot, a multi-CPU one).  In OUT_LOG:
  - every string value ends in PAYLOAD: an xterm title and colour sequence
    (JSON escapes, which the reader decodes to ESC and BEL), a raw 0x9b (8-bit
    CSI), a raw U+009B, U+202E (right-to-left override), a newline, a raw DEL
    and a raw "é", which must pass unchanged; the names of the first two timers
    (the ones the verdicts and `compare` look up), "boot" and "clocksource"
    are left alone, so that every printer is reached;
  - the machine's brand and an ACPI problem carry HTML (the report's test);
  - the objects whose keys are printed (tsc.sources, plan.absent) gain a
    member whose key carries PAYLOAD;
  - text cells of `export --format csv` begin as spreadsheet formulas do: the
    hypervisor with "=", the third and fourth timers' names with "@" and "+",
    their reasons with "-" and a tab, the second timer's with a carriage return;
    and the second timer's freq.ppm is -3.200, a number that must stay one.
Records are re-serialised with their numbers exactly as written, then sealed:
each record's crc and the end record's crc32 (docs/log-format.md, "Integrity").
"""
import json, os, sys, zlib
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import sealed  # noqa: E402

# The payload as JSON text inside a string's quotes: escapes and raw bytes
# (the file is written as latin-1, so each character below is one byte).
PAYLOAD = r"\u001b]0;PWNED\u0007\u001b[31m" + "\x9b\xc2\x9b" + r"\u202e\n" + "\x7f\xc3\xa9"
# How the tools print it (tools/lib/textsafe.h), and how JSON output writes it.
SHOWN = "\\x1b]0;PWNED\\x07\\x1b[31m\\x9b\\u009b\\u202e\\x0a\\x7f\u00e9"
# The starts of text that a spreadsheet would run, as this log sets them
# (hypervisor; the third and fourth timers' names; the second, third and
# fourth timers' reasons).
FORMULAS = ["=1+1|cmd!A0", "@SUM(1+1)*cmd|' /C calc'!A0 ", "+cmd|' /C calc'!A0 ", "\r=1+1 ",
            "-2+3+cmd|' /C calc'!A0 ", "\t=1+1 "]
BRAND = '<script>alert("x")</script> & \'q\' <img src=x onerror=alert(1)>\x01 '
# Left alone: the record's frame, and the values the tools look up to pick
# what to print (an OS log by its boot, a kernel path by its clocksource).
SKIP = {"type", "crc", "crc32", "hist", "boot", "clocksource"}


class Raw(str):
    """A number, kept as the log wrote it."""


class Hostile:
    """A string value: an optional text start, the original, then PAYLOAD."""
    def __init__(self, start, text):
        self.start, self.text = start, text


def dump(v):
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, Hostile):
        return '"' + json.dumps(v.start + v.text)[1:-1] + PAYLOAD + '"'
    if isinstance(v, str):
        return json.dumps(v)
    if v is None or isinstance(v, bool):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ",".join(dump(x) for x in v) + "]"
    return "{" + ",".join(json.dumps(k) + ":" + dump(x) for k, x in v.items()) + "}"


def poison(v, key=None):
    if key in SKIP:
        return v
    if isinstance(v, str) and not isinstance(v, Raw):
        return Hostile("", v)
    if isinstance(v, list):
        return [poison(x) for x in v]
    if isinstance(v, dict):
        return {k: poison(x, k) for k, x in v.items()}
    return v


def hostile_record(rec, timers):
    t, orig = rec["type"], dict(rec)
    if t == "timer":
        timers.append(rec)
    rec = {k: (v if k in ("type", "seq") else poison(v, k)) for k, v in rec.items()}
    if t == "timer" and len(timers) <= 2 and "name" in orig:
        rec["name"] = orig["name"]
    if t == "machine":
        rec["cpu_brand"] = Hostile(BRAND, orig.get("cpu_brand") or "")
        rec["hypervisor"] = Hostile(FORMULAS[0], "")  # no blank: the verdicts quote it up to one
    if t == "acpi":
        rec["problems"] = [Hostile("<b>bold</b> \xff ", "")] + list(rec.get("problems") or [])
    if t == "tsc" and isinstance(rec.get("sources"), dict):
        rec["sources"]["\x1b]0;PWNED\x07 key"] = Raw("1")
    if t == "plan" and isinstance(rec.get("absent"), dict):
        rec["absent"]["\x1b]0;PWNED\x07 key"] = Hostile("absent ", "")
    if t == "timer":
        reason, name_start = {2: (FORMULAS[3], None), 3: (FORMULAS[4], FORMULAS[1]),
                              4: (FORMULAS[5], FORMULAS[2])}.get(len(timers), (None, None))
        if reason:
            rec["reason"] = Hostile(reason, "")
        if name_start:
            rec["name"] = Hostile(name_start, orig.get("name") or "")
        if len(timers) == 2 and isinstance(rec.get("freq"), dict):
            rec["freq"]["ppm"] = Raw("-3.200")
    return rec


def main():
    out, run, timers = [], 0, []
    for line in open(sys.argv[1], encoding="latin-1"):
        line = line.rstrip("\r\n")
        if not line.startswith("{"):
            out.append(line)
            continue
        body = line[:line.rindex(',"crc":"')] + "}"
        # Every record as written, numbers' text kept (Raw): the hostile copy is sealed anew.
        rec = json.loads(body, parse_float=Raw, parse_int=Raw)
        if rec["type"] == "begin":
            run, timers = 0, []
        rec = hostile_record(rec, timers)
        if rec["type"] == "end":
            rec["crc32"] = "%08x" % run
        text = dump(rec)[:-1]
        line = sealed(text.encode("latin-1")).decode("latin-1")
        if rec["type"] != "end":
            run = zlib.crc32((line + "\n").encode("latin-1"), run)
        out.append(line)
    open(sys.argv[2], "w", encoding="latin-1").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
