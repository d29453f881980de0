#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe qemu --linux: Debian's cloud kernel under TCG on q35 with -smp 2,
# its initramfs running `tickprobe os --switch --raw-io --quick --threads 2`,
# then the probe on the same machine, then compare.  The kernel is fetched
# the way a user's first run fetches it (apt-get download into the cache,
# here $BUILD/cache), once; later runs find it there.  Then bad input: no
# kernel file, a file of random bytes, a kernel that panics, a guest that
# never sends its log; each must end with a clear message in bounded time.
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
OUT=$BUILD/test-linux
export XDG_CACHE_HOME
XDG_CACHE_HOME=$(cd "$BUILD" && pwd)/cache
rm -rf "$OUT"
mkdir -p "$OUT"

now() { date +%s; }

for f in "$TP" "$BUILD/tickprobe-static" "$BUILD/tickprobe.img"; do
	if [ ! -e "$f" ]; then
		fail "setup" "$f is not built (make all)"
		exit 1
	fi
done

# --- the guest and the probe, compared ---------------------------------------
t0=$(now)
timeout 600 "$TP" qemu --linux --machine q35 --smp 2 --preset quick --options slow_rates=off --timeout 300 \
	--os-options "--switch --raw-io --quick --threads 2" --keep "$OUT/run" >"$OUT/run.out" 2>"$OUT/run.err"
rc=$?
secs=$(( $(now) - t0 ))
echo "guest run and probe run: exit $rc in $secs s"
sed 's/^/  | /' "$OUT/run.err"
ok "qemu --linux: exit 0, both logs complete" "$([ $rc -eq 0 ]; echo $?)" "exit $rc: $(tail -3 "$OUT/run.err" | tr '\n' ' ')"
if [ ! -s "$OUT/run/os.log" ]; then
	fail "qemu --linux" "no OS log came back (see $OUT/run.err)"
	exit 1
fi
ok "the kernel came from the cache or from apt-get download into it" \
	"$(ls "$XDG_CACHE_HOME"/tickprobe/linux/vmlinuz-* >/dev/null 2>&1; echo $?)" "nothing in $XDG_CACHE_HOME/tickprobe/linux"

python3 tests/linux/run_check.py "$OUT/run" "$OUT/run.out"
[ $? = 0 ] || fail "the record checks" "python stopped before the end of its checks (see above)"

# The split's figures, recomputed from the two logs: the medians of the
# per-round p50 values, and each difference with its 95% interval as Debian's
# ministat gives it for the same values (schema 2 keeps `rounds` in ns, so
# nothing here depends on the members the host derives).
if command -v ministat >/dev/null 2>&1; then
	mkdir -p "$OUT/ministat"
	python3 tests/linux/split_check.py "$OUT/run" "$OUT/run.out" "$OUT/ministat"
	[ $? = 0 ] || fail "the split checks" "python stopped before the end of its checks (see above)"
else
	fail "the split checks" "ministat is not installed (apt-get install ministat)"
fi

# --- bad input: each a clear message, in bounded time --------------------------
# bad NAME WANT_RC MAX_S PATTERN [options]
bad() {
	name=$1 want=$2 max=$3 pattern=$4
	shift 4
	t0=$(now)
	timeout $((max + 60)) "$TP" qemu --machine q35 "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
	rc=$?
	secs=$(( $(now) - t0 ))
	echo "$name: exit $rc in $secs s: $(grep 'tickprobe qemu' "$OUT/$name.err" | tail -2 | tr '\n' ' ')"
	ok "$name: exit $want with \"$pattern\" within $max s" \
		"$([ $rc -eq "$want" ] && grep -q "$pattern" "$OUT/$name.err" && [ $secs -le "$max" ]; echo $?)" \
		"exit $rc after $secs s: $(tail -2 "$OUT/$name.err" | tr '\n' ' ')"
}
bad missing 2 5 "no kernel file $OUT/nonexistent" --linux "$OUT/nonexistent"
head -c 1048576 /dev/urandom >"$OUT/random.bin"
bad corrupt 2 5 "is not a Linux kernel image" --linux "$OUT/random.bin"
K=$(ls "$XDG_CACHE_HOME"/tickprobe/linux/vmlinuz-* 2>/dev/null | tail -1)
head -c 3000000 "$K" >"$OUT/cut.bin" 2>/dev/null
bad truncated 2 5 "is cut short" --linux "$OUT/cut.bin"
bad panic 2 120 "the guest kernel panicked" --linux --kernel-cmdline init=/nonexistent
grep -q "Kernel panic" "$OUT/panic.err"
ok "panic: the console's panic line is quoted" $? "$(tail -2 "$OUT/panic.err")"
# The timeout is the shortest that still lets the kernel reach its init
# (about 5 s under TCG): the wait is the check, so every second of it counts.
bad silent 2 70 "sent no log within the timeout of 12 s" --linux --timeout 12 --kernel-cmdline "init=/bin/sleep -- 600"
ok "no probe run after a failed guest" "$(grep -q "the probe is not booted" "$OUT/silent.err"; echo $?)" "$(tail -1 "$OUT/silent.err")"

