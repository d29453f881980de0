#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Fault injection in QEMU: each case is one boot of the multiboot kernel
# (preset=quick, about 2 s under TCG, 1-2 s of it the RTC's tick check) with
# something broken on purpose, and
# an exact expected outcome: QEMU's exit status (the exit device's: 33 ok, 35
# ok-absent, 37 failed), the end record's status, and the message that says
# why.  Every log must also be valid as a whole (tests/boot/checklog.py's
# checks: crc of each record, seq, end.records and end.crc32).
# Prints PASS:/FAIL: lines, then the matrix case -> exit -> status -> message.
. tests/lib/check.sh
. tests/lib/boot.sh
ELF=$BUILD/tickprobe.elf32
FC="python3 tests/fault/faultcheck.py"
QEMU=${QEMU:-qemu-system-x86_64}
HANG_S=10  # a boot that takes 2 s (0.3 s, and the RTC's tick check: 1-2 s) and has not ended after this has hung
BOUND_S=15 # wall-time bound of a stuck-counter boot: a hang guard, not a benchmark

for t in "$QEMU" python3 timeout; do
	command -v "$t" >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
[ -f "$ELF" ] || { fail "setup: $ELF is not built (make all)"; exit 1; }

OUT=$(mktemp -d /tmp/tickprobe-fault.XXXXXX)
trap 'rm -rf "$OUT"' EXIT INT TERM
MATRIX=$OUT/matrix
: >"$MATRIX"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# QEMU itself, not `tickprobe qemu`: the faults are QEMU's own arguments
# (tables added with -acpitable, devices taken away, no serial port, the gdb
# stub), and the outcome read is QEMU's exit status.
#
# kboot NAME MACHINE "OPTIONS" [extra QEMU args...]: a -kernel boot with its
# serial log in $OUT/NAME.log.  CPU and MEM (env) override -cpu max, -m 256;
# TMO the timeout.  Sets $rc and $ms.  slow_rates=off: the RTC's rate check,
# 1-2.5 s a boot, only where the RTC is the fault (slow_rates=on there).
# thread=single: the CPUs (smp4's) take turns on one host thread; the faults
# are the subject, not CPUs at once.
kboot() {
	name=$1 machine=$2 opts=$3
	shift 3
	t0=$(now_ms)
	timeout "${TMO:-30}" "$QEMU" -machine "$machine" -accel tcg,thread=single -cpu "${CPU:-max}" -m "${MEM:-256}" \
		-kernel "$ELF" -append "preset=quick slow_rates=off${opts:+ $opts}" \
		-chardev "file,id=ser0,path=$OUT/$name.log" -serial chardev:ser0 \
		-device "$QEMU_EXIT_DEVICE" -no-reboot -nic none \
		-monitor none -display none "$@" >"$OUT/$name.err" 2>&1
	rc=$?
	ms=$(($(now_ms) - t0))
}

# expect_rc NAME WANT: QEMU's exit status.
expect_rc() {
	if [ "$rc" -eq "$2" ]; then
		pass "$1: QEMU exits $2 in $ms ms"
	else
		fail "$1: QEMU exits $rc, not $2 ($ms ms): $(tail -n 2 "$OUT/$1.err" | tr '\n' ' ')"
	fi
}

# matrix_check NAME MESSAGE_PATH [faultcheck options...]: validate the log, add the
# matrix row (case, exit status, end status, message).
matrix_check() {
	name=$1 msg=$2
	shift 2
	$FC "$OUT/$name.log" --label "$name" --message "$msg" --msg-out "$OUT/$name.msg" "$@"
	st=$(python3 tests/fault/faultcheck.py "$OUT/$name.log" --label x --message end.status --msg-out "$OUT/$name.st" >/dev/null 2>&1; cat "$OUT/$name.st" 2>/dev/null)
	printf '%s|%s|%s|%s\n' "$name" "$rc" "${st:-none}" "$(cat "$OUT/$name.msg" 2>/dev/null)" >>"$MATRIX"
}

# ---- ACPI: an HPET nobody answers for, two HPETs, a bad checksum, no ACPI ----

python3 tests/fault/mkacpi.py hpet "$OUT/hpet-feb.bin" --base 0xFEB00000 || fail "mkacpi: table not written"

# The only HPET table points at 0xFEB00000, where QEMU answers nothing (reads
# there come back 0 on pc): absent, with the address in the reason.
kboot hpet-nowhere pc,hpet=off "" -acpitable "file=$OUT/hpet-feb.bin"
expect_rc hpet-nowhere 35
matrix_check hpet-nowhere timer/hpet.reason --status ok-absent \
	--expect acpi.hpet.address=$((0xFEB00000)) --expect acpi.hpet.tables=1 \
	--expect timer/hpet.healthy=false --expect timer/hpet.samples=0 --expect timer/hpet64.healthy=false \
	--contains timer/hpet.reason~0xfeb00000 --absent tsc.sources.hpet \
	--text "0xfeb00000"

