# SPDX-License-Identifier: BSD-2-Clause
"""The tree's shape, checked: what a newcomer relies on when reading it.

  shape.py paths ROOT       every repository path a comment names exists
  shape.py functions ROOT   no C function is over MAX_LINES lines
  shape.py includes ROOT    no circle of #includes between folders, and
                            includes go one way on the host side: a
                            command (tools/A/) includes tools/lib/, never
                            another command's files (tools/B/), and
                            tools/lib/ includes no command's
  shape.py subjects ROOT BASE
                            every commit subject after BASE is at most 72
                            characters
  shape.py helpers ROOT     every tests/*/test_*.sh sources tests/lib/check.sh
                            before any command of its own, and only
                            tests/lib/boot.sh defines boot() or now_ms()
  shape.py conditions ROOT  every check() of tests/unit/ that joins conditions
                            with && has each in COND(), so that its failure
                            names the false one
  shape.py casts ROOT       no statement of a C file starts with a (void) cast
                            followed by a comma: `(void)ctx, x = 1;` is two
                            statements on one line, and the compiler's
                            -Wcomma (lint-c, lint-comma) takes the cast as
                            the comma being meant
  shape.py all ROOT         each of the above (subjects after SUBJECT_BASE,
                            when ROOT's history has it), then one line,
                            "lint: shape: N finding(s)": `make lint`'s step

Each prints one line per finding and exits 1 when it found any, 0 when it
found none, 2 when it could not look.  tests/lint/test_shape.sh runs each on
a planted tree, so that a check that has stopped seeing is caught.
"""
import fnmatch
import os
import re
import subprocess
import sys

MAX_LINES = 100
SUBJECT_MAX = 72
# The last commit before subjects were held to SUBJECT_MAX characters.
SUBJECT_BASE = "9bc8fb6"
# Folders whose paths a comment may name; a path under any other first
# component (build/, /usr/…, a URL) is not the tree's to check.
TREE_DIRS = ("acpi", "arch", "boot", "debian", "docs", "drivers", "image",
             "lib", "platform", "probe", "tests", "tools")
# Names that are made, not kept: debhelper's staging directory and the
# package's installed paths that debian/ speaks of.
MADE = ("debian/tickprobe/", "debian/.debhelper", "debian/files", "arch/x86/kernel/",
        "debian/tmp", "debian/tickprobe.substvars")
ALLOW_LONG = "tests/lint/long_functions.txt"

C_EXT = (".c", ".h", ".S")
HASH_EXT = (".sh", ".py", ".mk", ".cfg")


