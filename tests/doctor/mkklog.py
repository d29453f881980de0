#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Kernel logs for the doctor's tests, from the corpus: mkklog.py CORPUS OUTDIR

CORPUS is tests/data/klog/: one NAME.klog per log, whose every log line
follows an "@source" line saying where it came from (a real log's address,
or the kernel source and version whose format string printed it, with the
values that are the scenario's), and whose "@root KEY VALUE" lines give the
fake sysfs/proc tree the scenario's kernel is left with (current, available,
cmdline, osrelease).  tests/data/klog/README.md describes the format.

Writes OUTDIR/NAME.log (the log lines only, as they are) and OUTDIR/NAME.root,
and for each name in KMSG also OUTDIR/NAME-kmsg.log: the same lines as
/dev/kmsg records ("6,SEQ,USEC,-;MESSAGE"), USEC from each line's own dmesg
timestamp.  Exits 1, naming the file and line, when a log line has no
source or a directive is malformed.
"""
import os
import re
import sys

ROOT_KEYS = ("current", "available", "cmdline", "osrelease")
KMSG = ("k510-propolis",)
SOURCE_RE = re.compile(r"^@source (url https://\S+|kernel [0-9a-f]{12,40} \S+|kernel \d+\.\d+(\.\d+)? \S+) \S")
DMESG_RE = re.compile(r"^\[\s*(\d+\.\d+)\] (.*)$")


def parse(path):
    """(log lines, root dict) of one corpus file; raises ValueError on a fault."""
    lines, root, sourced = [], {}, False
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("#") or not line:
                continue
            if line.startswith("@source"):
                if not SOURCE_RE.match(line):
                    raise ValueError("%s:%d: a source is 'url https://...' or 'kernel VERSION|COMMIT PATH', "
                                     "then what it is" % (path, n))
                sourced = True
            elif line.startswith("@root "):
                key, _, value = line[6:].partition(" ")
                if key not in ROOT_KEYS or not value:
                    raise ValueError("%s:%d: @root takes one of %s and a value" % (path, n, ", ".join(ROOT_KEYS)))
                root[key] = value
            elif line.startswith("@"):
                raise ValueError("%s:%d: unknown directive" % (path, n))
            elif not sourced:
                raise ValueError("%s:%d: a log line before any @source" % (path, n))
            else:
                lines.append(line)
    if not lines or "current" not in root or "available" not in root or "cmdline" not in root:
        raise ValueError("%s: no log lines, or no @root current, available and cmdline" % path)
    return lines, root


def kmsg(lines):
    out = []
    for seq, line in enumerate(lines):
        m = DMESG_RE.match(line)
        if not m:
            raise ValueError("no dmesg timestamp to make a /dev/kmsg record of: %r" % line)
        usec = int(m.group(1).replace(".", ""))
        out.append("6,%d,%d,-;%s" % (seq, usec, m.group(2)))
    return out


def tree(root, facts):
    cs = os.path.join(root, "sys/devices/system/clocksource/clocksource0")
    dmi = os.path.join(root, "sys/class/dmi/id")
    kern = os.path.join(root, "proc/sys/kernel")
    for d in (cs, dmi, kern):
        os.makedirs(d, exist_ok=True)
    files = [(cs + "/current_clocksource", facts["current"]), (cs + "/available_clocksource", facts["available"] + " "),
             (root + "/proc/cmdline", facts["cmdline"]), (dmi + "/sys_vendor", "Test Vendor"),
             (dmi + "/product_name", "Test Board"), (dmi + "/bios_version", "1.0")]
    if "osrelease" in facts:
        files.append((kern + "/osrelease", facts["osrelease"]))
    for path, text in files:
        with open(path, "w") as f:
            f.write(text + "\n")


def write(out, name, lines, facts):
    with open(os.path.join(out, name + ".log"), "w") as f:
        f.write("".join(line + "\n" for line in lines))
    tree(os.path.join(out, name + ".root"), facts)


def main():
    corpus, out = sys.argv[1:3]
    os.makedirs(out, exist_ok=True)
    names = sorted(n[:-5] for n in os.listdir(corpus) if n.endswith(".klog"))
    try:
        for name in names:
            lines, facts = parse(os.path.join(corpus, name + ".klog"))
            write(out, name, lines, facts)
            if name in KMSG:
                write(out, name + "-kmsg", kmsg(lines), facts)
    except ValueError as e:
        print("mkklog.py: %s" % e, file=sys.stderr)
        sys.exit(1)
    print(" ".join(names))


main()
