#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe compare --gate and tickprobe qemu --baseline (tools/compare/
# gate.c): boots under -icount, where a run is exactly repeatable, so a
# counter made slower on purpose (fault=slow:COUNTER:N) is the one thing that
# moves.  It must fail with exit 4 (qemu: 14) and name that counter, in text,
# in TAP that Perl's `prove` reads, and in JUnit XML that validates against
# the format CI servers read (tests/data/junit/junit.xsd) and that Debian's
# junitparser reads; an identical run must pass; a counter gone unhealthy
# fails; one only the new run has is reported, not gated; thresholds apply.
. tests/lib/check.sh
. tests/lib/boot.sh
T=$TP
OUT=$BUILD/test-gate
rm -rf "$OUT"
mkdir -p "$OUT"

# run NAME PROBE_OPTIONS: a boot under -icount that ends ok or ok-absent.
run() {
	boot "$1" "0|10" --kernel --icount --preset quick --timeout 120 --options "slow_rates=off $2"
}
run base ""
run same ""
run slow "fault=slow:hpet:50"
run stuck "stuck=hpet"
run few "counters=tsc,hpet"

"$T" compare --gate "$OUT/base.log" "$OUT/same.log" >"$OUT/same.txt" 2>&1
ok "an identical run passes: exit 0" $? "$(tail -n 3 "$OUT/same.txt")"
"$T" compare --gate "$OUT/base.log" "$OUT/slow.log" >"$OUT/slow.txt" 2>&1
rc=$?
check "a run with the HPET made slower fails: exit 4" "[ $rc = 4 ]" "exit $rc"
check "... naming the HPET, and only it" \
	"grep -q '^    regressed hpet: ' '$OUT/slow.txt' && [ \$(grep -c '^    regressed' '$OUT/slow.txt') = 1 ] &&
	 grep -q '1 failed: REGRESSED' '$OUT/slow.txt'" "$(grep -E 'regressed|failed' "$OUT/slow.txt")"

"$T" compare --gate "$OUT/base.log" "$OUT/slow.log" --format tap -o "$OUT/slow.tap"
check "TAP: exit 4, TAP version 13 and a plan" "[ $? = 4 ] && head -n 2 '$OUT/slow.tap' | tr '\\n' ' ' | grep -q '^TAP version 13 1\\.\\.'"
prove -e cat "$OUT/slow.tap" >"$OUT/prove-slow.txt" 2>&1
check "TAP: prove reads it and fails on the HPET's test" "[ $? != 0 ] && grep -q 'Failed 1/' '$OUT/prove-slow.txt'" \
	"$(cat "$OUT/prove-slow.txt")"
"$T" compare --gate "$OUT/base.log" "$OUT/same.log" --format tap -o "$OUT/same.tap"
prove -e cat "$OUT/same.tap" >"$OUT/prove-same.txt" 2>&1
check "TAP: prove passes the identical run" "[ $? = 0 ] && grep -q 'All tests successful' '$OUT/prove-same.txt'" \
	"$(cat "$OUT/prove-same.txt")"

"$T" compare --gate "$OUT/base.log" "$OUT/slow.log" "$OUT/same.log" --format junit -o "$OUT/gate.xml"
check "JUnit: exit 4" "[ $? = 4 ]"
xmllint --noout --schema tests/data/junit/junit.xsd "$OUT/gate.xml" >"$OUT/xmllint.txt" 2>&1
ok "JUnit: valid against the JUnit report's schema" $? "$(cat "$OUT/xmllint.txt")"
/usr/bin/python3 - "$OUT/gate.xml" <<'PY'
import sys
from junitparser import JUnitXml, Failure
x = JUnitXml.fromfile(sys.argv[1])
suites = list(x)
failed = [(s.name, c.name) for s in suites for c in s if any(isinstance(r, Failure) for r in c.result)]
ok = len(suites) == 2 and len(failed) == 1 and failed[0][1] == "hpet" and failed[0][0].endswith("slow.log")
print(("PASS: " if ok else "FAIL: ") + "JUnit: junitparser finds 2 suites and one failure, the HPET's in slow.log: %s" % failed)
PY

"$T" compare --gate "$OUT/base.log" "$OUT/slow.log" --threshold hpet=20000% >"$OUT/thr.txt" 2>&1
ok "a threshold for the HPET of 20000%: the +10300% passes" $? "$(grep hpet "$OUT/thr.txt")"
printf '# thresholds\n* 10%%\nhpet 150ns\n' >"$OUT/thresholds"
"$T" compare --gate "$OUT/base.log" "$OUT/slow.log" --thresholds "$OUT/thresholds" >"$OUT/thr2.txt" 2>&1
check "a thresholds file: the HPET's 206 ns over 150 ns fails" "[ $? = 4 ] && grep -q 'threshold 150 ns' '$OUT/thr2.txt'" \
	"$(grep hpet "$OUT/thr2.txt")"