# Next to QEMU's own: two HPET tables.  The RSDT order is read from the guest
# through the gdb stub (gdbpoke.py --list); the probe must take the first.
port=$(free_port)
t0=$(now_ms)
timeout 30 "$QEMU" -machine pc -accel tcg -cpu max -m 256 -kernel "$ELF" -append "preset=quick slow_rates=off" \
	-chardev "file,id=ser0,path=$OUT/hpet-two.log" -serial chardev:ser0 \
	-device "$QEMU_EXIT_DEVICE" -no-reboot -nic none -monitor none -display none \
	-acpitable "file=$OUT/hpet-feb.bin" -S -gdb "tcp:127.0.0.1:$port" >"$OUT/hpet-two.err" 2>&1 &
qpid=$!
timeout 20 "$PYTHON3" tests/fault/gdbpoke.py "$port" "$ELF" HPET --list >"$OUT/hpet-two.tables" 2>&1
wait $qpid
rc=$? ms=$(($(now_ms) - t0))
# Which HPET the probe must take follows from the guest's own RSDT: the
# first HPET table listed.  Both bases are read from the tables in guest
# memory, so a probe that took the second table, or an RSDT without both,
# fails here whichever order QEMU chose.
bases=$(awk '$1 == "table" && $2 == "HPET" && $5 == "base" { print $6 }' "$OUT/hpet-two.tables")
first=$(echo "$bases" | sed -n 1p) second=$(echo "$bases" | sed -n 2p)
echo "RSDT order: $(awk '{ printf "%s(%s%s) ", $2, $3, $6 ? " " $6 : "" }' "$OUT/hpet-two.tables")"
expect_rc hpet-two 33
if [ "$(echo "$bases" | sort | tr '\n' ' ')" = "0xfeb00000 0xfed00000 " ]; then
	pass "hpet-two: the RSDT lists two HPET tables, bases $first then $second"
else
	fail "hpet-two: the RSDT does not list QEMU's HPET and the -acpitable one: $(tr '\n' '|' <"$OUT/hpet-two.tables")"
fi
# The first one is used (QEMU's answers, healthy; the other, nothing), the
# second named as not used.  The timer record has no address: the acpi
# record's is the one used.
if [ "$first" = 0xfed00000 ]; then
	st=ok healthy=true
else
	st=ok-absent healthy=false
fi
matrix_check hpet-two acpi.problems --status $st --expect acpi.hpet.tables=2 \
	--expect acpi.hpet.address=$((first)) --contains "acpi.problems~a second HPET at $second, not used" \
	--absent timer/hpet.address --expect timer/hpet.healthy=$healthy

# An HPET table whose base is above what the probe maps (the BIOS path maps
# 0..4 GiB): the block is never touched, the counter is absent with the
# reason, and no exception ends the run.
python3 tests/fault/mkacpi.py hpet "$OUT/hpet-high.bin" --base 0x200000000 || fail "mkacpi: table not written"
kboot hpet-high pc,hpet=off "" -acpitable "file=$OUT/hpet-high.bin"
expect_rc hpet-high 35
matrix_check hpet-high timer/hpet.reason --status ok-absent --expect acpi.hpet.address=$((0x200000000)) \
	--expect timer/hpet.present=false --expect timer/hpet64.present=false \
	--contains "timer/hpet.reason~HPET at 0x200000000 cannot be reached" --absent exception \
	--expect timer/tsc.healthy=true

# A bad checksum: QEMU fixes the checksum of every -acpitable, so the table's
# checksum byte is changed in the guest after SeaBIOS has placed it (gdb stub,
# breakpoint at the kernel's entry).
port=$(free_port)
t0=$(now_ms)
timeout 30 "$QEMU" -machine pc,hpet=off -accel tcg -cpu max -m 256 -kernel "$ELF" -append "preset=quick slow_rates=off" \
	-chardev "file,id=ser0,path=$OUT/hpet-badsum.log" -serial chardev:ser0 \
	-device "$QEMU_EXIT_DEVICE" -no-reboot -nic none -monitor none -display none \
	-acpitable "file=$OUT/hpet-feb.bin" -S -gdb "tcp:127.0.0.1:$port" >"$OUT/hpet-badsum.err" 2>&1 &
