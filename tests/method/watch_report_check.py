# SPDX-License-Identifier: BSD-2-Clause
"""Checks the watch's plots in a `tickprobe report` page (tools/report/watch.c)
against what the boot was told to fake.

  watch_report_check.py PAGE drift CLOCK     the clock's line far on its side
                                             of zero, the others near it
  watch_report_check.py PAGE step CPU        CPU's offset line at zero, then
                                             below it from about half-way on
"""
import os
import re
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok  # noqa: E402


def svg(page, cls):
    m = re.search(r'<svg class="%s".*?</svg>' % cls, page, re.S)
    return m.group(0) if m else ""


def zero_y(s):
    m = re.search(r'<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="[\d.]+" stroke="#555"/>', s)
    return float(m.group(1)) if m else None


def lines(s):
    """{name: [(x, y)...]} of every plotted line."""
    out = {}
    for name, d in re.findall(r'<path class="line" data-name="([^"]*)"[^>]* d="([^"]*)"', s):
        out[name] = [(float(x), float(y)) for x, y in re.findall(r"[ML]([\d.]+) ([\d.]+)", d)]
    return out


def drift(page, clock):
    s = svg(page, "watch-rates")
    z = zero_y(s)
    ls = lines(s)
    if not ok(z is not None and clock in ls and len(ls) >= 3,
              "the rates plot has a zero line and %d lines, %s among them" % (len(ls), clock)):
        return
    far = min(abs(y - z) for _, y in ls[clock])
    near = max(abs(y - z) for n, pts in ls.items() if n not in (clock, "tsc") for _, y in pts)
    ok(far > 4 * near and "symmetric log" in s,
       "%s's line stays %.0f px or more from zero, the other counters within %.0f px: a symmetric log axis"
       % (clock, far, near))


def step(page, cpu):
    s = svg(page, "watch-offsets")
    z = zero_y(s)
    pts = lines(s).get("CPU %s" % cpu, [])
    if not ok(z is not None and len(pts) >= 4, "the offsets plot has CPU %s's line (%d points)" % (cpu, len(pts))):
        return
    below = [i for i, (_, y) in enumerate(pts) if y - z > 20]
    first = below[0] if below else len(pts)
    ok(below and below == list(range(first, len(pts))) and all(abs(y - z) < 2 for _, y in pts[:first]),
       "CPU %s's offset sits at zero, then below it from point %d of %d on, and stays" % (cpu, first + 1, len(pts)))
    ok(0.3 < first / len(pts) < 0.8, "... the step comes about half-way (point %d of %d)" % (first + 1, len(pts)))


def main(argv):
    page = open(argv[1], encoding="utf-8").read()
    {"drift": drift, "step": step}[argv[2]](page, argv[3])


if __name__ == "__main__":
    main(sys.argv)
