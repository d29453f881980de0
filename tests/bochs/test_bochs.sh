#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The image on a second implementation of the PC: Bochs 2.7, with its own
# BIOS, ACPI tables, PIT, PM timer, HPET and local APIC (and a TSC-deadline
# timer, which QEMU's TCG lacks).  The hybrid image boots from disk through
# GRUB with 1 and with 4 CPUs, the quick preset, and each log must be valid
# (tests/boot/checklog.py), end ok with every classic counter healthy, and,
# on 4 CPUs, have every CPU started, a TSC sync verdict and the contention
# curves (bochscheck.py); on 1 CPU every read must cost exactly its
# instructions.  Bochs interprets every instruction of every CPU on one host
# thread, so every CPU added adds to the host time a boot takes.
. tests/lib/check.sh
BUILD=${BUILD:-build}
OUT=$BUILD/test-bochs
rm -rf "$OUT" && mkdir -p "$OUT"
for f in tickprobe tickprobe.img; do
	[ -f "$BUILD/$f" ] || { fail "setup: $BUILD/$f missing (make all)"; exit 1; }
done

. tests/lib/boot.sh # now_ms

# bochs NAME CPUS: boots, then checks NAME's log.  slow_rates=off: the RTC's
# rate is not what this checks, and its wait of a second or two of guest time
# is every CPU's instructions interpreted.
bochs_boot() {
	name=$1 cpus=$2
	t0=$(now_ms)
	python3 tests/bochs/bochsrun.py "$BUILD/tickprobe.img" "$OUT/$name.log" --cpus "$cpus" --preset quick \
		--options slow_rates=off --timeout 240 --keep "$OUT/$name" >"$OUT/$name.out" 2>&1
	rc=$?
	echo "boot $name: exit $rc in $(( $(now_ms) - t0 )) ms: $(cat "$OUT/$name.out")"
	if [ "$rc" -ne 0 ]; then
		fail "$name: no end record from Bochs (exit $rc): $(tail -n 1 "$OUT/$name.out")"
		[ "$rc" -eq 2 ] && exit 1 # not installed: nothing else can run
		return
	fi
	pass "$name: Bochs delivered the end record"
	python3 tests/boot/checklog.py "$OUT/$name.log" --label "$name" --expect-status ok --expect-boot bios \
		--expect-pm-timer io:0xb008 --expect-hpet 0xfed00000 --expect begin.options.preset='"quick"' \
		--expect machine.hypervisor=null
	python3 tests/bochs/bochscheck.py "$BUILD/tickprobe" "$OUT/$name.log" --label "$name" --cpus "$cpus"
}

bochs_boot bochs-1 1
bochs_boot bochs-4 4
python3 tests/boot/smpcheck.py "$OUT/bochs-4.log" --label bochs-4 --count 4 --started 4 --team

# The runner must be able to fail: a disk image without tickprobe.env is
# refused before Bochs starts, and one that never writes an end record (one
# block of tickprobe.env and zeros: the BIOS finds nothing to boot, and Bochs
# stops on its own, or the runner's timeout stops it) gives exit 1.
head -c 1048576 /dev/zero >"$OUT/blank.img"
python3 tests/bochs/bochsrun.py "$OUT/blank.img" "$OUT/blank.log" >"$OUT/blank.out" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -q "no tickprobe.env block" "$OUT/blank.out"; then
	pass "runner: an image without tickprobe.env is refused (exit 2)"
else
	fail "runner: an image without tickprobe.env gave exit $rc: $(cat "$OUT/blank.out")"
fi
printf '# GRUB Environment Block\ntp_preset=quick\n' >"$OUT/noboot.img"
head -c $((512 - 41)) /dev/zero | tr '\0' '#' >>"$OUT/noboot.img"
head -c 1048576 /dev/zero >>"$OUT/noboot.img"
python3 tests/bochs/bochsrun.py "$OUT/noboot.img" "$OUT/noboot.log" --timeout 20 >"$OUT/noboot.out" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && grep -q "no end record" "$OUT/noboot.out"; then
	pass "runner: a disk that never ends gives exit 1: $(cat "$OUT/noboot.out")"
else
	fail "runner: a disk that never ends gave exit $rc: $(cat "$OUT/noboot.out")"
fi