qpid=$!
if timeout 20 "$PYTHON3" tests/fault/gdbpoke.py "$port" "$ELF" HPET --oem TPTEST >"$OUT/hpet-badsum.poke" 2>&1; then
	pass "hpet-badsum: $(cat "$OUT/hpet-badsum.poke")"
else
	fail "hpet-badsum: checksum not spoiled: $(cat "$OUT/hpet-badsum.poke")"
fi
wait $qpid
rc=$? ms=$(($(now_ms) - t0))
expect_rc hpet-badsum 35
matrix_check hpet-badsum acpi.problems --status ok-absent --expect acpi.hpet=null \
	--contains "acpi.problems~bad checksum, ignored" --contains "acpi.problems~HPET table" \
	--expect timer/hpet.present=false --contains "timer/hpet.reason~table damaged"

kboot no-acpi pc "" -no-acpi
expect_rc no-acpi 35
matrix_check no-acpi acpi.problems --status ok-absent --expect acpi.rsdp=null --expect acpi.pm_timer=null \
	--expect acpi.hpet=null --problem "no RSDP" --expect timer/acpi-fast.present=false \
	--expect timer/hpet.present=false

kboot hpet-off pc,hpet=off ""
expect_rc hpet-off 35
matrix_check hpet-off timer/hpet.reason --status ok-absent --expect acpi.hpet=null --expect acpi.hpet=null \
	--expect timer/hpet.present=false --contains "timer/hpet.reason~no HPET"

# ---- the CPU and the machine ----

CPU=qemu64 kboot cpu-qemu64 pc ""
expect_rc cpu-qemu64 35
matrix_check cpu-qemu64 timer/rdtscp.reason --status ok-absent --expect machine.rdtscp=false \
	--expect machine.invariant_tsc=false --expect timer/rdtscp.present=false \
	--contains timer/rdtscp.reason~RDTSCP --expect overhead.sequence='"lfence-rdtsc-lfence"'

kboot smp4 pc "" -smp 4
expect_rc smp4 33
matrix_check smp4 machine.cores --status ok --expect machine.cores=4
# slow_rates=off, as every kboot here: the RTC's costs measured, its rate not
# timed (no freq), and the begin record and the screen say so.
if out=$($FC "$OUT/smp4.log" --label smp4 --expect begin.options.slow_rates=false --expect timer/rtc.healthy=true \
	--expect timer/rtc-time.healthy=true --absent timer/rtc.freq --absent timer/rtc-time.freq \
	--text "rtc           rate not timed (slow_rates=off)" 2>&1); then
	pass "smp4: slow_rates=off: rtc and rtc-time measured, their rates not timed, and both records say so"
else
	fail "smp4: slow_rates=off: $(printf '%s\n' "$out" | grep FAIL | head -n 2 | tr '\n' ' ')"
fi

# x2APIC asked for: QEMU 7.2's TCG warns and keeps the xAPIC, so lapic-x2
# is absent with the CPUID reason and lapic is measured.  Named in
# counters=, the absent one makes the run ok-absent; among all counters it
# is absent by design: no timer record, its reason in plan.absent, and the
# run is ok.  The xAPIC's address is the acpi record's (the MADT's).
CPU=max,+x2apic kboot cpu-x2apic pc "counters=lapic,lapic-x2,tsc"
expect_rc cpu-x2apic 35
grep -q "TCG doesn't support requested feature: CPUID.01H:ECX.x2apic" "$OUT/cpu-x2apic.err" &&
	pass "cpu-x2apic: QEMU says TCG has no x2APIC" || fail "cpu-x2apic: no QEMU warning about x2apic"
matrix_check cpu-x2apic timer/lapic-x2.reason --status ok-absent --expect timer/lapic-x2.present=false \
	--contains "timer/lapic-x2.reason~CPUID.01H:ECX[21] clear: no x2APIC" --expect timer/lapic.healthy=true \
	--expect plan.absent='{}' --expect acpi.madt.lapic_address=$((0xFEE00000)) --absent timer/lapic.address \
	--expect timer/lapic.freq.nominal_hz=null
CPU=max,+x2apic kboot cpu-x2apic-all pc ""
expect_rc cpu-x2apic-all 33
matrix_check cpu-x2apic-all plan.absent.lapic-x2 --status ok --absent timer/lapic-x2 \
	--expect plan.absent.lapic-x2='"CPUID.01H:ECX[21] clear: no x2APIC"' \
	--contains "plan.absent.kvmclock~the hypervisor is TCGTCGTCGTCG, not KVM" \
	--absent timer/kvmclock --expect timer/lapic.healthy=true --expect timer/rtc.healthy=true \
	--text "absent by design: lapic-x2 tsc-deadline rdpid kvmclock hv-refcount hv-tsc-page"
