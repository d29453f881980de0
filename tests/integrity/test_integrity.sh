#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Log integrity matrix: real logs from two QEMU boots (-kernel, preset quick,
# on pc and on q35) and a stored real schema-1 log (tests/data/logs/schema1),
# damaged in every way a serial capture gets damaged (bit
# flips, truncation, duplicated and reordered lines, CRLF and ANSI noise,
# several boots in one capture), each variant read by `tickprobe show
# --json`, `tickprobe show` and `tickprobe compare GOOD VARIANT`.  The exit
# status must say what happened (0 undamaged, 3 damaged but used, 2 nothing
# usable) and no number from a damaged record may ever be printed: see
# tests/integrity/mutate.py.  SEED (env) picks the flipped bits.
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
SEED=${SEED:-1}

for t in qemu-system-x86_64 python3; do
	command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
[ -x "$TP" ] && [ -f "$BUILD/tickprobe.elf32" ] || { fail "setup: $TP or $BUILD/tickprobe.elf32 not built (make all)"; exit 1; }

OUT=$(mktemp -d /tmp/tickprobe-integrity.XXXXXX)
trap 'rm -rf "$OUT"' EXIT INT TERM

for m in pc q35; do
	"$TP" qemu --kernel --machine $m --preset quick --options slow_rates=off --timeout 60 -o "$OUT/$m.log" >"$OUT/$m.out" 2>"$OUT/$m.err"
	rc=$?
	# The originals must be whole and valid, or nothing below means anything.
	if [ $rc -eq 0 ] && python3 tests/boot/checklog.py "$OUT/$m.log" --label "$m" >"$OUT/$m.check"; then
		pass "$m: a whole, valid log to damage ($(wc -c <"$OUT/$m.log") bytes, $(grep -c '^{' "$OUT/$m.log") records)"
	else
		fail "$m: boot exit $rc or invalid log: $(grep FAIL "$OUT/$m.check" | head -n 3 | tr '\n' ' ')"
		exit 1
	fi
done

# A run that ended in a CPU exception: its `exception` record gets damaged too.
"$TP" qemu --kernel --preset quick --options "slow_rates=off fault=gp" --timeout 60 -o "$OUT/fault-gp.log" >"$OUT/gp.out" 2>"$OUT/gp.err"
rc=$?
if [ $rc -eq 11 ] && python3 tests/boot/checklog.py "$OUT/fault-gp.log" --expect-status failed >"$OUT/gp.check"; then
	pass "fault-gp: a whole, valid log of a failed run to damage ($(grep -c '^{' "$OUT/fault-gp.log") records)"
else
	fail "fault-gp: boot exit $rc (want 11) or invalid log: $(grep FAIL "$OUT/gp.check" | head -n 3 | tr '\n' ' ')"
	exit 1
fi

# The variants run the tool three times each, over 3,000 runs, and starting
# is most of each run: the static build (the same objects, linked -static)
# starts quicker, with no libraries to load.
READER=$TP
[ -x "$BUILD/tickprobe-static" ] && READER=$BUILD/tickprobe-static
t0=$(date +%s)
python3 tests/integrity/mutate.py "$READER" "$OUT" "$OUT/pc.log" "$OUT/q35.log" "$OUT/fault-gp.log" \
	tests/data/logs/schema1/q35-bios-default.log --seed "$SEED"
rc=$?
echo "integrity: variants checked in $(($(date +%s) - t0)) s"
exit $rc
