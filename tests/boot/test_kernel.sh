#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Fast boots through QEMU's -kernel (the multiboot ELF32 on SeaBIOS, well under
# a second each under TCG): the quick preset, whose log checklog.py must
# accept and, damaged, reject, and the exit statuses of `tickprobe qemu`
# itself.  Two boots under -icount, the same byte for byte, are
# tests/method/test_icount.sh's; the boots that are only booted and validated
# (other CPU models, no HPET, no ACPI, bad options, q35) are tests/boots.cfg's
# group "fast".
# shellcheck disable=SC2086 # $K: an option list, split on purpose
. tests/lib/check.sh
. tests/lib/boot.sh
OUT=$BUILD/test-boot/kernel
rm -rf "$OUT" && mkdir -p "$OUT"
need_tool
[ -f "$BUILD/tickprobe.elf32" ] || { fail "setup: $BUILD/tickprobe.elf32 missing (make kernel)"; exit 1; }
K="--kernel=$BUILD/tickprobe.elf32"

# Every counter present on pc with -cpu max (the tool's TCG default): ok.  The
# RTC's rate is left out: it is timed over its seconds' edges, and the boots
# of tests/boots.cfg that keep a preset as shipped time it.
boot quick 0 $K --preset quick --options slow_rates=off
checklog quick --expect-status ok --expect-boot bios --expect-pm-timer io:0x608 --expect-hpet 0xfed00000 \
	--expect begin.cmdline='"preset=quick slow_rates=off"' --expect begin.options.preset='"quick"' \
	--expect begin.options.slow_rates=false --expect begin.option_problems='[]'

# checklog.py must be able to fail: damage copies of a good log.
good=$OUT/quick.log
if [ -s "$good" ]; then
	sed '0,/"type":"machine"/s/"seq":1/"seq":9/' "$good" >"$OUT/bad-seq.log"
	awk '/"type":"acpi"/ { print; print; next } { print }' "$good" >"$OUT/bad-dup.log"
	grep -v '"type":"end"' "$good" >"$OUT/bad-cut.log"
	awk '/"type":"machine"/ { sub(/"cores":/, "\"cores\": ") } { print }' "$good" >"$OUT/bad-crc.log"
	# the first text line after begin, twice: what a mirrored console does
	awk 'in_run && !done && !/^\{/ && /[a-z]/ { print; done = 1 } /"type":"begin"/ { in_run = 1 } { print }' \
		"$good" >"$OUT/bad-text.log"
	for b in seq dup cut crc text; do
		if $CHECK "$OUT/bad-$b.log" --label bad-$b >"$OUT/bad-$b.out" 2>&1; then
			fail "checklog-$b: checklog.py accepted a damaged log ($b)"
		elif grep -q '^FAIL' "$OUT/bad-$b.out"; then
			pass "checklog-$b: checklog.py rejects a damaged log ($b)"
		else
			fail "checklog-$b: checklog.py failed without a FAIL line: $(tail -n 1 "$OUT/bad-$b.out")"
		fi
	done
fi

# The tool's own statuses: usage 1, missing file 2, QEMU ending without a
# probe status 12 (here: paused with -S and killed by --timeout).
"$TP" qemu --no-such-option >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] && pass "usage: exit 1" || fail "usage: exit $rc, not 1"
"$TP" qemu --image "$OUT/missing.img" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass "missing image: exit 2" || fail "missing image: exit $rc, not 2"
"$TP" qemu $K --firmware uefi >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] && pass "--kernel with uefi: exit 1" || fail "--kernel with uefi: exit $rc, not 1"
"$TP" qemu $K --timeout 1 -o "$OUT/paused.log" -- -S >/dev/null 2>"$OUT/paused.err"; rc=$?
if [ $rc -eq 12 ] && grep -q "timed out" "$OUT/paused.err"; then
	pass "timeout: exit 12, says timed out"
else
	fail "timeout: exit $rc, $(cat "$OUT/paused.err")"
fi
# A --qemu wrapper that runs QEMU as its child, not by exec: the deadline
# must end the QEMU under it too, not leave it running with no parent.
tag=tp-wrapped-$$
printf '#!/bin/sh\nqemu-system-x86_64 "$@"\n' >"$OUT/wrapper.sh" && chmod +x "$OUT/wrapper.sh"
"$TP" qemu $K --qemu "$OUT/wrapper.sh" --timeout 1 -o "$OUT/wrapped.log" -- -S -name "$tag" >/dev/null 2>&1; rc=$?
sleep 0.2
# The processes whose command line holds the tag ([w]: not this grep's own).
left=$(grep -ls "tp-[w]rapped-$$" /proc/[0-9]*/cmdline | cut -d/ -f3 | tr '\n' ' ')
if [ $rc -eq 12 ] && [ -z "$left" ]; then
	pass "timeout with a wrapper: exit 12, and no QEMU left running under it"
else
	fail "timeout with a wrapper: exit $rc, left running: ${left:-none}"
	[ -n "$left" ] && kill -9 $left
fi