# The host command shows them too, from plan.absent: a line each under the
# table, and "absent" in show --json.
if "$TP" show "$OUT/cpu-x2apic-all.log" >"$OUT/cpu-x2apic-all.show" 2>&1 &&
	grep -q "^lapic-x2  *absent by design: CPUID.01H:ECX\[21\] clear: no x2APIC$" "$OUT/cpu-x2apic-all.show" &&
	[ "$(grep -c ' absent by design: ' "$OUT/cpu-x2apic-all.show")" -eq 6 ]; then
	pass "cpu-x2apic-all: tickprobe show lists the 6 counters absent by design with their reasons"
else
	fail "cpu-x2apic-all: tickprobe show does not list the counters absent by design: $(tail -n 4 "$OUT/cpu-x2apic-all.show" | tr '\n' '|')"
fi
# lapic has no nominal rate under TCG (CPUID 0x15 gives no crystal): show
# gives its measured rate, in MHz, where the others give their error.
want=$(python3 tests/fault/lapic_rate.py "$OUT/cpu-x2apic-all.log" 2>/dev/null)
if [ -n "$want" ] && grep -q "^lapic .* $want  ok$" "$OUT/cpu-x2apic-all.show"; then
	pass "cpu-x2apic-all: tickprobe show gives lapic's measured rate, $want"
else
	fail "cpu-x2apic-all: show does not give lapic's measured rate ($want)" "$(grep '^lapic ' "$OUT/cpu-x2apic-all.show")"
fi
"$TP" show --json "$OUT/cpu-x2apic-all.log" | python3 tests/fault/absent_json.py &&
	pass "cpu-x2apic-all: show --json gives absent.lapic-x2 and its reason" ||
	fail "cpu-x2apic-all: show --json has no absent member for the counters absent by design"
"$TP" report "$OUT/cpu-x2apic-all.log" -o "$OUT/cpu-x2apic-all.html" >/dev/null 2>&1 &&
	grep -q "<li><b>lapic-x2</b>: CPUID.01H:ECX\[21\] clear: no x2APIC</li>" "$OUT/cpu-x2apic-all.html" &&
	pass "cpu-x2apic-all: tickprobe report lists lapic-x2 as absent by design, with its reason" ||
	fail "cpu-x2apic-all: tickprobe report does not list the counters absent by design"
"$TP" db import "$OUT/x2apic.db" "$OUT/cpu-x2apic-all.log" -q >/dev/null 2>&1 &&
	[ "$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from counters where present = 0 and name = ? and reason = ?", ("lapic-x2", "CPUID.01H:ECX[21] clear: no x2APIC")).fetchone()[0])' "$OUT/x2apic.db")" = 1 ] &&
	pass "cpu-x2apic-all: tickprobe db stores lapic-x2 as absent, with its reason" ||
	fail "cpu-x2apic-all: tickprobe db has no absent row for lapic-x2"

# Counters named that this machine lacks by design: absent with their
# reasons in timer records of their own (none in plan.absent), and since
# they were asked for, the run is ok-absent.
kboot absent-asked pc "counters=kvmclock,lapic-x2,hv-tsc-page,tsc-deadline,rdpid"
expect_rc absent-asked 35
matrix_check absent-asked timer/kvmclock.reason --status ok-absent --expect timer/kvmclock.present=false \
	--contains "timer/kvmclock.reason~the hypervisor is TCGTCGTCGTCG, not KVM" \
	--contains "timer/hv-tsc-page.reason~not Microsoft Hv" \
	--contains "timer/tsc-deadline.reason~CPUID.01H:ECX[24] clear: no TSC-deadline timer" \
	--contains "timer/rdpid.reason~CPUID.(EAX=7,ECX=0):ECX[22] clear: no RDPID" \
	--contains "timer/lapic-x2.reason~no x2APIC" --absent timer/tsc --text "kvmclock      skipped: the hypervisor is" \
	--expect plan.absent='{}' --absent timer/kvmclock.method \
	--order timer/lapic-x2,timer/tsc-deadline,timer/rdpid,timer/kvmclock,timer/hv-tsc-page,end

