# SPDX-License-Identifier: BSD-2-Clause
# Shared by tests/nocable/test_*.sh: copies of the image booted by QEMU
# directly, the way a user's machine sees them (a USB stick on xHCI, a
# read-only stick, a CD), with the serial line captured to a file.  QEMU
# itself, not `tickprobe qemu`: the tool attaches the image as a disk or a
# CD only, and these tests read what the probe wrote back off the stick.
# Sourced.
# shellcheck disable=SC2034 # QEMU_FAILED: for the tests that source this
. tests/lib/boot.sh
NC="python3 tests/nocable/nocable.py"
IMG=$BUILD/tickprobe.img
OVMF=/usr/share/ovmf/OVMF.fd
QEMU="qemu-system-x86_64 -machine q35 -accel tcg -cpu max -m 256 -device $QEMU_EXIT_DEVICE
 -no-reboot -nic none -monitor none -display none"
# The exit device's statuses: (code << 1) | 1 with probe/exit_status.h's codes.
QEMU_OK=33
QEMU_OK_ABSENT=35
QEMU_FAILED=37

need_nocable() {
	need_tool
	for t in mtype mcopy mdir mmd mmove; do
		command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
	done
	[ -f "$IMG" ] || { fail "setup: $IMG missing (make image)"; exit 1; }
	[ -f "$OVMF" ] || { fail "setup: $OVMF missing (make deps)"; exit 1; }
	ESP=$($NC esp-offset "$IMG") || { fail "setup: no ESP in $IMG"; exit 1; }
}

# copy_image NAME PRESET [TIMEOUT [OPTIONS]]: $OUT/NAME.img, a copy whose
# environment block boots PRESET after TIMEOUT seconds (0: no menu).
copy_image() {
	cp "$IMG" "$OUT/$1.img" && $NC set-env "$OUT/$1.img" "$2" "${3:-0}" "${4:-}"
}

# stick IMAGE [readonly]: the QEMU arguments of a USB stick holding IMAGE.
stick() {
	echo "-device qemu-xhci -drive if=none,id=stick,format=raw,file=$1${2:+,readonly=on} -device usb-storage,drive=stick"
}

# qboot NAME WANT_RC QEMU-ARGS...: OVMF boots; the serial line goes to
# $OUT/NAME.log.  Sets rc and ms.  WANT_RC "ended" takes QEMU_OK or
# QEMU_OK_ABSENT: these runs test where the log goes, not the counters'
# health, which a loaded host can spoil under TCG (an i8254 or RTC rate check
# off by 2-65 %, seen with 16 runnable jobs on 2 cores).
qboot() {
	name=$1 want=$2
	shift 2
	t0=$(now_ms)
	# shellcheck disable=SC2086
	timeout 120 $QEMU -bios "$OVMF" -serial file:"$OUT/$name.log" "$@" >"$OUT/$name.err" 2>&1
	rc=$?
	ms=$(( $(now_ms) - t0 ))
	echo "boot $name: QEMU exit $rc in $ms ms ($(wc -c <"$OUT/$name.log") serial bytes)"
	if [ "$want" = ended ]; then
		[ "$rc" -eq $QEMU_OK ] || [ "$rc" -eq $QEMU_OK_ABSENT ]
		ok "$name: QEMU exits $QEMU_OK or $QEMU_OK_ABSENT (ok, ok-absent): $rc" $? \
			"exit $rc: $(tail -n 2 "$OUT/$name.err" | tr '\n' ' ')"
	else
		[ "$rc" -eq "$want" ]
		ok "$name: QEMU exits $want" $? "exit $rc: $(tail -n 2 "$OUT/$name.err" | tr '\n' ' ')"
	fi
}

# ended NAME: the run ended as usual, its end status ok or ok-absent (see
# qboot); the counters an ok-absent run found unhealthy are named.
ended() {
	st=$(field "$1" end status)
	case $st in
	'"ok"') pass "$1: the run ended as usual (status ok)" ;;
	'"ok-absent"') pass "$1: the run ended as usual (status ok-absent: $($NC unhealthy "$OUT/$1.log"))" ;;
	*) fail "$1: the run did not end as usual: end status $st" ;;
	esac
}

