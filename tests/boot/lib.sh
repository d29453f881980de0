# SPDX-License-Identifier: BSD-2-Clause
# Shared by tests/boot/test_*.sh: boot through `tickprobe qemu`, time it, and
# validate the log with checklog.py.  Sourced, not run.
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
CHECK="python3 tests/boot/checklog.py"

now_ms() { date +%s%3N; }

# boot NAME WANT_RC [tickprobe qemu options...]: the log goes to $OUT/NAME.log,
# QEMU's and the tool's messages to $OUT/NAME.err.  Sets $rc, prints the time.
boot() {
	name=$1 want=$2
	shift 2
	t0=$(now_ms)
	"$TP" qemu --timeout 240 -o "$OUT/$name.log" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
	rc=$?
	echo "boot $name: exit $rc in $(( $(now_ms) - t0 )) ms ($(wc -c <"$OUT/$name.log" 2>/dev/null || echo 0) serial bytes)"
	if [ "$rc" -eq "$want" ]; then
		pass "$name: tickprobe qemu exits $want"
	else
		fail "$name: tickprobe qemu exits $rc, not $want: $(tail -n 2 "$OUT/$name.err" | tr '\n' ' ')"
	fi
}

# checklog NAME [checklog.py options...]
checklog() {
	name=$1
	shift
	$CHECK "$OUT/$name.log" --label "$name" "$@"
}

need_tool() {
	if [ ! -x "$TP" ]; then
		fail "setup: $TP is not built (make tool)"
		exit 1
	fi
	for t in qemu-system-x86_64 python3; do
		command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
	done
}