# The MADT's local APIC address against IA32_APIC_BASE: a second MADT
# (-acpitable) whose Local APIC Address Override (type 5) says 0xFEB00000.
# QEMU lists its own MADT first and the probe uses the first, so the RSDT's
# two entries are swapped in the guest (gdbpoke.py --first) before the probe
# starts: the override is then the MADT's word, the CPU's MSR still says
# 0xFEE00000, and the MSR's is read, with a note.
python3 tests/fault/mkacpi.py madt "$OUT/madt-feb.bin" --base 0xFEB00000 || fail "mkacpi: MADT not written"
port=$(free_port)
t0=$(now_ms)
timeout 30 "$QEMU" -machine pc -accel tcg -cpu max -m 256 -kernel "$ELF" -append "preset=quick counters=lapic" \
	-chardev "file,id=ser0,path=$OUT/madt-override.log" -serial chardev:ser0 \
	-device "$QEMU_EXIT_DEVICE" -no-reboot -nic none -monitor none -display none \
	-acpitable "file=$OUT/madt-feb.bin" -S -gdb "tcp:127.0.0.1:$port" >"$OUT/madt-override.err" 2>&1 &
qpid=$!
if timeout 20 "$PYTHON3" tests/fault/gdbpoke.py "$port" "$ELF" APIC --oem TPTEST --first >"$OUT/madt-override.poke" 2>&1; then
	pass "madt-override: $(cat "$OUT/madt-override.poke")"
else
	fail "madt-override: RSDT not reordered: $(cat "$OUT/madt-override.poke")"
fi
wait $qpid
rc=$? ms=$(($(now_ms) - t0))
expect_rc madt-override 33
matrix_check madt-override timer/lapic.note --status ok --expect acpi.madt.oem_id='"TPTEST"' \
	--expect acpi.madt.lapic_address=$((0xFEB00000)) --expect acpi.madt.tables=2 \
	--expect timer/lapic.healthy=true --absent timer/lapic.address \
	--contains "timer/lapic.note~the MADT says 0xfeb00000, IA32_APIC_BASE 0xfee00000: the MSR's is read"
# Without the swap: the override is in the second MADT, reported, not used.
kboot madt-second pc "counters=lapic" -acpitable "file=$OUT/madt-feb.bin"
expect_rc madt-second 33
matrix_check madt-second acpi.problems --status ok --expect acpi.madt.oem_id='"BOCHS"' \
	--expect acpi.madt.lapic_address=$((0xFEE00000)) --contains "acpi.problems~a second MADT" \
	--expect timer/lapic.healthy=true --absent timer/lapic.note

# ---- memory: the smallest -m that still gives a whole, valid log ----

# mem_boot BOOT M BOUND: one boot with -m M, ended after BOUND seconds.
# Sets $rc and $ms, and $timed_out to yes when the bound ended it.  Both
# boots leave the RTC's rate out (slow_rates=off, as kboot does): its wait
# takes no memory.
mem_boot() {
	timed_out=no
	if [ "$1" = kernel ]; then
		MEM=$2 TMO=$3 kboot "mem-$2" pc ""
		[ "$rc" -eq 124 ] && timed_out=yes
		return
	fi
	t0=$(now_ms)
	"$TP" qemu --preset quick --options slow_rates=off --memory "$2" --timeout "$3" -o "$OUT/mem-$2.log" \
		>"$OUT/mem-$2.err" 2>&1 &
	qpid=$!
	# GRUB that runs out of memory says so on the serial line, then
	# waits for a key until the hang guard: its message ends the boot
	# (tickprobe passes the TERM on to QEMU), which would otherwise cost
	# the whole bound of each failing boot of the bisection.
	while kill -0 "$qpid" 2>/dev/null; do
		if grep -q 'error: out of memory' "$OUT/mem-$2.log" 2>/dev/null; then
			kill "$qpid" 2>/dev/null
			break
		fi
		sleep 0.1
	done
	wait "$qpid"
	rc=$?
	ms=$(($(now_ms) - t0))
	grep -q 'timed out after' "$OUT/mem-$2.err" && timed_out=yes
}

# mem_ok BOOT M: 0 when a boot with -m M ends with a valid log.  Too little
# memory ends a boot at once (a reset, a failed run, GRUB's message), so a
# boot that ran into its bound proves nothing: a loaded host slowed it.  It
# is booted once more with twice the bound, and only a second hang counts.
# Through the firmware and GRUB a disk boot takes several times a -kernel
# boot's time: three hang bounds.
mem_ok() {
	bound=$HANG_S
	[ "$1" = kernel ] || bound=$((3 * HANG_S))
	mem_boot "$1" "$2" "$bound"
	echo "memory: $1 boot with -m $2: exit $rc in $ms ms"
	if [ "$timed_out" = yes ]; then
		mem_boot "$1" "$2" $((2 * bound))
		echo "memory: $1 boot with -m $2 ran into its bound of $bound s; again: exit $rc in $ms ms"
	fi
	python3 tests/boot/checklog.py "$OUT/mem-$2.log" >/dev/null 2>&1
}