def tracked(root, scan=True):
    """The files git tracks (and untracked, unignored ones); every file
    outside a checkout.  scan: only those whose text is the tree's own (not
    test data, fuzz corpora or build output)."""
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-co", "--exclude-standard"],
            capture_output=True, text=True, check=True).stdout
        names = [n for n in out.split("\n") if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
        for d, _, fs in os.walk(root):
            for f in fs:
                names.append(os.path.relpath(os.path.join(d, f), root))
    skip = ("build/", "tests/data/", "tests/fuzz/corpus/") if scan else ("build/",)
    return sorted(n for n in names
                  if not n.startswith(skip) and os.path.isfile(os.path.join(root, n)))


def comments(name, text):
    """(line number, comment text) for each comment line of a source file."""
    if name.endswith(C_EXT):
        for m in re.finditer(r"/\*.*?\*/|//[^\n]*", text, re.S):
            line = text.count("\n", 0, m.start()) + 1
            for k, part in enumerate(m.group(0).split("\n")):
                yield line + k, part
    elif name.endswith(HASH_EXT) or os.path.basename(name) in ("Makefile", "rules"):
        for k, part in enumerate(text.split("\n")):
            i = hash_comment(part)
            if i >= 0:
                yield k + 1, part[i:]


def hash_comment(line):
    """Where a shell, Python or make comment starts on a line, or -1: a #
    at the start or after a blank, outside quotes."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"':
                quote = '"'
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
    return -1


PATH_RE = re.compile(r"(?<![\w./$\\-])((?:%s)/[\w.*?\[\]/-]*)" % "|".join(TREE_DIRS))
# A file named without its folder: it must exist somewhere in the tree.
FILE_RE = re.compile(r"(?<![\w./$\\<-])([A-Za-z_][\w-]*\.(?:c|h|S|sh|py|mk|md|cfg|ld))(?![\w.])")
PLACEHOLDER = re.compile(r"(?:^|[/_.-])(?:[A-Z]{2,}|N)(?:$|[/_.-])")
# A document named without its folder or extension (README, LICENSE): a
# name in capitals that holds one of these words, or any such name ending in
# .md or .txt.  It must be in the tree, as it is or with .md.
DOC_RE = re.compile(r"(?<![\w./$\\-])([A-Z][A-Z0-9]*(?:[-_][A-Z][A-Z0-9]*)*)(\.(?:md|txt))?(?![\w-]|\.\w)")
DOC_WORDS = {"AUTHORS", "CHANGELOG", "CONTRIBUTING", "COPYING", "HACKING", "INSTALL", "LICENSE",
             "NEWS", "NOTES", "README", "TODO"}
# Files of other projects that comments cite by name: Linux's, FreeBSD's and
# gnu-efi's sources, and what a user's machine holds.
ELSEWHERE = ("ministat.c", "tsc.c", "tsc_sync.c", "clocksource.c", "kvmclock.c",
             "efi.h", "efilib.h", "hpet.c", "i8254.c", "acpi_timer.c", "apic.c",
             "elf_x86_64_efi.lds", "crt0-efi-x86_64.o", "grub.cfg", "startup.nsh")


def named_paths(comment):
    for m in PATH_RE.finditer(comment):
        p = m.group(1).rstrip(".,;:)'\"`-")
        rest = comment[m.end():]
        if rest.startswith(("<", "{", "$")) or "<" in p or PLACEHOLDER.search(p):
            continue  # a pattern with a placeholder, not a path
        if "Linux" in comment[max(0, m.start() - 40):m.start()]:
            continue  # Linux's tree, not this one
        yield p


def named_files(comment):
    for m in FILE_RE.finditer(comment):
        if comment[m.end():].startswith("/") or PLACEHOLDER.search(m.group(1)):
            continue
        yield m.group(1)


def named_docs(comment):
    for m in DOC_RE.finditer(comment):
        name, ext = m.group(1), m.group(2) or ""
        if ext or DOC_WORDS & set(re.split(r"[-_]", name)):
            yield name + ext


def doc_exists(bases, doc):
    return doc in bases or doc + ".md" in bases


def path_exists(root, names, dirs, p):
    if p.startswith(MADE):
        return True
    p = p.rstrip("/")
    if any(c in p for c in "*?["):
        return any(fnmatch.fnmatchcase(n, p) for n in names) or \
            any(fnmatch.fnmatchcase(d, p) for d in dirs)
    return p in names or p in dirs or os.path.exists(os.path.join(root, p))


def check_paths(root):
    names = tracked(root, scan=False)
    bases = {os.path.basename(n) for n in names}
    dirs = {os.path.dirname(n) for n in names}
    for d in list(dirs):
        while d:
            d = os.path.dirname(d)
            dirs.add(d)
    found = 0
    for name in tracked(root):
        try:
            text = open(os.path.join(root, name), encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        for line, comment in comments(name, text):
            missing = [p for p in named_paths(comment) if not path_exists(root, names, dirs, p)]
            missing += [f for f in named_files(comment)
                        if f not in bases and f not in ELSEWHERE and "Linux" not in comment]
            missing += [d for d in named_docs(comment) if not doc_exists(bases, d) and d not in missing]
            for p in missing:
                print("%s:%d: names %s, which does not exist" % (name, line, p))
                found += 1
    return found


FUNC_START = re.compile(r"^(?!static\s+const\b)[A-Za-z_][\w\s\*,()\[\]]*\b(\w+)\s*\([^;]*$")


def functions(text):
    """(name, first line, line count) of each function definition, in the
    tree's style: the signature starts at column 0, the body's braces stand
    alone at column 0."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FUNC_START.match(lines[i])
        if m and not lines[i].startswith(("#", "typedef", "struct", "enum", "union")) \
                or (m and lines[i].startswith(("struct", "enum", "union")) and "(" in lines[i]):
            j = i
            while j < len(lines) and j < i + 12 and lines[j] != "{" and not lines[j].rstrip().endswith(";"):
                j += 1
            if j < len(lines) and lines[j] == "{":
                k = j + 1
                while k < len(lines) and lines[k] != "}":
                    k += 1
                yield m.group(1), i + 1, k - i + 1
                i = k
        i += 1


def allowed_long(root):
    allow = {}
    path = os.path.join(root, ALLOW_LONG)
    if os.path.exists(path):
        for raw in open(path, encoding="utf-8"):
            raw = raw.split("#", 1)[0].strip()
            if raw:
                allow[raw] = True
    return allow


def check_functions(root):
    allow = allowed_long(root)
    found = 0
    for name in tracked(root):
        if not name.endswith(".c"):
            continue
        text = open(os.path.join(root, name), encoding="utf-8", errors="replace").read()
        for fn, line, count in functions(text):
            if count > MAX_LINES and "%s:%s" % (name, fn) not in allow:
                print("%s:%d: %s is %d lines (at most %d)" % (name, line, fn, count, MAX_LINES))
                found += 1
    return found


INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def include_graph(root):
    """Folder -> folders it includes from, with one example each."""
    graph = {}
    for name in tracked(root):
        if not name.endswith(C_EXT) or name.startswith("tests/"):
            continue
        src = os.path.dirname(name)
        text = open(os.path.join(root, name), encoding="utf-8", errors="replace").read()
        for inc in INCLUDE_RE.findall(text):
            dst = os.path.dirname(inc)
            if dst and dst != src and os.path.exists(os.path.join(root, inc)):
                graph.setdefault(src, {}).setdefault(dst, "%s includes %s" % (name, inc))
    return graph


def check_includes(root):
    """The circles between folders, then the host side's direction
    (check_direction)."""
    graph = include_graph(root)
    seen, found = set(), check_direction(root)
    for start in sorted(graph):
        # Every circle through start, found once: a depth-first walk.
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph.get(node, {})):
                if nxt == start:
                    circle = path + [start]
                    key = frozenset(circle)
                    if key not in seen:
                        seen.add(key)
                        found += 1
                        print("include circle: %s" % " -> ".join(circle))
                        for a, b in zip(circle, circle[1:]):
                            print("  %s" % graph[a][b])
                elif nxt not in path and nxt > start:
                    stack.append((nxt, path + [nxt]))
    return found


