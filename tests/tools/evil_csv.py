# SPDX-License-Identifier: BSD-2-Clause
"""export --format csv of a hostile log (tests/tools/evil_log.py): no cell runs as a formula.

Run by tests/tools/test_show_compare.sh from the top of the tree.  Arguments: CSV LOG_CELL.
LOG_CELL is the log column's expected cell (the log was named "=evil.log").
  - every text cell (log, cpu_brand, hypervisor, counter, reason) that begins
    with = + - @, a tab or a carriage return in the log begins with "'" here,
    its control characters escaped, and no text cell begins with those;
  - the number cells are bare JSON numbers, the negative freq_ppm -3.200 among
    them, unquoted and not neutralised;
  - one line a row: no raw line break inside a cell.
"""
import csv, io, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evil_log import FORMULAS, SHOWN  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok  # noqa: E402

TEXT = ["log", "cpu_brand", "hypervisor", "counter", "reason"]
NUM = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$")


def main():
    raw = open(sys.argv[1], encoding="utf-8", errors="replace", newline="").read()
    rows = list(csv.DictReader(io.StringIO(raw, newline="")))
    lines = raw.split("\n")
    ok(len(rows) == 4 and len(lines) == 6 and lines[-1] == "",
       "CSV: 4 rows, one line each", "%d rows in %d lines" % (len(rows), len(lines)))
    cells = [r[c] for r in rows for c in TEXT]
    bad = [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    ok(not bad, "CSV: no text cell begins as a formula does", repr(bad[:3]))
    for f in FORMULAS:
        want = "'" + f.replace("\t", "\\x09").replace("\r", "\\x0d")
        hits = [c for c in cells if c.startswith(want) and c.endswith(SHOWN)]
        ok(hits, "CSV: %r neutralised and escaped" % f, "no cell begins %r; cells %r" % (want, cells[:12]))
    logs = {r["log"] for r in rows}
    ok(logs == {sys.argv[2]}, "CSV: the log's name %r as a cell" % sys.argv[2], repr(logs))
    nums = [c for r in rows for k, c in r.items() if k not in TEXT + ["healthy"] and c]
    ok(nums and all(NUM.match(c) for c in nums), "CSV: %d number cells, all bare numbers" % len(nums),
       repr([c for c in nums if not NUM.match(c)][:3]))
    hpet = [r for r in rows if r["counter"] == "hpet"]
    ok(hpet and hpet[0]["freq_ppm"] == "-3.200" and ",-3.200," in raw,
       "CSV: the negative freq_ppm -3.200 stays a number, unquoted", repr(hpet[:1]))


if __name__ == "__main__":
    main()