# smallest BOOT: bisection over 1..16 MiB, 16 known good.
smallest() {
	lo=0 hi=16
	mem_ok "$1" 16 >&2 || { echo 0; return; }
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		if mem_ok "$1" $mid >&2; then hi=$mid; else lo=$mid; fi
	done
	echo $hi
}
for b in kernel image; do
	if [ $b = image ] && [ ! -f "$BUILD/tickprobe.img" ]; then
		echo "memory: no $BUILD/tickprobe.img, disk boot skipped"
		continue
	fi
	rm -f "$OUT"/mem-*.log
	m=$(smallest $b)
	if [ "$m" -eq 0 ]; then
		fail "memory-$b: no valid log even with -m 16"
		continue
	fi
	# Both ends of the answer, once more: M gives a valid log, M-1 does not.
	if mem_ok $b "$m" >/dev/null; then
		pass "memory-$b: -m $m MiB gives a whole, valid log"
	else
		fail "memory-$b: -m $m MiB did not give a valid log on a second boot"
	fi
	if [ "$m" -gt 1 ]; then
		if mem_ok $b $((m - 1)) >/dev/null; then
			fail "memory-$b: -m $((m - 1)) MiB gave a valid log too: bisection wrong"
		else
			pass "memory-$b: -m $((m - 1)) MiB does not end with a log (exit $rc, $(wc -c <"$OUT/mem-$((m - 1)).log" 2>/dev/null || echo 0) serial bytes)"
		fi
	fi
	echo "SMALLEST MEMORY ($b boot): $m MiB"
	printf '%s|%s|%s|%s\n' "memory-$b" "-" "-" "smallest -m: $m MiB (-m $((m - 1)) hangs or fails)" >>"$MATRIX"
done

# ---- no serial port: the run still ends, and the results are on screen ----

# With the exit device: the exit status alone says how it ended.
t0=$(now_ms)
timeout 30 "$QEMU" -machine pc -accel tcg -cpu max -m 256 -kernel "$ELF" -append "preset=quick slow_rates=off" \
	-serial none -device "$QEMU_EXIT_DEVICE" -no-reboot -nic none \
	-monitor none -display none >"$OUT/no-serial-exit.err" 2>&1
rc=$? ms=$(($(now_ms) - t0))
expect_rc no-serial-exit 33
printf '%s|%s|%s|%s\n' no-serial-exit "$rc" "(no log)" "exit status alone" >>"$MATRIX"

# Without the exit device the probe halts (cli; hlt) with its results on the
# screen; read the VGA text buffer through the monitor, then quit.
sock=$OUT/mon.sock
t0=$(now_ms)
timeout 30 "$QEMU" -machine pc -accel tcg -cpu max -m 256 -kernel "$ELF" -append "preset=quick slow_rates=off" \
	-serial none -no-reboot -nic none -monitor "unix:$sock,server,nowait" -display none \
	>"$OUT/no-serial.err" 2>&1 &
qpid=$!
timeout 25 "$PYTHON3" tests/fault/vgascreen.py "$sock" "$OUT/screen.txt" --until "run ended" --timeout 20 --quit
seen=$?
wait $qpid
rc=$? ms=$(($(now_ms) - t0))
if [ $seen -eq 0 ]; then
	pass "no-serial: the screen shows 'run ended' ($ms ms, QEMU quit through the monitor, exit $rc)"
else
	fail "no-serial: no 'run ended' on screen within 20 s: $(tail -n 3 "$OUT/screen.txt" | tr '\n' '|')"
fi
missing=""
for c in tsc rdtscp tsc-lfence hpet hpet64 acpi-fast acpi-safe i8254 i8254-inb40 i8254-outb43 port80 \
	lapic rtc rtc-time; do
	grep -q "^$c  *[0-9.]" "$OUT/screen.txt" || missing="$missing $c"
done
if [ -z "$missing" ]; then
	pass "no-serial: every counter has its row of results on screen"
else
	fail "no-serial: no result row on screen for:$missing"
fi
# The counters TCG lacks by design: one line, not six rows.
if grep -q "^absent by design: lapic-x2 tsc-deadline rdpid kvmclock hv-refcount hv-tsc-page" "$OUT/screen.txt"; then
	pass "no-serial: the counters absent by design are one line on screen"
else
	fail "no-serial: no 'absent by design' line listing the six counters TCG lacks"
fi
status_line=$(grep 'run ended, status' "$OUT/screen.txt")
case $status_line in
*"status ok,"*) pass "no-serial: screen status line: $status_line" ;;
*) fail "no-serial: no 'status ok' line on screen: '$status_line'" ;;
esac
echo "--- screen at the end ---"
sed 's/^/| /' "$OUT/screen.txt"
printf '%s|%s|%s|%s\n' no-serial-screen "halt" "$(echo "$status_line" | sed 's/.*status \([a-z-]*\).*/\1/')" "$status_line" >>"$MATRIX"

