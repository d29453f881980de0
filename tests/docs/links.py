# SPDX-License-Identifier: BSD-2-Clause
"""Every relative link in the tree's Markdown resolves.

  links.py ROOT [FILE...]   FILEs relative to ROOT; default README.md,
                            HACKING.md and docs/*.md

A link is [text](TARGET), ![alt](TARGET) or a reference definition
"[label]: TARGET", outside code (fenced blocks and `spans`).  A TARGET with
a scheme (https:, mailto:) is not the tree's and is skipped.  Its path,
relative to the linking file, must name a file or folder inside ROOT; its
#anchor, a heading of the Markdown file it names (or of the linking file,
for a bare #anchor), as GitHub spells heading anchors.

Prints one line per broken link, FILE:LINE: why, and exits 1 when there
is any, 0 when there is none, 2 when it could not look.
"""
import glob
import os
import re
import sys

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ID = re.compile(r"<a\s[^>]*\b(?:name|id)=\"([^\"]+)\"", re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def prose_lines(text):
    """(line number, line) of each line outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield number, line


def slug(heading):
    """GitHub's anchor for a heading: its text, link syntax and code marks
    removed, lower case, punctuation but - and _ dropped, spaces as -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text):
    """Every anchor a Markdown text defines: its headings' (a repeated one
    gets -1, -2, … as GitHub numbers them) and HTML name/id attributes."""
    found = set()
    seen = {}
    for _, line in prose_lines(text):
        m = HEADING.match(line)
        if m:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else "%s-%d" % (base, n))
        found.update(HTML_ID.findall(line))
    return found


def targets(text):
    """(line number, target) of each link in a Markdown text; a link's text
    may run over lines."""
    kept = dict(prose_lines(text))
    lines = [CODE_SPAN.sub("", kept.get(n, "")) for n in range(1, text.count("\n") + 2)]
    for number, line in enumerate(lines, 1):
        m = REFDEF.match(line)
        if m:
            yield number, m.group(1)
    prose = "\n".join(lines)
    for m in INLINE.finditer(prose):
        yield prose.count("\n", 0, m.start()) + 1, m.group(1)


def check_file(root, name, cache):
    found = 0
    path = os.path.join(root, name)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    here = os.path.dirname(path)
    real_root = os.path.realpath(root)
    for number, target in targets(text):
        if not target or SCHEME.match(target):
            continue
        file_part, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(here, file_part)) if file_part else path
        inside = os.path.realpath(dest)
        why = None
        if inside != real_root and not inside.startswith(real_root + os.sep):
            why = "leaves the tree"
        elif not os.path.exists(dest):
            why = "no such file"
        elif anchor:
            if not dest.endswith(".md") or os.path.isdir(dest):
                why = "an anchor into a file that is not Markdown"
            else:
                if dest not in cache:
                    with open(dest, encoding="utf-8") as f:
                        cache[dest] = anchors(f.read())
                if anchor not in cache[dest]:
                    why = "no heading #%s there" % anchor
        if why:
            print("%s:%d: %s: %s" % (name, number, target, why))
            found += 1
    return found


def main(argv):
    if len(argv) < 2 or not os.path.isdir(argv[1]):
        print("usage: links.py ROOT [FILE...]", file=sys.stderr)
        return 2
    root = argv[1]
    names = argv[2:]
    if not names:
        names = [n for n in ("README.md", "HACKING.md") if os.path.exists(os.path.join(root, n))]
        names += sorted(os.path.relpath(p, root)
                        for p in glob.glob(os.path.join(root, "docs", "*.md")))
    if not names:
        print("links.py: no Markdown file under %s" % root, file=sys.stderr)
        return 2
    found = 0
    cache = {}
    for name in names:
        try:
            found += check_file(root, name, cache)
        except (OSError, UnicodeDecodeError) as e:
            print("links.py: %s: %s" % (name, e), file=sys.stderr)
            return 2
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
