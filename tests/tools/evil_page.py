# SPDX-License-Identifier: BSD-2-Clause
"""The report of the hostile log: no tag from its text, all of it escaped.

Run by tests/tools/test_report.sh from the top of the tree.  Arguments: HTML.
"""
import html.parser, sys
t = open(sys.argv[1], encoding="utf-8").read()
tags = set()
class P(html.parser.HTMLParser):
    def handle_starttag(s, tag, a): tags.add(tag)
P().feed(t)
bad = tags & {"script", "img", "i"}
print(("PASS" if not bad else "FAIL") + ": hostile text makes no tags (%s)" % sorted(bad))
want = ["&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; &lt;img", "\\x01",
        "&lt;b&gt;bold&lt;/b&gt; \\xff", "ev&quot;il&lt;i&gt;&amp;&#39;.log"]
miss = [w for w in want if w not in t]
print(("PASS" if not miss else "FAIL") + ": hostile brand, ACPI problem, bytes and file name shown escaped %s" % miss)