# ---- bad boot options: reported, defaults kept, the run goes on ----

kboot bad-options pc "bogus=1 samples=abc rounds=100000 raw=-5"
expect_rc bad-options 33
matrix_check bad-options begin.option_problems --status ok \
	--contains "begin.option_problems~unknown option 'bogus', ignored" \
	--contains "begin.option_problems~option samples: 'abc' is not a whole number in 100..10000000, default kept" \
	--contains "begin.option_problems~option rounds: '100000' is not a whole number in 1..100, default kept" \
	--contains "begin.option_problems~option raw: '-5' is not a whole number in 0..100000, default kept" \
	--expect begin.options.samples=10000 --expect begin.options.rounds=10 --expect begin.options.raw_samples=0 \
	--text "tickprobe: unknown option 'bogus', ignored" \
	--text "tickprobe: option samples: 'abc' is not a whole number in 100..10000000, default kept" \
	--expect timer/tsc.samples=10000

# A counter name that is none of the counters: reported with the names, the
# run goes on with the default (every counter) or with the names it knows.
kboot counters-unknown pc "counters=hpte"
expect_rc counters-unknown 33
matrix_check counters-unknown begin.option_problems --status ok \
	--contains "begin.option_problems~option counters: unknown counter 'hpte', ignored; the counters are tsc, rdtscp, tsc-lfence, hpet, hpet64, acpi-fast, acpi-safe, i8254, i8254-inb40, i8254-outb43, port80, lapic, lapic-x2, tsc-deadline, rtc, rtc-time, rdpid, kvmclock, hv-refcount, hv-tsc-page" \
	--text "tickprobe: option counters: unknown counter 'hpte'" --expect timer/hpet.healthy=true \
	--expect timer/port80.healthy=true
kboot stuck-unknown pc "counters=hpet,hpte stuck=hpte"
expect_rc stuck-unknown 33
matrix_check stuck-unknown begin.option_problems --status ok \
	--contains "begin.option_problems~option counters: unknown counter 'hpte'" \
	--contains "begin.option_problems~option stuck: unknown counter 'hpte', ignored" \
	--text "tickprobe: option stuck: unknown counter 'hpte'" --expect timer/hpet.healthy=true \
	--absent timer/tsc

# ---- memory: the size from the multiboot memory map, every range of RAM ----

# 6 GiB: 3 GiB below the PCI hole, 3 GiB above 4 GiB.  mem_upper alone would
# stop at the hole (3071 MiB).
MEM=6G kboot mem-6g pc "counters=tsc"
expect_rc mem-6g 33
mib=$(python3 tests/fault/faultcheck.py "$OUT/mem-6g.log" --label x --message machine.memory_mib --msg-out "$OUT/mem-6g.mib" >/dev/null 2>&1; cat "$OUT/mem-6g.mib" 2>/dev/null)
if [ "${mib:-0}" -ge 6100 ] 2>/dev/null && [ "$mib" -le 6144 ]; then
	pass "mem-6g: machine.memory_mib is $mib for -m 6G"
else
	fail "mem-6g: machine.memory_mib is '${mib}' for -m 6G, not about 6144"
fi
printf '%s|%s|%s|%s\n' mem-6g "$rc" ok "memory_mib $mib" >>"$MATRIX"

# ---- CPU exceptions: fault=gp / fault=pf after the first counter ----