# --- the command line ----------------------------------------------------------
"$TP" qemu --keep "$OUT/x" >/dev/null 2>"$OUT/usage1.err"
rc=$?
ok "--keep without --linux: exit 1, said" "$([ $rc -eq 1 ] && grep -q "go with --linux" "$OUT/usage1.err"; echo $?)" \
	"exit $rc: $(cat "$OUT/usage1.err")"
"$TP" qemu --linux "$K" -o "$OUT/x.log" >/dev/null 2>"$OUT/usage2.err"
rc=$?
ok "--linux with -o: exit 1, said" "$([ $rc -eq 1 ] && grep -q "with --keep DIR" "$OUT/usage2.err"; echo $?)" \
	"exit $rc: $(cat "$OUT/usage2.err")"
for form in "--linux $K" "--linux=$K"; do
	# shellcheck disable=SC2086 # the form is two words or one, on purpose
	"$TP" qemu --dry-run --machine q35 --smp 2 $form --kernel-cmdline quiet >"$OUT/dry.out" 2>"$OUT/dry.err"
	rc=$?
	c=$(cat "$OUT/dry.out")
	case $c in
	*"-machine q35 "*"-smp 2 "*"-kernel $K "*"-initrd "*"-append console=ttyS0 panic=-1 tsc=reliable quiet "*"-serial chardev:con "*"-serial chardev:oslog "*"-no-reboot"*) good=0 ;;
	*) good=1 ;;
	esac
	ok "dry run of '$form': two serial ports, the guest's command line, -smp 2" "$([ $rc -eq 0 ] && [ $good -eq 0 ]; echo $?)" \
		"exit $rc: $c"
done

# --- contention beside the probe's ------------------------------------------------
# The probe's `contention` record ({"counter","readers":[{n,p50_ns,p99_ns,reads_per_s}]})
# is put into a copy of the probe's log (seq, crc and the end record redone), with
# figures chosen here, so the lining up of counters (hpet -> hpet, acpi_pm ->
# acpi-fast, tsc -> tsc) and of reader counts is checked exactly.
python3 tests/linux/bare_contention.py "$OUT/run/bare.log" "$OUT/bare-contention.log"
# And the probe's real records (a 2-CPU boot writes them): both sides have figures.
awk '$1 == "hpet" && $2 == "hpet" && $3 == 2 && $7 ~ /^[0-9.]+$/ && $4 ~ /^[0-9.]+$/ { found = 1 } END { exit !found }' \
	"$OUT/run.out" 2>/dev/null
ok "contention lined up with the probe's real record: hpet at 2 readers on both sides" $? \
	"$(grep -E '^hpet ' "$OUT/run.out" 2>/dev/null | head -3 | tr '\n' '|')"
"$TP" compare "$OUT/bare-contention.log" "$OUT/run/os.log" >"$OUT/cmp-contention.out" 2>"$OUT/cmp-contention.err"
rc=$?
ok "compare with a contention record in the probe's log: exit 0" "$([ $rc -eq 0 ]; echo $?)" "exit $rc: $(head -3 "$OUT/cmp-contention.err")"
for want in "hpet hpet 1 101.5 201.5 3000001" "hpet hpet 2 111.5 211.5 4000001" \
	"acpi_pm acpi-fast 1 102.5 202.5 3000002" "acpi_pm acpi-fast 2 112.5 212.5 4000002"; do
	# shellcheck disable=SC2086 # six fields, split on purpose
	set -- $want
	awk -v cs="$1" -v c="$2" -v n="$3" -v p50="$4" -v p99="$5" -v rps="$6" \
		'$1 == cs && $2 == c && $3 == n && $7 == p50 && $8 == p99 && $9 == rps { found = 1 } END { exit !found }' \
		"$OUT/cmp-contention.out"
	ok "contention lined up: $1 with the probe's $2 at n=$3 (p50 $4, p99 $5, $6 reads/s)" $? \
		"$(grep -E "^$1 " "$OUT/cmp-contention.out" | head -3 | tr '\n' '|')"
done