LIB = "tools/lib"


def command_of(path):
    """The folder under tools/ that a path is in ("tools/os/raw.c" ->
    "tools/os"), or None: not in one."""
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) >= 3 and parts[0] == "tools" else None


def check_direction(root):
    """Commands depend on the library only: tools/A/ includes from
    tools/lib/ (and lib/, probe/, ...), never from tools/B/; tools/lib/
    includes from no command."""
    found = 0
    for name in tracked(root):
        src = command_of(name)
        if not name.endswith(C_EXT) or not src:
            continue
        text = open(os.path.join(root, name), encoding="utf-8", errors="replace").read()
        for inc in INCLUDE_RE.findall(text):
            dst = command_of(inc)
            if src == LIB and inc.startswith("tools/") and dst != LIB:
                print("%s includes %s: tools/lib uses no command's files" % (name, inc))
                found += 1
            elif src != LIB and dst and dst not in (src, LIB):
                print("%s includes %s: commands use tools/lib only" % (name, inc))
                found += 1
    return found


def check_subjects(root, base):
    try:
        out = subprocess.run(["git", "-C", root, "log", "--format=%h %s", "%s..HEAD" % base],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print("cannot read the commits after %s: %s" % (base, e))
        return -1
    found = 0
    for line in out.split("\n"):
        if not line:
            continue
        h, _, subject = line.partition(" ")
        if len(subject) > SUBJECT_MAX:
            print("commit %s: subject is %d characters (at most %d): %s"
                  % (h, len(subject), SUBJECT_MAX, subject))
            found += 1
    return found


HELPER = ". tests/lib/check.sh"


def check_helpers(root):
    """The one PASS/FAIL helper first: it counts every check of the script,
    and only a script that sources it before doing anything is counted
    whole (tests/lib/check.sh)."""
    found = 0
    for name in tracked(root):
        if not re.match(r"^tests/[^/]+/test_[^/]*\.sh$", name):
            continue
        with open(os.path.join(root, name), errors="replace") as f:
            first = next((ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")), "")
        if first != HELPER:
            print("%s: its first command is not '%s' (it is '%s')" % (name, HELPER, first[:60]))
            found += 1
    return found + check_boot_helper(root)


BOOT_HELPER = "tests/lib/boot.sh"
BOOT_DEFINED = re.compile(r"^\s*(boot|now_ms)\s*\(\)")


def check_boot_helper(root):
    """One boot helper: no shell file of tests/ but tests/lib/boot.sh
    defines its boot() or now_ms(), so that a test boots as the others do."""
    found = 0
    for name in tracked(root):
        if not (name.startswith("tests/") and name.endswith(".sh")) or name == BOOT_HELPER:
            continue
        with open(os.path.join(root, name), errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = BOOT_DEFINED.match(line)
                if m:
                    print("%s:%d: defines %s(): the one boot helper is %s's" % (name, n, m.group(1), BOOT_HELPER))
                    found += 1
    return found


# A unit check of several conditions names the one that failed: each
# condition joined at the top level is COND(x) (tests/unit/check.h), and
# COND(x) itself holds one condition.  CONDS_MAX, the most a check may join
# bare, is 1: COND costs the same few characters at two conditions as at ten.
CONDS_MAX = 1
CHECK_CALL = re.compile(r"(?<![\w.>])check\s*\(")
COND_CALL = re.compile(r"COND\s*\(")


def c_code(text):
    """text with comments and the insides of string and character literals
    blanked, newlines kept: a C file's code, at the same offsets."""
    out = []
    i = 0
    while i < len(text):
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = len(text) if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = len(text) if j < 0 else j
        elif text[i] in "\"'":
            j = i + 1
            while j < len(text) and text[j] not in (text[i], "\n"):
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, len(text))
        else:
            out.append(text[i])
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", text[i:j]))
        i = j
    return "".join(out)


def top_level_and(code, start):
    """The operands of && at the top level of the expression at code[start:]
    up to its first top-level comma or closing bracket, as (start, end)."""
    depth = 0
    spans = []
    j = start
    while j < len(code):
        c = code[j]
        if c in "([{":
            depth += 1
        elif depth == 0 and (c in ")]}" or c == ","):
            break
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and code.startswith("&&", j):
            spans.append((start, j))
            start = j + 2
            j += 1
        j += 1
    spans.append((start, j))
    return spans


def one_cond(code, a, b):
    """Whether code[a:b] is COND(x), x with no && at its top level."""
    operand = code[a:b]
    m = COND_CALL.match(code, a + len(operand) - len(operand.lstrip()))
    if not m:
        return False
    inner = top_level_and(code, m.end())
    return len(inner) == 1 and code[inner[0][1]] == ")" and not code[inner[0][1] + 1:b].strip()


def check_conditions(root):
    """Each check() in tests/unit/ whose condition joins more than CONDS_MAX
    conditions with && at the top level, one of them not COND(one condition)."""
    found = 0
    for name in tracked(root):
        if not re.match(r"^tests/unit/[^/]*\.[ch]$", name):
            continue
        code = c_code(open(os.path.join(root, name), encoding="utf-8", errors="replace").read())
        for m in CHECK_CALL.finditer(code):
            spans = top_level_and(code, m.end())
            bare = sum(not one_cond(code, a, b) for a, b in spans)
            if len(spans) > CONDS_MAX and bare:
                print("%s:%d: check() joins %d conditions, %d of them not in COND(): "
                      "a failure would not say which" % (name, code.count("\n", 0, m.start()) + 1, len(spans), bare))
                found += 1
    return found


# A statement (after ; { } or a label's or case's colon, or `return`) that
# starts with a cast to void and goes on after a comma.
VOID_COMMA = re.compile(r"(?:[;{}:]|\breturn\b)\s*\(\s*void\s*\)\s*[\w.\->\[\]]+\s*,")


def check_casts(root):
    """Each statement of a C file that starts `(void)x,`."""
    found = 0
    for name in tracked(root):
        if not name.endswith(C_EXT):
            continue
        code = c_code(open(os.path.join(root, name), encoding="utf-8", errors="replace").read())
        for m in VOID_COMMA.finditer(code):
            print("%s:%d: a (void) cast, then a comma: one statement a line" % (name, code.count("\n", 0, m.end()) + 1))
            found += 1
    return found


def has_commit(root, rev):
    return subprocess.run(["git", "-C", root, "rev-parse", "-q", "--verify", rev + "^{commit}"],
                          capture_output=True, check=False).returncode == 0


def check_all(root):
    """Every check, each under its own heading; -1 when one could not look."""
    total = 0
    checks = [("paths", check_paths), ("functions", check_functions),
              ("includes", check_includes), ("helpers", check_helpers)]
    checks.append(("conditions", check_conditions))
    checks.append(("casts", check_casts))
    if has_commit(root, SUBJECT_BASE):
        checks.append(("subjects", lambda r: check_subjects(r, SUBJECT_BASE)))
    else:
        # A tree without its history (the Debian source package) has no commits to check.
        print("shape: subjects: no history after %s here, nothing to check" % SUBJECT_BASE)
    for name, check in checks:
        n = check(root)
        print("shape: %s: %s" % (name, "could not look" if n < 0 else "%d finding(s)" % n))
        if n < 0:
            return -1
        total += n
    print("lint: shape: %d finding(s) (%s)" % (total, ", ".join(name for name, _ in checks)))
    return total


def main(argv):
    if len(argv) < 3 or argv[1] not in ("paths", "functions", "includes", "subjects", "helpers", "conditions", "casts", "all") \
            or (argv[1] == "subjects") != (len(argv) == 4):
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[2]
    if argv[1] == "all":
        n = check_all(root)
    elif argv[1] == "paths":
        n = check_paths(root)
    elif argv[1] == "functions":
        n = check_functions(root)
    elif argv[1] == "includes":
        n = check_includes(root)
    elif argv[1] == "helpers":
        n = check_helpers(root)
    elif argv[1] == "conditions":
        n = check_conditions(root)
    elif argv[1] == "casts":
        n = check_casts(root)
    else:
        n = check_subjects(root, argv[3])
    return 2 if n < 0 else (1 if n else 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
