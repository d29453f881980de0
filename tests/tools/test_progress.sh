#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The progress line of `tickprobe qemu`: on a terminal (a pseudo-terminal,
# tests/tools/progress_pty.py) it names the counter being measured, n of N
# and the time left, and is wiped before the closing summary; on a pipe,
# and with --quiet, stderr is the summary line alone, as without it.  The
# log the boot writes is the same either way: the progress only reads it.
# shellcheck disable=SC2086 # $LONG: an option list, split on purpose
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
work=$(mktemp -d "${TMPDIR:-/tmp}/tp-progress.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Only the progress line on a terminal writes a carriage return.
# shellcheck disable=SC2034 # cr: in the strings check() evals
cr=$(printf '\r')
# 400,000 samples a counter: the main table lasts about 2 s of wall time on
# an idle 2-core host, so the line, drawn every 0.25 s, is seen mid-table (the
# quick preset's whole table can pass between two draws).  The RTC's 1-2.5 s
# rate check is not what this tests: slow_rates=off.
LONG="--options samples=400000 --options slow_rates=off"

timeout 300 "$PYTHON3" tests/tools/progress_pty.py 240 "$TP" qemu --kernel --icount --preset quick $LONG \
	-o "$work/tty.log" >"$work/tty.json"
python3 tests/tools/progress_check.py tty "$work/tty.json"
timeout 300 "$TP" qemu --kernel --icount --preset quick $LONG -o "$work/pipe.log" 2>"$work/pipe.err" | cat >"$work/pipe.out"
check "pipe: stderr is the one summary line, no carriage return" \
	'test "$(wc -l <"$work/pipe.err")" -eq 1 && ! grep -q "$cr" "$work/pipe.err"'
timeout 300 "$PYTHON3" tests/tools/progress_pty.py 240 "$TP" qemu --kernel --icount --preset quick $LONG --quiet \
	-o "$work/quiet.log" >"$work/quiet.json"
python3 tests/tools/progress_check.py quiet "$work/quiet.json"
ok "--quiet on a terminal: only the summary line" $?
# icount -kernel boots are deterministic: the three logs must be identical.
check "the log is byte for byte the same with and without the progress line" \
	'cmp -s "$work/tty.log" "$work/pipe.log" && cmp -s "$work/pipe.log" "$work/quiet.log"'

# tickprobe os and db import: the same line, n of N, and none on a pipe.
timeout 120 "$PYTHON3" tests/tools/progress_pty.py 100 "$TP" os --quick -o "$work/os.log" >"$work/os.json"
python3 tests/tools/progress_check.py os "$work/os.json"
ok "os on a terminal: the call being measured, 1 of N" $?
timeout 120 "$TP" os --quick -o "$work/os2.log" 2>"$work/os2.err"
check "os on a pipe: no carriage return" '! grep -q "$cr" "$work/os2.err"'
timeout 120 "$PYTHON3" tests/tools/progress_pty.py 100 "$TP" db import "$work/p.db" "$work/tty.log" "$work/os.log" \
	>"$work/db.json"
python3 tests/tools/progress_check.py db "$work/db.json"
ok "db import on a terminal: logs n of N, wiped at the end" $?
