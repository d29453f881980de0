# SPDX-License-Identifier: BSD-2-Clause
"""Two logs of the same -icount boot compared record by record.

  same_records.py BEFORE.log AFTER.log [--allow PATH ...]

Under qemu -icount shift=0,sleep=off -kernel a boot is the same instruction
by instruction, so two builds' logs differ only where the code changed what
they write or how long something took.  Prints one PASS or FAIL line for:
the same records, in order, of the same types; the same members, of the
same JSON types, everywhere; and the same values.  A value that differs is
listed by record and member path (cost_cycles.p50, rounds.p50[3]); --allow
PATH lets values under that path differ (a timing that moved because code
before it changed), and they are still listed.  The crc, the end record's
crc32 and bytes follow from the rest and are not compared.
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok, read  # noqa: E402

def kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    return type(v).__name__

def walk(a, b, path, shape, values):
    """Appends shape differences to shape and value differences to values."""
    ka, kb = kind(a), kind(b)
    # A number written with decimals may read as an integer (1.0 vs 1): the
    # JSON type is "number" either way.
    if {ka, kb} <= {"integer", "number"} and ka != kb:
        ka = kb = "number"
    # null where the other has a value is a value difference, not a shape one.
    if ka != kb and "null" not in (ka, kb):
        shape.append(f"{path}: {ka} before, {kb} after")
        return
    if ka == "dict" and kb == "dict":
        if list(a) != list(b):
            shape.append(f"{path or '(record)'}: members {list(a)} before, {list(b)} after")
        for k in a:
            if k in b and k != "crc":
                walk(a[k], b[k], f"{path}.{k}" if path else k, shape, values)
    elif ka == "list" and kb == "list":
        if len(a) != len(b):
            values.append((path, f"{len(a)} items before, {len(b)} after"))
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f"{path}[{i}]", shape, values)
    elif a != b:
        values.append((path, f"{a!r} before, {b!r} after"))

def main(argv):
    allow = []
    args = list(argv[1:])
    while "--allow" in args:
        i = args.index("--allow")
        allow.append(args[i + 1])
        del args[i:i + 2]
    a, b = read(args[0]), read(args[1])
    before, after = a.records, b.records
    name = args[1]
    types_a, types_b = [r.get("type") for r in before], [r.get("type") for r in after]
    ok(types_a == types_b and types_a and not a.bad and not b.bad,
       f"{name}: the same {len(types_a)} records in order" +
       ("" if types_a == types_b else f" (before {types_a}, after {types_b})") +
       ("" if not a.bad and not b.bad else f" ({a.bad} and {b.bad} records with a bad crc left out)"))
    shape, values = [], []
    for ra, rb in zip(before, after):
        sa, va = [], []
        skip = {"end": ("crc32", "bytes")}.get(ra.get("type"), ())
        walk({k: v for k, v in ra.items() if k not in skip}, {k: v for k, v in rb.items() if k not in skip},
             "", sa, va)
        shape += [f"{ra.get('type')} #{ra.get('seq')}: {s}" for s in sa]
        values += [(ra.get("type"), p, d) for p, d in va]
    ok(not shape, f"{name}: the same members of the same JSON types", "; ".join(shape[:10]))
    moved = [(t, p, d) for t, p, d in values if not any(p == a or p.startswith(a + ".") or p.startswith(a + "[")
                                                        for a in allow)]
    for t, p, d in values:
        print(f"  {t}.{p}: {d}")
    ok(not moved, f"{name}: the same values" + (f" but {len(values)} allowed to move" if values and not moved else ""),
       f"{len(moved)} differ")

main(sys.argv)
