# SPDX-License-Identifier: BSD-2-Clause
"""A page made from hostile text (tests/tools/evil_log.py): nothing of it runs.

Run by tests/tools/test_report.sh from the top of the tree.
Arguments: HTML                 the page of the hostile log itself;
           --fleet HTML N       the fleet page of a store that holds it (report --db),
                                written under a hostile -o name, with N machine links.
Both: no tag or event handler comes from the text, no script but the fleet
page's own, and the hostile text is there, escaped.  The log's page: its brand,
ACPI problem, bytes and file name as entities and \\xNN.  The fleet page: every
link is a relative path, percent-encoded (no scheme, query or fragment, nothing
that closes the attribute), that leads to a machine page that exists.
"""
import html.parser, os, string, sys, urllib.parse
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tplog import ok  # noqa: E402


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.handlers, self.hrefs = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.handlers += [(tag, k) for k, _ in attrs if k.startswith("on")]
        self.hrefs += [v for k, v in attrs if k == "href" and tag == "a"]


def common(path, scripts):
    text = open(path, encoding="utf-8").read()
    p = Page()
    p.feed(text)
    bad = {t for t in p.tags if t in ("img", "i", "iframe", "object", "embed")}
    n = p.tags.count("script")
    ok(not bad and not p.handlers and n == scripts,
       "hostile text makes no tags or handlers (%d script, %d wanted)" % (n, scripts),
       "tags %s, handlers %s" % (sorted(bad), p.handlers[:3]))
    return text, p


def log_page(path):
    text, _ = common(path, 0)
    want = ["&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; &lt;img", "\\x01",
            "&lt;b&gt;bold&lt;/b&gt; \\xff", "ev&quot;il&lt;i&gt;&amp;&#39;.log",
            "\\x1b]0;PWNED\\x07\\x1b[31m\\x9b\\u009b\\u202e\\x0a\\x7f\u00e9"]
    miss = [w for w in want if w not in text]
    ok(not miss, "hostile brand, ACPI problem, bytes, payload and file name shown escaped %s" % miss)


def fleet_page(path, machines):
    text, p = common(path, 1)
    links = [h for h in p.hrefs if not h.startswith("#")]
    ok(len(links) == machines, "%d machine links (%d wanted)" % (len(links), machines), repr(links[:3]))
    allowed = set(string.ascii_letters + string.digits + "-._~/%")
    raw = [h for h in links if set(h) - allowed]
    ok(not raw, "every link is percent-encoded", repr(raw[:3]))
    parts = [urllib.parse.urlsplit(h) for h in links]
    ok(all(not (u.scheme or u.netloc or u.query or u.fragment) for u in parts),
       "every link is a relative path: no scheme, host, query or fragment", repr(parts[:2]))
    here = os.path.dirname(os.path.abspath(path))
    missing = [h for h in links if not os.path.isfile(os.path.join(here, urllib.parse.unquote(h)))]
    ok(links and not missing, "every link leads to a machine page", repr(missing[:3]))
    n = text.count("\\x1b]0;PWNED\\x07")
    ok(n >= machines and "&lt;script&gt;" in text, "the machines' hostile names shown escaped (%d times)" % n)


if __name__ == "__main__":
    if sys.argv[1] == "--fleet":
        fleet_page(sys.argv[2], int(sys.argv[3]))
    else:
        log_page(sys.argv[1])
