#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe doctor on the host, with no privilege and nothing of this host's
# but its CPUID: the kernel logs of the corpus tests/data/klog/ (every line
# from a real log or a kernel's format string, each saying which; mkklog.py
# refuses a line without its source), each with a fake sysfs/proc tree,
# against five hardware stories: a bare-metal log with a synchronised TSC
# (`tickprobe qemu -smp 4`), one with CPU 2's TSC skewed by 1,000,000 cycles
# (`tsc_skew=2:1000000`, under -icount: exact), the first with its HPET
# running slow or its PM timer fast (mkbare.py --drift) or without the
# invariant-TSC bit (as QEMU has it), and none.  The two captures are made here (about 3 s
# each) and given this machine's fingerprint by mkbare.py.  Each
# combination's verdict, parameters and exit status are checked, and what
# each wording was read as; then hostile input (a cut kernel log, control
# bytes, terminal escapes in the kernel log and /proc/cmdline, another
# machine's bare log, damaged bare logs), and the same
# verdicts in show and report.  The doctor's whole text for the 2026 log with
# the drifting HPET stays in $OUT/k71-hpet-hpet.txt.
# The Python that reads the answers is in the .py files beside this script
# (tests/doctor/verdicts_check.py and the others), where a linter can see it.
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
OUT=$BUILD/test-doctor
HERE=$(dirname "$0")
CORPUS=tests/data/klog
rm -rf "$OUT"
mkdir -p "$OUT"

if [ ! -x "$TP" ]; then
	fail "setup" "$TP is not built (make)"
	exit 1
fi

# --- the corpus: every line has its source --------------------------------------
if python3 "$HERE/mkklog.py" "$CORPUS" "$OUT/k" >"$OUT/names.txt" 2>"$OUT/mkklog.err"; then
	pass "corpus: $(wc -w <"$OUT/names.txt") kernel logs, every line after its @source"
else
	fail "corpus" "$(cat "$OUT/mkklog.err")"
	exit 1
fi
mkdir -p "$OUT/planted"
{ sed -n '1,/^@source/p' "$CORPUS/k71-hpet.klog" | grep -v '^@source'; echo "[    1.000000] clocksource: Switched to clocksource tsc"; } >"$OUT/planted/nosource.klog"
python3 "$HERE/mkklog.py" "$OUT/planted" "$OUT/planted.out" >/dev/null 2>"$OUT/planted.err"
rc=$?
if [ $rc -eq 1 ] && grep -q "nosource.klog:[0-9]*: a log line before any @source" "$OUT/planted.err"; then
	pass "a planted log line without a source is refused: $(cat "$OUT/planted.err")"
else
	fail "planted unsourced line" "exit $rc: $(cat "$OUT/planted.err")"
fi
sed 's/^@source url https:/@source url http:/' "$CORPUS/k510-propolis.klog" >"$OUT/planted/nosource.klog"
python3 "$HERE/mkklog.py" "$OUT/planted" "$OUT/planted.out" >/dev/null 2>"$OUT/planted.err"
if [ $? -eq 1 ] && grep -q "a source is" "$OUT/planted.err"; then
	pass "a source that is no address nor kernel version is refused"
else
	fail "planted bad source" "$(cat "$OUT/planted.err")"
fi

# --- the hardware stories ----------------------------------------------------------
for b in sync:"" skew:"tsc_skew=2:1000000"; do
	name=${b%%:*}
	opt=${b#*:}
	timeout 300 "$TP" qemu --kernel --icount --smp 4 --preset quick --timeout 240 \
		--options "counters=tsc,hpet,acpi-fast,i8254 $opt" -o "$OUT/$name-qemu.log" >"$OUT/$name-qemu.out" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 10 ]; then
		fail "setup" "tickprobe qemu ($name) exit $rc: $(tail -2 "$OUT/$name-qemu.out" | tr '\n' ' ')"
		exit 1
	fi