for f in gp:13 pf:14; do
	kind=${f%:*} vec=${f#*:}
	kboot "fault-$kind" pc "fault=$kind"
	expect_rc "fault-$kind" 37
	matrix_check "fault-$kind" exception.name --status failed --expect exception.vector="$vec" \
		--expect exception.step='"tsc"' --expect timer/tsc.healthy=true \
		--order timer/tsc,exception,end --absent timer/rdtscp \
		--text "CPU exception" --text "status failed"
done
# After the first counter measured, whichever is selected.
kboot fault-gp-hpet pc "counters=hpet fault=gp"
expect_rc fault-gp-hpet 37
matrix_check fault-gp-hpet exception.name --status failed --expect exception.vector=13 \
	--expect exception.step='"hpet"' --expect timer/hpet.healthy=true --order timer/hpet,exception,end \
	--absent timer/tsc --text "CPU exception"
# The page fault's address is the one fault=pf touches (0x7ffffffff000).
$FC "$OUT/fault-pf.log" --label fault-pf --expect exception.cr2=$((0x7ffffffff000)) >/dev/null &&
	pass "fault-pf: cr2 is 0x7ffffffff000" || fail "fault-pf: cr2 is not 0x7ffffffff000"

# Once under UEFI (OVMF, q35; about 3 s).
if [ -x "$TP" ] && [ -f "$BUILD/tickprobe.img" ] && [ -f /usr/share/ovmf/OVMF.fd ]; then
	t0=$(now_ms)
	"$TP" qemu --firmware uefi --machine q35 --preset quick --options "slow_rates=off fault=gp" --timeout 60 \
		-o "$OUT/fault-gp-uefi.log" >"$OUT/fault-gp-uefi.err" 2>&1
	rc=$? ms=$(($(now_ms) - t0))
	if [ $rc -eq 11 ] && grep -q "QEMU exit 37" "$OUT/fault-gp-uefi.err"; then
		pass "fault-gp-uefi: tickprobe qemu exits 11 (QEMU exit 37) in $ms ms"
	else
		fail "fault-gp-uefi: exit $rc: $(tail -n 2 "$OUT/fault-gp-uefi.err" | tr '\n' ' ')"
	fi
	rc="11/37"
	matrix_check fault-gp-uefi exception.name --status failed --expect exception.vector=13 \
		--expect begin.boot='"uefi"' --expect exception.step='"tsc"' --order timer/tsc,exception,end
else
	fail "fault-gp-uefi: needs $TP, $BUILD/tickprobe.img and OVMF (make all, make deps)"
fi

# ---- counters that do not count: bounded waits ----

for s in hpet acpi-fast i8254; do
	kboot "stuck-$s" pc "stuck=$s"
	expect_rc "stuck-$s" 35
	if [ "$ms" -lt $((BOUND_S * 1000)) ]; then
		pass "stuck-$s: the whole boot took $ms ms, under the ${BOUND_S} s hang guard"
	else
		fail "stuck-$s: the boot took $ms ms, over ${BOUND_S} s"
	fi
	matrix_check "stuck-$s" "timer/$s.reason" --status ok-absent --expect "timer/$s.healthy=false" \
		--expect "timer/$s.present=true" --contains "timer/$s.reason~does not count (stuck at 0x1234 for" \
		--text "stuck=$s: its reads now return a constant" --expect timer/port80.healthy=true
	# The reason carries the bound that ended the wait: 2^28 TSC cycles or
	# 2^22 reads (platform/pc.c's clock.max_wait_*).
	python3 tests/fault/stuck_bound.py "$OUT/stuck-$s.log" "$s" && pass "stuck-$s: the wait ended at its bound" || fail "stuck-$s: the reason does not show the wait reaching 2^28 cycles or 2^22 reads"
done
# An RTC that never ticks: its tick check waits 1.25 s for the seconds to
# change (probe/run_clocks.c: one period and a quarter), so rtc is unhealthy
# after that bound, and rtc-time, whose rate is the rtc's, with it.
kboot stuck-rtc pc "slow_rates=on stuck=rtc counters=rtc,rtc-time,tsc"
expect_rc stuck-rtc 35
if [ "$ms" -lt $((BOUND_S * 1000)) ]; then
	pass "stuck-rtc: the whole boot took $ms ms, under the ${BOUND_S} s hang guard"
else
	fail "stuck-rtc: the boot took $ms ms, over ${BOUND_S} s"
fi
matrix_check stuck-rtc timer/rtc.reason --status ok-absent --expect timer/rtc.healthy=false --expect timer/rtc.present=true \
	--contains "timer/rtc.reason~rtc does not tick (stuck at 0x34 for" --contains "timer/rtc.reason~the bound is 1.25 s" \
	--expect timer/rtc-time.healthy=false --contains "timer/rtc-time.reason~rtc: rtc does not tick" --absent begin.options.slow_rates \
	--text "stuck=rtc: its reads now return a constant" --expect timer/tsc.healthy=true
python3 tests/fault/stuck_rtc.py "$OUT/stuck-rtc.log" && pass "stuck-rtc: the wait ended at 1.25 s of the TSC" || fail "stuck-rtc: the reason does not show a 1.25 s wait"

# A stuck PM timer or PIT must not stop the calibration: the TSC frequency
# comes from another counter.
$FC "$OUT/stuck-hpet.log" --label stuck-hpet --absent tsc.sources.hpet --contains tsc.source~p >/dev/null &&
	pass "stuck-hpet: TSC calibrated from another counter" || fail "stuck-hpet: the TSC frequency came from the stuck HPET"

# ---- the matrix ----
echo
echo "Fault matrix (case | exit status | end status | message):"
awk -F'|' '{ printf "  %-17s %-6s %-10s %s\n", $1, $2, $3, $4 }' "$MATRIX"
