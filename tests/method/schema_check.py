# SPDX-License-Identifier: BSD-2-Clause
"""Every record of a log against the schema (tests/lib/log_schema.json, made by
`make schema` from probe/log_schema.def): no member the schema lacks, none of
another JSON type, no null where the schema has none, and every member the
writer (the image, or tickprobe os when begin.boot is "linux") always writes.

  schema_check.py LOG... [--label TEXT]

Prints one PASS or FAIL line per log, FAIL naming the first few problems.
Reads only the record lines ({...}) of a capture whose crc holds; one whose
crc does not is a problem (tests/boot/checklog.py says more).  It holds logs of the
schema the list describes (2): a schema-1 log differs as docs/log-format.md,
"Schema 1", says, and fails here.
"""
import json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from tplog import ok, read  # noqa: E402
SCHEMA = json.load(open(os.path.join(HERE, "..", "lib", "log_schema.json")))
SHAPES = SCHEMA["shapes"]
ENVELOPE = set(SCHEMA["envelope"])

def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)

VALUE = {
    "U64": lambda v: is_int(v) and v >= 0,
    "I64": is_int,
    "BOOL": lambda v: isinstance(v, bool),
    "STR": lambda v: isinstance(v, str),
    "HEX32": lambda v: isinstance(v, str) and re.fullmatch(r"[0-9a-f]{8}", v) is not None,
    "HIST": lambda v: isinstance(v, (str, list)),
    "PAIR": lambda v: isinstance(v, list) and len(v) == 2 and all(is_int(x) and x >= 0 for x in v),
}

def value_ok(v, t):
    if t in VALUE:
        return VALUE[t](v)
    return (is_int(v) or isinstance(v, float)) and t.startswith("F")   # F0 .. F5

class Checker:
    def __init__(self, by):
        self.by, self.problems = by, []

    def bad(self, path, what):
        self.problems.append(f"{path}: {what}")

    def value(self, v, t, nullable, path):
        if v is None:
            if not nullable:
                self.bad(path, "null where the schema has no null")
        elif not value_ok(v, t):
            self.bad(path, f"{json.dumps(v)[:40]} is no {t}")

    def items(self, v, m, path):
        for i, x in enumerate(v):
            if m["kind"] == "list_of":
                if x is not None:
                    self.shape(x, m["shape"], f"{path}[{i}]")
            else:
                self.value(x, m["type"], True, f"{path}[{i}]")

    def columns(self, v, m, path):
        row = SHAPES[m["shape"]]
        if isinstance(v, list):                         # rows: schema 1
            for i, x in enumerate(v):
                self.shape(x, m["shape"], f"{path}[{i}]")
            return
        fields = {f["key"]: f for f in row["members"]}
        for key, col in v.items():
            if key not in fields:
                self.bad(f"{path}.{key}", "not in the schema")
            elif not isinstance(col, list):
                self.bad(f"{path}.{key}", "a column that is no list")
            else:
                for i, x in enumerate(col):
                    self.value(x, fields[key]["type"], True, f"{path}.{key}[{i}]")

    def member(self, obj, m, index, path):
        p = f"{path}.{m['key']}" if path else m["key"]
        if m["kind"] == "suffixed":
            for key, v in obj.items():
                if key.endswith(m["key"]) and len(key) > len(m["key"]):
                    if isinstance(v, list):
                        self.items(v, m, f"{path}.{key}")
                    elif v is not None:
                        self.bad(f"{path}.{key}", "a family member that is no list")
            return
        if m["kind"] == "item" and isinstance(obj, list):
            present, v = index < len(obj), obj[index] if index < len(obj) else None
            p = f"{path}[{index}]"
        else:
            present, v = m["key"] in obj, obj.get(m["key"])
        if not present:
            if m["how"] in ("W", "N") and m["by"] in ("all", self.by):
                self.bad(p, "missing")
            return
        nullable = m["how"] in ("N", "ON", "D")
        if v is None or m["kind"] in ("field", "item"):
            self.value(v, m["type"], nullable, p)
        elif m["kind"] == "object":
            self.shape(v, m["shape"], p)
        elif m["kind"] == "columns":
            self.columns(v, m, p) if isinstance(v, (dict, list)) else self.bad(p, "no columns")
        elif m["kind"] == "map":
            if not isinstance(v, dict):
                self.bad(p, "no object")
            else:
                for key, x in v.items():
                    self.value(x, m["type"], True, f"{p}.{key}")
        elif not isinstance(v, list):
            self.bad(p, "no list")
        else:
            self.items(v, m, p)

    def known(self, shape, key, record):
        if record and key in ENVELOPE:
            return True
        return any(key == m["key"] if m["kind"] != "suffixed" else
                   (key.endswith(m["key"]) and len(key) > len(m["key"])) for m in shape["members"])

    def shape(self, obj, name, path):
        s = SHAPES[name]
        if not isinstance(obj, list if s["kind"] == "tuple" else dict) and not (
                s["kind"] == "tuple" and isinstance(obj, dict)):
            self.bad(path, f"no {s['kind']} {name}")
            return
        for i, m in enumerate(s["members"]):
            self.member(obj, m, i, path)
        if isinstance(obj, dict):
            for key in obj:
                if not self.known(s, key, s["kind"] == "record"):
                    self.bad(f"{path}.{key}" if path else key, "not in the schema")

def check_log(path):
    """(records checked, [problems]) of one log."""
    by, n, problems = "image", 0, []
    log = read(path)
    if log.bad:
        problems.append(f"{log.bad} record lines whose crc does not hold or that are not records")
    for rec in log.records:
        t = rec.get("type")
        if t == "begin":
            by = "os" if rec.get("boot") == "linux" else "image"
        n += 1
        if t not in SCHEMA["records"]:
            problems.append(f"{t}: a record type the schema lacks")
            continue
        c = Checker(by)
        c.shape(rec, t, t)
        problems += [f"#{rec.get('seq')} {p}" for p in c.problems]
    return n, problems

def main(argv):
    label = ""
    if "--label" in argv:
        i = argv.index("--label")
        label = argv[i + 1] + ": "
        del argv[i:i + 2]
    for path in argv[1:]:
        n, problems = check_log(path)
        ok(n and not problems, f"{label}{os.path.basename(path)}: {n} records match the schema (tests/lib/log_schema.json)",
           f"{len(problems)} problems: " + "; ".join(problems[:5]))

if __name__ == "__main__":
    main(list(sys.argv))