# logfile IMAGE NNNN OUT: the log file NNNN.log out of IMAGE's ESP.
logfile() {
	mtype -i "$1@@$ESP" "::tickprobe/logs/$2.log" >"$3" 2>/dev/null
}

# same_records NAME FILE: FILE holds exactly the record lines of NAME's
# serial capture, byte for byte.
same_records() {
	$NC records "$OUT/$1.log" "$OUT/$1.rec"
	if [ -s "$2" ] && cmp -s "$2" "$OUT/$1.rec"; then
		pass "$1: $(basename "$2") holds the serial log's $(grep -c . "$2") record lines, byte for byte ($(wc -c <"$2") bytes)"
	else
		fail "$1: $(basename "$2") ($(wc -c <"$2" 2>/dev/null || echo 0) bytes) differs from the serial records ($(wc -c <"$OUT/$1.rec") bytes)"
	fi
}

# show_exit FILE WANT NAME: `tickprobe show FILE` exits WANT.
show_exit() {
	"$TP" show "$1" >"$1.show" 2>"$1.show-err"
	r=$?
	[ "$r" -eq "$2" ]
	st=$?
	ok "$3: tickprobe show $(basename "$1") exits $2" $st "exit $r: $(head -c 300 "$1.show-err")"
}

# field NAME TYPE KEY: one member of NAME's serial log, as JSON.
field() {
	$NC field "$OUT/$1.log" "$2" "$3"
}

# qboot_keys NAME WANT_RC PATTERN KEYS QEMU-ARGS...: as qboot, with the serial
# line on a pair of FIFOs, so that KEYS (printf format) can be typed on it
# once PATTERN shows in the capture: a headless machine's serial console.
qboot_keys() {
	name=$1 want=$2 pattern=$3 keys=$4
	shift 4
	rm -f "$OUT/$name.ser.in" "$OUT/$name.ser.out"
	mkfifo "$OUT/$name.ser.in" "$OUT/$name.ser.out"
	cat "$OUT/$name.ser.out" >"$OUT/$name.log" &
	cat_pid=$!
	t0=$(now_ms)
	# shellcheck disable=SC2086
	timeout 120 $QEMU -bios "$OVMF" -chardev pipe,id=ser0,path="$OUT/$name.ser" -serial chardev:ser0 "$@" \
		>"$OUT/$name.err" 2>&1 &
	q_pid=$!
	n=0
	while [ $n -lt 600 ] && kill -0 $q_pid 2>/dev/null && ! plain "$OUT/$name.log" | grep -aq "$pattern"; do
		sleep 0.1
		n=$((n + 1))
	done
	typed=no
	if plain "$OUT/$name.log" | grep -aq "$pattern"; then
		# shellcheck disable=SC2059
		printf "$keys" >"$OUT/$name.ser.in"
		typed=yes
	fi
	wait $q_pid
	rc=$?
	ms=$(( $(now_ms) - t0 ))
	kill $cat_pid 2>/dev/null
	wait $cat_pid 2>/dev/null
	echo "boot $name: QEMU exit $rc in $ms ms ($(wc -c <"$OUT/$name.log") serial bytes); '$pattern' seen and keys typed: $typed"
	if [ "$want" = ended ]; then
		{ [ "$rc" -eq $QEMU_OK ] || [ "$rc" -eq $QEMU_OK_ABSENT ]; } && [ $typed = yes ]
	else
		[ "$rc" -eq "$want" ] && [ $typed = yes ]
	fi
	ok "$name: '$pattern' reaches the serial line, keys typed there, QEMU exits $want ($rc)" $? \
		"exit $rc, typed $typed: $(tail -n 2 "$OUT/$name.err" | tr '\n' ' ')"
}

# plain FILE: a capture without CRs and without the firmware's ANSI escapes.
plain() {
	tr -d '\r' <"$1" | sed 's/\x1b\[[0-9;=?]*[A-Za-z]//g'
}

# count NAME TEXT: how many lines of NAME's capture hold TEXT.
count() {
	plain "$OUT/$1.log" | grep -acF "$2"
}
