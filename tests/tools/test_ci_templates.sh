#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The CI templates (contrib/ci/): Debian's yamllint finds nothing in them
# (warnings count), and every tickprobe command they run is one this
# tickprobe takes: each is run with --dry-run, which checks its options and
# stops before booting.
. tests/lib/check.sh
BUILD=${BUILD:-build}
D=$(mktemp -d /tmp/tickprobe-ci.XXXXXX)
trap 'rm -rf "$D"' EXIT

for f in contrib/ci/*.yml; do
	yamllint -s -d '{extends: default, rules: {line-length: {max: 110}, truthy: {check-keys: false}}}' "$f" \
		>"$D/lint" 2>&1
	ok "$f: yamllint -s finds nothing" $? "$(cat "$D/lint")"
	/usr/bin/python3 - "$f" >"$D/commands" <<'PY'
import sys, yaml
def walk(x):
    if isinstance(x, dict):
        for v in x.values():
            yield from walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v)
    elif isinstance(x, str):
        for line in x.splitlines():
            if "build/tickprobe " in line:
                yield line.strip()
for cmd in walk(yaml.safe_load(open(sys.argv[1]))):
    print(cmd)
PY
	n=0
	while read -r cmd; do
		n=$((n + 1))
		# The template's build/ is this tree's $BUILD.
		sh -c "$(printf '%s' "$cmd" | sed "s|build/tickprobe|$BUILD/tickprobe|") --dry-run" >"$D/run" 2>&1
		ok "$f: '$cmd' is a command this tickprobe takes (--dry-run)" $? "$(tail -n 3 "$D/run")"
	done <"$D/commands"
	check "$f: it runs tickprobe at all" "[ $n -gt 0 ]"
done