done
"$TP" doctor --json --no-measure --kernel-log "$OUT/k/k618-clean.log" --sysfs "$OUT/k/k618-clean.root" >"$OUT/ident.json"
for b in sync:sync: skew:skew: hpet:sync:--drift=hpet:7900 pm:sync:--drift=pm_timer:-1196 \
	noninv:sync:--not-invariant; do
	name=${b%%:*}
	rest=${b#*:}
	src=${rest%%:*}
	opt=$(echo "${rest#*:}" | tr '=' ' ')
	# shellcheck disable=SC2086 # opt is an option and its value, or nothing
	python3 "$HERE/mkbare.py" "$OUT/$src-qemu.log" "$OUT/$name.log" "$OUT/ident.json" $opt ||
		{ fail "setup" "mkbare.py $name"; exit 1; }
done

# doctor NAME KLOG BARE [more options]: the JSON in $OUT/NAME.json, the text in
# $OUT/NAME.txt, the exit status in $OUT/NAME.rc.
doctor() {
	n=$1 k=$2 b=$3
	shift 3
	if [ "$b" = none ]; then set -- "$@"; else set -- --bare "$OUT/$b.log" "$@"; fi
	"$TP" doctor --json --no-measure --kernel-log "$OUT/k/$k.log" --sysfs "$OUT/k/$k.root" "$@" \
		>"$OUT/$n.json" 2>"$OUT/$n.err"
	echo $? >"$OUT/$n.rc"
	"$TP" doctor --no-measure --kernel-log "$OUT/k/$k.log" --sysfs "$OUT/k/$k.root" "$@" >"$OUT/$n.txt" 2>&1
	echo $? >>"$OUT/$n.rc"
}

for k in $(cat "$OUT/names.txt") k510-propolis-kmsg; do
	for b in sync skew none; do
		doctor "$k-$b" "$k" "$b"
	done
done
for k in k71-hpet k510-propolis k612-skew; do
	doctor "$k-hpet" "$k" hpet
done
for k in k515-lede k61-param k61-idle; do
	doctor "$k-noninv" "$k" noninv
done
doctor k612-skew-pm k612-skew pm

# --- the watch names the clock (probe/watch.h) ------------------------------------
# A bare log whose watch saw the HPET run 7,900 ppm slow (fault=drift:), and a
# live one (`tickprobe os --watch-fake`): the doctor takes the watch's verdict
# over the calibration's.
timeout 300 "$TP" qemu --kernel --icount=2 --preset quick --timeout 240 \
	--options "counters=tsc,hpet,acpi-fast,i8254 slow_rates=off watch=3 fault=drift:hpet:-7900" \
	-o "$OUT/watch-qemu.log" >"$OUT/watch-qemu.out" 2>&1 ||
	{ fail "setup" "tickprobe qemu (watch): $(tail -2 "$OUT/watch-qemu.out" | tr '\n' ' ')"; exit 1; }
python3 "$HERE/mkbare.py" "$OUT/watch-qemu.log" "$OUT/watchhpet.log" "$OUT/ident.json" ||
	{ fail "setup" "mkbare.py watchhpet"; exit 1; }
doctor k71-hpet-watch k71-hpet watchhpet
if grep -q "Which clock is wrong: the HPET runs 7,900 ppm slow against the TSC, the PM timer and the PIT, which agree within [0-9.]* ppm (uncertainty [0-9.]* ppm), by a watch of every clock" "$OUT/k71-hpet-watch.txt" &&
	grep -q "^TSC: reliable (wrongly blamed: another clock is off)" "$OUT/k71-hpet-watch.txt"; then
	pass "a bare log's watch: the doctor names the HPET from it and says the TSC was wrongly blamed"
else
	fail "a bare log's watch" "$(grep -E 'Which clock|^TSC:' "$OUT/k71-hpet-watch.txt")"
fi
"$TP" os --watch 2 --watch-fake same:0,off:+7900 -q -o "$OUT/live-watch.log" 2>/dev/null
doctor k71-live-watch k71-hpet none --watch-log "$OUT/live-watch.log"
if grep -q "Which clock is wrong: off runs 7,900 ppm fast against the TSC, CLOCK_MONOTONIC_RAW and same, .*(live, under Linux)" "$OUT/k71-live-watch.txt"; then
	pass "--watch-log: the doctor reads a live watch's verdict"
else
	fail "--watch-log" "$(grep -E 'Which clock' "$OUT/k71-live-watch.txt")"
fi

python3 "$HERE/verdicts_check.py" "$OUT"
python3 "$HERE/wordings_check.py" "$OUT"

# --- hostile input --------------------------------------------------------------
# A kernel log cut in the middle of the watchdog's reference line.
n=$(grep -b "wd_now" "$OUT/k/k510-propolis.log" | cut -d: -f1)
head -c $((n + 40)) "$OUT/k/k510-propolis.log" >"$OUT/k/cut.log"
cp -r "$OUT/k/k510-propolis.root" "$OUT/k/cut.root"
doctor cut cut sync
python3 "$HERE/cut_log_check.py" "$OUT"
# A kernel log whose start the ring buffer overwrote.
tail -n 8 "$OUT/k/k510-propolis.log" >"$OUT/k/late.log"
cp -r "$OUT/k/k510-propolis.root" "$OUT/k/late.root"
doctor late late sync
if grep -q "first messages were overwritten" "$OUT/late.txt"; then pass "a kernel log that starts at 8996 s: said"; else fail "late log" "$(head -3 "$OUT/late.txt")"; fi
# Control bytes in a log line reach the terminal as \xNN, never as themselves.
printf '[ 1.000000] clocksource: Switched to clocksource \033]0;pwned\007tsc\n' >"$OUT/k/esc.log"
cp -r "$OUT/k/k618-clean.root" "$OUT/k/esc.root"
doctor esc esc none
if grep -q 'x1b]0;pwned' "$OUT/esc.txt" && ! grep -q "$(printf '\033')" "$OUT/esc.txt"; then
	pass "an escape sequence in a log line is shown as \\x1b, not sent to the terminal"
else
	fail "escape in the text" "$(grep -c "$(printf '\033')" "$OUT/esc.txt") raw ESC bytes"
fi
# Memory stays bounded: of 5,000 events the latest 4,096 at most are kept; of
# a file over 64 MiB (sparse here) the last 64 MiB are read.
i=0
while [ $i -lt 5000 ]; do echo "[ $i.000000] clocksource: Switched to clocksource tsc"; i=$((i + 1)); done >"$OUT/k/many.log"
echo "[ 5000.000000] clocksource: Switched to clocksource hpet" >>"$OUT/k/many.log"
cp -r "$OUT/k/k618-clean.root" "$OUT/k/many.root"
doctor many many none
truncate -s 65M "$OUT/k/big.log"
printf '\n[ 9.000000] clocksource: Switched to clocksource hpet\n' >>"$OUT/k/big.log"
cp -r "$OUT/k/k618-clean.root" "$OUT/k/big.root"
doctor big big none
python3 "$HERE/bounds_check.py" "$OUT"
rm -f "$OUT/k/big.log"
"$TP" doctor --no-measure --kernel-log "$OUT/k/nonexistent.log" --sysfs "$OUT/k/k510-propolis.root" >"$OUT/nolog.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "cannot read" "$OUT/nolog.out"; then pass "a kernel log that is not there: exit 2 with the reason"; else fail "missing kernel log" "exit $rc"; fi

# Another machine's bare log: the QEMU capture as it is.
"$TP" doctor --no-measure --kernel-log "$OUT/k/k510-propolis.log" --sysfs "$OUT/k/k510-propolis.root" --bare "$OUT/sync-qemu.log" >"$OUT/other.out" 2>"$OUT/other.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "is not this machine's: .*cpu_brand\|is not this machine's: cpu_vendor" "$OUT/other.err"; then
	pass "another machine's bare log: refused, exit 2: $(cat "$OUT/other.err")"
else
	fail "another machine's bare log" "exit $rc: $(cat "$OUT/other.err")"
fi
doctor other-same k510-propolis sync-qemu --same-machine
python3 "$HERE/same_machine_check.py" "$OUT"
# Damaged bare logs: a byte changed in the tsc_sync record; the log cut in half; not a log at all.
python3 "$HERE/damage_bare.py" "$OUT/sync.log" "$OUT/damaged.log"
doctor damaged k510-propolis damaged
if [ "$(head -1 "$OUT/damaged.rc")" = 0 ] && grep -q '"tsc_verdict":"unknown"' "$OUT/damaged.json" && grep -q "crc\|CRC\|damaged" "$OUT/damaged.err"; then
	pass "a bare log whose tsc_sync record is damaged: named on stderr, the verdict unknown, nothing recommended"
else
	fail "damaged bare log" "exit $(head -1 "$OUT/damaged.rc"): $(head -2 "$OUT/damaged.err")"
fi
head -c $(( $(wc -c <"$OUT/sync.log") / 2 )) "$OUT/sync.log" >"$OUT/half.log"
doctor half k510-propolis half
if grep -q '"tsc_verdict":"unknown"' "$OUT/half.json" && grep -q "end record\|cut short\|partial" "$OUT/half.err"; then
	pass "a bare log cut in half: said, verdict unknown (exit $(head -1 "$OUT/half.rc"))"
else
	fail "half bare log" "$(head -2 "$OUT/half.err") $(head -c 200 "$OUT/half.json")"
fi
head -c 3000 /dev/urandom >"$OUT/junk.log"
"$TP" doctor --no-measure --kernel-log "$OUT/k/k510-propolis.log" --sysfs "$OUT/k/k510-propolis.root" --bare "$OUT/junk.log" >/dev/null 2>"$OUT/junk.err"
rc=$?
if [ $rc -eq 2 ]; then pass "random bytes as the bare log: exit 2 ($(head -1 "$OUT/junk.err"))"; else fail "junk bare log" "exit $rc"; fi
# Terminal escapes in the kernel log, /proc/cmdline and DMI: shown escaped
# (tests/tools/evil_text.py), in the text and in the JSON.
cp -r "$OUT/k/k618-clean.root" "$OUT/k/evil.root"
printf '[    0.000000] Linux version 6.1.0\n[    1.700000] clocksource: Switched to clocksource hpet\033]0;PWNED\007\302\233x\n[    1.800000] clocksource: timekeeping watchdog on CPU1: Marking clocksource '"'"'tsc\033]0;PWNED\007'"'"' as unstable because the skew is too large:\n' >"$OUT/k/evil.log"
printf 'BOOT_IMAGE=/vmlinuz root=/dev/sda1 tsc=reliable\033]0;PWNED\007 quiet\n' >"$OUT/k/evil.root/proc/cmdline"
printf 'EvilCorp\033]0;PWNED\007\n' >"$OUT/k/evil.root/sys/class/dmi/id/sys_vendor"
doctor evil evil none
python3 tests/tools/evil_text.py "doctor: a hostile kernel log and command line" "$OUT/evil.txt" 4 0
python3 tests/tools/evil_text.py --json "doctor --json: the same" "$OUT/evil.json" 4 0
"$TP" doctor --no-measure --os-log "$OUT/k/k510-propolis.log" >/dev/null 2>&1
rc=$?
if [ $rc -eq 1 ]; then pass "--os-log with --no-measure: usage error, exit 1"; else fail "usage" "exit $rc"; fi

# --- the same verdicts in show and report -------------------------------------
"$TP" show "$OUT/skew.log" >"$OUT/show-skew.txt" 2>&1
"$TP" show --json "$OUT/sync.log" >"$OUT/show-sync.json" 2>&1
"$TP" report "$OUT/sync.log" "$OUT/skew.log" -o "$OUT/report.html" >/dev/null 2>&1
"$TP" db import "$OUT/fleet.db" "$OUT/sync.log" "$OUT/skew-qemu.log" -q >/dev/null 2>&1
"$TP" report --db "$OUT/fleet.db" --no-pages -o "$OUT/fleet.html" >/dev/null 2>&1
python3 "$HERE/show_report_check.py" "$OUT"
