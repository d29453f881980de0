#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every relative link and #anchor in README.md, HACKING.md and docs/*.md
# resolves (tests/docs/links.py).  The checker first runs on a planted tree
# and must find exactly the planted broken links, and none of the links that
# only look broken (in code, or to the web), so that a checker that has
# stopped seeing is caught.
. tests/lib/check.sh
BUILD=${BUILD:-build}
HERE=$(dirname "$0")

tree=$BUILD/docs-links-canary
rm -rf "$tree" && mkdir -p "$tree/docs"
cat >"$tree/README.md" <<'EOF'
# Canary

## Quick start

[a heading](docs/a.md#second-heading), [a repeated
one](docs/a.md#twice-1), [a folder](docs/),
[this page](#quick-start), [code in a heading](docs/a.md#the-tickprobe-qemu---linux-flag),
[the web](https://example.org/missing.md), `[in code](docs/in-span.md)`.
[planted: gone](docs/missing.md) [planted: no anchor](docs/a.md#nowhere)
[planted: outside](../outside.md) [planted: no anchor
here](#nope)
[planted: not Markdown](docs/x.txt#a)

```
[in a fence](docs/in-fence.md)
```

[planted-ref]: docs/missing-ref.md
EOF
cat >"$tree/docs/a.md" <<'EOF'
# A

## Second heading

## Twice

## Twice

## The `tickprobe qemu --linux` flag

[back](../README.md#quick-start)
EOF
: >"$tree/docs/x.txt"
out=$(python3 "$HERE/links.py" "$tree" 2>&1)
rc=$?
for planted in docs/missing.md docs/a.md#nowhere ../outside.md '#nope' docs/x.txt#a \
	docs/missing-ref.md; do
	printf '%s\n' "$out" | grep -qF ": $planted: " && pass "links canary: finds $planted" ||
		fail "links canary: $planted" "not reported: $out"
done
n=$(printf '%s\n' "$out" | grep -c .)
[ "$rc" = 1 ] && [ "$n" = 6 ] && pass "links canary: exit 1 and exactly the 6 planted faults" ||
	fail "links canary" "exit $rc, $n lines: $out"
rm -rf "$tree"

out=$(python3 "$HERE/links.py" . 2>&1)
rc=$?
if [ "$rc" = 0 ]; then
	pass "every relative link and anchor in README.md, HACKING.md and docs/*.md resolves"
else
	[ "$rc" = 1 ] || fail "links.py" "exit $rc: $out"
	printf '%s\n' "$out" | while IFS= read -r line; do
		fail "broken link" "$line"
	done
fi
