# SPDX-License-Identifier: BSD-2-Clause
"""export --format csv: the header and one row per counter.  Exits 0 when so.

Run by tests/tools/test_show_compare.sh.  Arguments: CSV.
"""
import csv,sys
rows=list(csv.DictReader(open(sys.argv[1])))
assert len(rows)==4, rows
h=[r for r in rows if r["counter"]=="hpet"][0]
assert float(h["p50_ns"])==521 and h["healthy"]=="true" and h["cpu_brand"].startswith("Intel")