printf 'hpet lots\n' >"$OUT/bad-thresholds"
"$T" compare --gate "$OUT/base.log" "$OUT/slow.log" --thresholds "$OUT/bad-thresholds" >"$OUT/bad.txt" 2>&1
check "a bad thresholds line: exit 1 and its line named" "[ $? = 1 ] && grep -q 'bad-thresholds:1:' '$OUT/bad.txt'" "$(cat "$OUT/bad.txt")"
"$T" compare "$OUT/base.log" "$OUT/slow.log" --format tap >"$OUT/nogate.txt" 2>&1
check "--format without --gate: exit 1" "[ $? = 1 ]"

"$T" compare --gate "$OUT/base.log" "$OUT/stuck.log" >"$OUT/stuck.txt" 2>&1
check "a counter gone unhealthy fails, with its reason" "[ $? = 4 ] && grep -q '^    unhealthy hpet: healthy in the baseline, not here: ' '$OUT/stuck.txt'" \
	"$(grep hpet "$OUT/stuck.txt")"
"$T" compare --gate "$OUT/few.log" "$OUT/base.log" >"$OUT/new.txt" 2>&1
check "counters only the new run has are reported, not gated" "[ $? = 0 ] && grep -q '^    new       acpi-fast: not in the baseline' '$OUT/new.txt'" \
	"$(grep acpi-fast "$OUT/new.txt")"
"$T" compare --gate "$OUT/base.log" "$OUT/few.log" >"$OUT/gone.txt" 2>&1
check "a counter absent from the new run fails" "[ $? = 4 ] && grep -q '^    absent    acpi-fast: ' '$OUT/gone.txt'" \
	"$(grep acpi-fast "$OUT/gone.txt")"

"$T" qemu --kernel --icount --preset quick --timeout 120 -q --options "slow_rates=off fault=slow:hpet:50" \
	-o "$OUT/q.log" --baseline "$OUT/base.log" --gate-format junit --gate-output "$OUT/q.xml" >"$OUT/q.out" 2>&1
rc=$?
check "qemu --baseline: a slower run exits 14 and writes the JUnit report" "[ $rc = 14 ] && grep -q '<failure type=\"regressed\"' '$OUT/q.xml'" \
	"exit $rc: $(tail -n 2 "$OUT/q.out")"
"$T" qemu --kernel --icount --preset quick --timeout 120 -q --options "slow_rates=off" -o "$OUT/q2.log" \
	--baseline "$OUT/base.log" >"$OUT/q2.out" 2>&1
ok "qemu --baseline: an identical run exits 0" $? "$(tail -n 3 "$OUT/q2.out")"
"$T" qemu --kernel --baseline "$OUT/base.log" >"$OUT/q3.out" 2>&1
check "qemu --baseline without -o: exit 1 and why" "[ $? = 1 ] && grep -q 'give it -o FILE' '$OUT/q3.out'" "$(cat "$OUT/q3.out")"

# A log whose counter is named with XML's and TAP's own characters: escaped,
# still valid XML, still one TAP line.
"$PYTHON3" tests/tools/relabel.py "$OUT/slow.log" "$OUT/evil.log" '"name":"hpet"' '"name":"hpet<x y=\"&'"'"'># \n"'
"$T" compare --gate "$OUT/base.log" "$OUT/evil.log" --format junit -o "$OUT/evil.xml" 2>/dev/null
xmllint --noout --schema tests/data/junit/junit.xsd "$OUT/evil.xml" >"$OUT/evil-lint.txt" 2>&1
ok "a counter named with <, \", &, ' and a line end: the JUnit report stays valid" $? "$(cat "$OUT/evil-lint.txt")"
"$T" compare --gate "$OUT/base.log" "$OUT/evil.log" --format tap -o "$OUT/evil.tap" 2>/dev/null
check "... and each TAP result stays one line, its # escaped" \
	"[ \$(grep -c '^\\(not \\)\\{0,1\\}ok ' '$OUT/evil.tap') = \$(sed -n 's/^1\\.\\.//p' '$OUT/evil.tap') ] && grep -q 'hpet<x y=\"&.>\\\\# ' '$OUT/evil.tap'" \
	"$(grep 'hpet<' "$OUT/evil.tap")"
