#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The progress line of `tickprobe qemu`: on a terminal (a pseudo-terminal,
# tests/tools/progress_pty.py) it names the counter being measured, n of N
# and the time left, and is wiped before the closing summary; on a pipe,
# and with --quiet, stderr is the summary line alone, as without it.  The
# log the boot writes is the same either way: the progress only reads it.
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
work=$(mktemp -d "${TMPDIR:-/tmp}/tp-progress.XXXXXX")
trap 'rm -rf "$work"' EXIT

timeout 300 "$PYTHON3" tests/tools/progress_pty.py 240 "$TP" qemu --kernel --icount --preset quick \
	-o "$work/tty.log" >"$work/tty.json"
python3 tests/tools/progress_check.py "$work/tty.json"
timeout 300 "$TP" qemu --kernel --icount --preset quick -o "$work/pipe.log" 2>"$work/pipe.err" | cat >"$work/pipe.out"
ok "pipe: stderr is the one summary line, no carriage return" \
	$(test "$(wc -l <"$work/pipe.err")" -eq 1 && ! grep -q "$(printf '\r')" "$work/pipe.err"; echo $?)
timeout 300 "$PYTHON3" tests/tools/progress_pty.py 240 "$TP" qemu --kernel --icount --preset quick --quiet \
	-o "$work/quiet.log" >"$work/quiet.json"
python3 tests/tools/progress_quiet.py "$work/quiet.json"
ok "--quiet on a terminal: only the summary line" $?
# icount -kernel boots are deterministic: the three logs must be identical.
ok "the log is byte for byte the same with and without the progress line" \
	$(cmp -s "$work/tty.log" "$work/pipe.log" && cmp -s "$work/pipe.log" "$work/quiet.log"; echo $?)
