#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe logs given a DIR or a file that is not there: one line on stderr
# naming it, no row of question marks, exit 2, as show and the other readers
# do; the operands that are there are still listed.
. tests/lib/check.sh
BUILD=${BUILD:-build}
T=$BUILD/tickprobe
D=$(mktemp -d /tmp/tickprobe-logsmissing.XXXXXX)
trap 'rm -rf "$D"' EXIT

[ -x "$T" ] || { fail "setup: build $T first"; exit 1; }
good=$(ls tests/data/logs/schema1/*.log | head -n 1)
mkdir -p "$D/stick"
cp "$good" "$D/stick/0003.log"

for what in "$D/no/such/dir" "$D/stick/0042.log"; do
	"$T" logs "$what" >"$D/out" 2>"$D/err"
	rc=$?
	check "logs $(basename "$what") (missing): exit 2" "[ $rc = 2 ]" "exit $rc"
	check "logs $(basename "$what") (missing): stderr names it" \
		"grep -qx 'tickprobe logs: $what: cannot open: No such file or directory' '$D/err'" "$(cat "$D/err")"
	check "logs $(basename "$what") (missing): nothing on stdout" "[ ! -s '$D/out' ]" "$(cat "$D/out")"
	"$T" show "$what" >/dev/null 2>&1
	src=$?
	check "logs and show agree on a missing operand (exit $src)" "[ $src = $rc ]" "show $src, logs $rc"
done

"$T" logs --json "$D/nowhere" >"$D/out" 2>"$D/err"
rc=$?
check "logs --json of a missing DIR: exit 2, an empty list" \
	"[ $rc = 2 ] && python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))[\"logs\"] != [])' '$D/out'" \
	"exit $rc: $(cat "$D/out")"

"$T" logs "$D/stick" "$D/nowhere" >"$D/out" 2>"$D/err"
rc=$?
check "logs of a DIR and a missing one: exit 2" "[ $rc = 2 ]" "exit $rc"
check "logs of a DIR and a missing one: the DIR's log is listed" "grep -q '^0003 ' '$D/out'" "$(cat "$D/out")"
check "logs of a DIR and a missing one: the missing one is named on stderr" \
	"grep -q '$D/nowhere: cannot open' '$D/err'" "$(cat "$D/err")"
check "logs lists no row of question marks" "! grep -q '^-  *? ' '$D/out'" "$(cat "$D/out")"

"$T" logs "$D/stick" >"$D/out" 2>"$D/err"
rc=$?
check "logs of a DIR that is there: exit 0" "[ $rc = 0 ] && [ ! -s '$D/err' ]" "exit $rc: $(cat "$D/err")"
