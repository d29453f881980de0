# SPDX-License-Identifier: BSD-2-Clause
"""The fleet page's table before and after #sort=hpet in Chromium.

Run by tests/tools/test_fleet.sh from the top of the tree.  Arguments: DOM_HTML SORTED_HTML.
"""
import re, sys
def column(path):
    html = open(path).read()
    table = html[html.index('id="fleet"'):]
    head = re.findall(r'<th[^>]*data-key="([^"]*)"', table[:table.index('</thead>')])
    col = head.index("hpet")
    vals = []
    for row in re.findall(r"<tr><td>.*?</tr>", table[table.index("<tbody>"):], re.S):
        cells = re.findall(r"<td[^>]*?(?:data-v=\"([^\"]*)\")?[^>]*>", row)
        vals.append(float(cells[col]) if cells[col] not in ("", "NaN") else float("nan"))
    return vals
before, after = column(sys.argv[1]), column(sys.argv[2])
real = [v for v in after if v == v]
ok_sorted = real == sorted(real) and len(after) == 500
ok_changed = before != after
print(("PASS" if ok_sorted else "FAIL") + ": #sort=hpet sorts the 500 rows by the hpet column in Chromium"
      + ("" if ok_sorted else ": first values %r" % after[:5]))
print(("PASS" if ok_changed else "FAIL") + ": the sort moved rows (the machines were not in hpet order before)")
