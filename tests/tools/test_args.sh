#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every subcommand's command line (tools/lib/args.c).  A wrong one -- an
# unknown option, a missing or unwanted value, a bad number or word, an
# operand too many or too few -- gives one line on stderr that names the
# subcommand and what is wrong, nothing on stdout, and exit 1; --help and -h
# give the usage on stdout and exit 0.  Then what the shared reading
# promises: options after operands, "--", shortened long options, operands
# in the order given and never dropped.  The logs are fixtures written by the
# real log writer (build/tests/test_logread --fixtures DIR).
# shellcheck disable=SC2046 # many prints file names, split into "$@" on purpose
. tests/lib/check.sh
BUILD=${BUILD:-build}
T=$BUILD/tickprobe
GEN=$BUILD/tests/test_logread
D=$(mktemp -d /tmp/tickprobe-args.XXXXXX)
trap 'rm -rf "$D"' EXIT


if [ ! -x "$T" ] || [ ! -x "$GEN" ]; then
	fail setup "build $T and $GEN first (make tool unit)"
	exit 1
fi
"$GEN" --fixtures "$D" >/dev/null || { fail fixtures "generator failed"; exit 1; }
A=$D/a.log
B=$D/b.log
TA=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")

# bad NAME SUB 'TEXT' ARGS...: exit 1, nothing on stdout, and stderr one
# line "tickprobe SUB: ..." holding TEXT.  stat, as ministat, follows that
# line with its usage.
bad() {
	name=$1 sub=$2 text=$3
	shift 3
	"$T" "$sub" "$@" >"$D/out" 2>"$D/err" </dev/null
	rc=$?
	first=$(head -n 1 "$D/err")
	why=""
	[ "$rc" = 1 ] || why="$why; exit $rc"
	[ -s "$D/out" ] && why="$why; stdout: $(head -c 80 "$D/out")"
	case $first in "tickprobe $sub: "*) ;; *) why="$why; does not name the subcommand" ;; esac
	printf '%s\n' "$first" | grep -qF -- "$text" || why="$why; no \"$text\""
	if [ "$sub" = stat ]; then
		sed -n 2p "$D/err" | grep -q "^usage: tickprobe stat " || why="$why; no usage after the message"
	else
		[ "$(wc -l <"$D/err")" = 1 ] || why="$why; $(wc -l <"$D/err") lines on stderr"
	fi
	if [ -z "$why" ]; then
		pass "$sub $name: exit 1, \"$first\""
	else
		fail "$sub $name" "${why#; } (stderr: $(head -c 200 "$D/err" | tr '\n' '|'))"
	fi
}

# good NAME WANT COMMAND...: the exit status only.
good() {
	name=$1 want=$2
	shift 2
	"$@" >"$D/out" 2>"$D/err" </dev/null
	rc=$?
	if [ "$rc" = "$want" ]; then pass "$name: exit $want"; else fail "$name" "exit $rc, not $want: $(head -c 200 "$D/err")"; fi
}

# many N FILE: FILE N times, as separate operands, into "$@" of the caller's `set --`.
many() { i=0; while [ "$i" -lt "$1" ]; do printf '%s\n' "$2"; i=$((i + 1)); done; }

# --- --help and -h, every subcommand ---------------------------------------------
for sub in show export compare report capture acpi os qemu stat; do
	for h in --help -h; do
		"$T" $sub $h >"$D/out" 2>"$D/err" </dev/null
		rc=$?
		if [ "$rc" = 0 ] && [ ! -s "$D/err" ] && head -n 1 "$D/out" | grep -q "^usage: tickprobe $sub" &&
			grep -q "^Exit status: 0 " "$D/out"; then
			pass "$sub $h: exit 0, usage and exit statuses on stdout"
		else
			fail "$sub $h" "exit $rc: $(head -c 160 "$D/out") / $(head -c 160 "$D/err")"
		fi
	done
done

# --- show LOG... ----------------------------------------------------------------------
bad "unknown option" show "unknown option '--bogus'" --bogus "$A"
bad "unknown short option" show "unknown option '-z'" -z "$A"
bad "missing value" show "option '--run' needs a value" "$A" --run
bad "bad number" show "--run wants a whole number of at least 1, not 'x'" --run x "$A"
bad "number out of range" show "--run wants a whole number of at least 1, not '0'" --run 0 "$A"
bad "value where none is taken" show "option '--json' takes no value" --json=1 "$A"
bad "no operand" show "no LOG given" --json

# --- export LOG... --------------------------------------------------------------------
bad "unknown option" export "unknown option '--bogus'" "$A" --bogus
bad "missing value" export "option '--format' needs a value" "$A" --format
bad "bad number" export "--run wants a whole number of at least 1, not '1x'" "$A" --run 1x
bad "bad word" export "--format wants raw, csv, json, openmetrics or prometheus, not 'xml'" "$A" --format xml
bad "bad metric" export "--metric wants p50 or mean, not 'max'" "$A" --metric max
bad "no operand" export "no LOG given" --format csv

# --- compare LOG LOG... -----------------------------------------------------------------
bad "unknown option" compare "unknown option '-z'" -z "$A" "$B"
bad "missing value" compare "option '-c' needs a value" "$A" "$B" -c
bad "bad number" compare "-c wants a confidence level of 80, 90, 95, 98, 99 or 99.5, not 'x'" -c x "$A" "$B"
bad "unsupported level" compare "-c wants a confidence level of 80, 90, 95, 98, 99 or 99.5, not '97'" -c 97 "$A" "$B"
bad "bad word" compare "--metric wants p50 or mean, not 'max'" --metric max "$A" "$B"
bad "no operand" compare "no LOG given" -c 95
# shellcheck disable=SC2046 # one operand a line, no blanks in the names
set -- $(many 3 "$A")
COLUMNS=200 good "compare of 3 LOGs" 0 "$T" compare "$@"
grep -q '^counter ' "$D/out" && pass "compare of 3 LOGs: the summary has logs as columns" ||
	fail "compare of 3 LOGs" "no counter-by-log summary: $(tail -3 "$D/out")"
set -- $(many 65 "$A")
COLUMNS=200 good "compare of 65 LOGs" 0 "$T" compare "$@"
grep -q '^log ' "$D/out" && grep -q '^\[65\] ' "$D/out" && pass "compare of 65 LOGs: the summary has logs as rows" ||
	fail "compare of 65 LOGs" "no log-by-counter summary: $(tail -3 "$D/out")"
many 65 "$(cat "$A")" >"$D/runs65.log" # one file, 65 runs
good "compare of 65 runs in one LOG" 0 "$T" compare "$D/runs65.log"

# --- report LOG...|--db DB -o FILE ------------------------------------------------------
bad "unknown option" report "unknown option '--bogus'" --bogus "$A" -o "$D/r.html"
bad "missing value" report "option '-o' needs a value" "$A" -o
bad "bad number" report "-c wants a confidence level of 80, 90, 95, 98, 99 or 99.5, not '9x'" -c 9x "$A" -o "$D/r.html"
bad "no -o" report "-o FILE is required" "$A"
bad "no operand" report "no LOG given" -o "$D/r.html"
bad "LOGs and --db" report "--db DB or LOGs, not both" "$A" --db "$D/x.db" -o "$D/r.html"
[ ! -e "$D/r.html" ] && pass "report: no page written by any usage error" || fail "report usage errors" "$D/r.html written"
set -- $(many 65 "$A")
good "report of 65 LOGs" 0 "$T" report "$@" -o "$D/r.html"
grep -q 'id="fleet"' "$D/r.html" && pass "report of 65 LOGs: the fleet page" || fail "report of 65 LOGs" "not the fleet page"

# --- capture DEVICE --------------------------------------------------------------------
bad "unknown option" capture "unknown option '--bogus'" /dev/null --bogus
bad "missing value" capture "option '--timeout' needs a value" /dev/null --timeout
bad "bad number" capture "--timeout wants a number from 0 to 1e+06, not 'soon'" /dev/null --timeout soon
bad "negative number" capture "--timeout wants a number from 0 to 1e+06, not '-1'" /dev/null --timeout -1
bad "bad baud" capture "--baud wants a whole number of at least 1, not '9600x'" /dev/null --baud 9600x
bad "unsupported baud" capture "--baud 1234 is not a rate" /dev/null --baud 1234
bad "extra operand" capture "extra operand '/dev/zero': capture takes one DEVICE" /dev/null /dev/zero -o "$D/c.log"
bad "no operand" capture "no DEVICE given" -o "$D/c.log"
[ ! -e "$D/c.log" ] && pass "capture: nothing written by any usage error" || fail "capture usage errors" "$D/c.log written"

# --- acpi [FILE|DIR...]: --json is its only option, and it takes no value ------------------
bad "unknown option" acpi "unknown option '--bogus'" --bogus
bad "value where none is taken" acpi "option '--json' takes no value" --json=yes tests/data/acpi/walk

# --- os: no operands --------------------------------------------------------------------
bad "unknown option" os "unknown option '--bogus'" --bogus
bad "missing value" os "option '-o' needs a value" --quick -o
bad "bad number" os "--rounds wants a whole number from 1 to 1000, not 'ten'" --rounds ten
bad "number out of range" os "--rounds wants a whole number from 1 to 1000, not '0'" --rounds 0
bad "too many samples" os "--samples wants a whole number from 1 to 100000000, not '100000001'" --samples 100000001
bad "samples below rounds" os "--samples 5 is fewer than --rounds 9" --samples 5 --rounds 9
bad "extra operand" os "unexpected operand 'now': os takes none" --quick now

# --- qemu: no operands, QEMU's own arguments after -- -------------------------------------
bad "unknown option" qemu "unknown option '--bogus'" --bogus
bad "ambiguous option" qemu "ambiguous option '--c' (--cpu, --cdrom)" --c
bad "missing value" qemu "option '--timeout' needs a value" --kernel=x --timeout
bad "bad number" qemu "--memory wants a whole number from 1 to 1000000, not '1G'" --memory 1G
bad "fraction for a whole number" qemu "--menu-timeout wants a whole number from 0 to 1000000, not '1.5'" --menu-timeout 1.5
bad "icount shift out of range" qemu "--icount wants a whole number from 0 to 10, not '11'" --kernel=x --icount=11
bad "negative timeout" qemu "--timeout wants a number from 0 to 1e+06, not '-5'" --timeout -5
bad "bad word" qemu "--firmware wants bios or uefi, not 'efi'" --firmware efi
bad "options that exclude each other" qemu "--kernel boots a multiboot ELF32" --kernel=x --firmware uefi -n
bad "extra operand" qemu "unexpected operand 'now': qemu takes none; what follows -- is passed on" --kernel=x -n now -- -S
"$T" qemu --kernel="$D/elf32" -n -- -S -smp 2 >"$D/out" 2>"$D/err"
rc=$?
[ "$rc" = 0 ] && grep -q -- "-kernel $D/elf32 .* -display none -S -smp 2\$" "$D/out" && pass "qemu: what follows -- goes to QEMU, last" ||
	fail "qemu --" "exit $rc: $(cat "$D/out" "$D/err")"
# --options again adds its words after the earlier ones, up to the 1 KiB a boot line holds.
"$T" qemu --kernel="$D/elf32" -n --preset quick --options "slow_rates=off" --options "smp=off cpus=2" >"$D/out" 2>"$D/err"
rc=$?
[ "$rc" = 0 ] && grep -q -- "-append preset=quick slow_rates=off smp=off cpus=2 " "$D/out" &&
	pass "qemu: each --options adds its words after the earlier ones" || fail "qemu --options twice" "exit $rc: $(cat "$D/out" "$D/err")"
# --tcg=single|multi: QEMU's thread= of the accelerator; the last of --tcg and --kvm wins.
bad "bad TCG threading" qemu "--tcg wants single or multi, not 'one'" --kernel=x --tcg=one
bad "--icount on many threads" qemu "--icount runs every CPU on one thread: not with --tcg=multi" --kernel=x -n --icount --tcg=multi
for case in "--tcg=single:tcg,thread=single" "--tcg=multi:tcg,thread=multi" "--tcg=single --kvm --tcg:tcg" \
	"--tcg=single --icount:tcg,thread=single"; do
	opts=${case%%:*}
	want=${case#*:}
	# shellcheck disable=SC2086 # the options of the case, split on purpose
	"$T" qemu --kernel="$D/elf32" -n $opts >"$D/out" 2>"$D/err"
	rc=$?
	[ "$rc" = 0 ] && grep -q -- " -accel $want -cpu max " "$D/out" && pass "qemu $opts: -accel $want" ||
		fail "qemu $opts" "exit $rc: $(cat "$D/out" "$D/err")"
done
long=$(printf 'samples=100%.0s ' $(seq 1 60))
bad "--options over 1 KiB in all" qemu "--options: the probe's words are over 1023 bytes in all" --kernel=x -n \
	--options "$long" --options "$long"

# --- stat [file ...], as ministat ---------------------------------------------------------
printf '1\n2\n3\n' >"$D/n"
bad "unknown option" stat "unknown option '-z'" -z "$D/n"
bad "missing value" stat "option '-c' needs a value" -c
bad "bad number" stat "Not a floating point number" -c x "$D/n"
bad "unsupported level" stat "No support for confidence level" -c 97 "$D/n"
bad "bad column" stat "Column number should be positive." -C 0 "$D/n"
bad "bad width" stat "Invalid width, not a number." -w x "$D/n"
set -- $(many 8 "$D/n")
bad "extra operand (8 files)" stat "Too many datasets." "$@"
set -- $(many 7 "$D/n")
good "stat of 7 files, the most ministat plots" 0 "$T" stat "$@"
# The first file ends the options, as in ministat: "-n" after it is a file.
"$T" stat "$D/n" -n >"$D/out" 2>"$D/err"
rc=$?
[ "$rc" = 2 ] && grep -q "Cannot open -n" "$D/err" && pass "stat: options end at the first file (exit 2, Cannot open -n)" ||
	fail "stat option order" "exit $rc: $(cat "$D/err")"
for lvl in 80 90 95 98 99 99.5; do
	"$T" stat --help | grep -qF "$lvl%" && "$T" stat -c "$lvl" "$D/n" >/dev/null 2>&1 ||
		{ fail "stat -c $lvl" "not in --help, or refused"; continue; }
	pass "stat -c $lvl: accepted and listed in --help"
done

# --- the dispatcher --------------------------------------------------------------------
good "tickprobe with no command" 1 "$T"
good "tickprobe unknown command" 1 "$T" bogus
good "tickprobe --help" 0 "$T" --help

# --- docs/commands.md: a synopsis for every command, naming only options it has ------------
# A synopsis is an indented "    tickprobe COMMAND ..." line, continued on lines
# indented further; each is read whole.
REF=docs/commands.md
awk '/^    tickprobe [a-z]/ { if (s != "") print s; s = substr($0, 5); next }
	/^        +[^ ]/ && s != "" { sub(/^ +/, ""); s = s " " $0; next }
	{ if (s != "") print s; s = "" }
	END { if (s != "") print s }' "$REF" >"$D/rows"
[ "$(wc -l <"$D/rows")" = 16 ] && pass "$REF: 16 synopses (db has three)" ||
	fail "$REF synopses" "$(wc -l <"$D/rows") synopses, not 16"
"$T" --help | awk '/^  [a-z]+  +[a-z]/ { print $1 }' >"$D/commands"
[ -s "$D/commands" ] || fail "tickprobe --help" "lists no command"
while IFS= read -r cmd; do
	grep -q "^tickprobe $cmd " "$D/rows" && pass "$REF: tickprobe $cmd has a synopsis" ||
		fail "$REF: tickprobe $cmd" "in tickprobe --help but has no synopsis"
done <"$D/commands"
while IFS= read -r syn; do
	sub=$(printf '%s\n' "$syn" | cut -d' ' -f2)
	"$T" "$sub" --help >"$D/help" 2>&1
	missing=""
	for o in $(printf '%s\n' "$syn" | grep -oE '(^|[ [|])--?[A-Za-z][A-Za-z-]*' | tr -d ' [|'); do
		case $o in
		--*) grep -qE -- "$o([^A-Za-z-]|\$)" "$D/help" || missing="$missing $o" ;;
		*) # -AnPqs: each letter, alone ("-o FILE") or in a group ("[-AnPqs]")
			rest=${o#-}
			while [ -n "$rest" ]; do
				l=${rest%"${rest#?}"}
				rest=${rest#?}
				grep -qE -- "(^|[^A-Za-z-])-$l([^A-Za-z]|\$)|\[-[A-Za-z]*${l}[A-Za-z]*\]" "$D/help" ||
					missing="$missing -$l"
			done ;;
		esac
	done
	[ -z "$missing" ] && pass "$REF: every option of '$syn' is in $sub --help" ||
		fail "$REF synopsis of $sub" "not in $sub --help:$missing"
done <"$D/rows"

# --- what the shared reading promises --------------------------------------------------
# Operands in the order given, options anywhere among them.
"$T" export --format csv "$B" "$A" >"$D/ba.csv" 2>/dev/null
"$T" export "$B" --format csv "$A" >"$D/ba2.csv" 2>/dev/null
sed -n 2p "$D/ba.csv" | grep -q "^\"$B\"," && tail -n 1 "$D/ba.csv" | grep -q "^\"$A\"," && cmp -s "$D/ba.csv" "$D/ba2.csv" &&
	pass "export: operands in the order given, options before or between them" ||
	fail "export operand order" "$(cut -c1-40 "$D/ba.csv" | tr '\n' '|')"
# ... whatever POSIXLY_CORRECT says.
POSIXLY_CORRECT=1 "$T" export "$B" --format csv "$A" >"$D/ba3.csv" 2>/dev/null
cmp -s "$D/ba.csv" "$D/ba3.csv" && pass "export: an option after an operand also under POSIXLY_CORRECT" ||
	fail "POSIXLY_CORRECT" "$(head -c 200 "$D/ba3.csv")"
# Every operand is used: 300 LOGs give 300 logs' rows (4 counters each), none dropped.
set -- $(many 300 "$A")
n=$("$T" export --format csv "$@" 2>/dev/null | wc -l)
[ "$n" = $((1 + 300 * 4)) ] && pass "export of 300 LOGs: all 1200 rows, none dropped" || fail "export of 300 LOGs" "$n lines, not 1201"
# "--" ends the options: a LOG whose name starts with '-'.
cp "$A" "$D/-a.log"
(cd "$D" && "$TA" show -- -a.log >/dev/null 2>&1) && pass "show -- -a.log: a LOG named like an option" ||
	fail "show --" "exit $?"
(cd "$D" && "$TA" show -a.log >/dev/null 2>"$D/err")
rc=$?
[ "$rc" = 1 ] && grep -q "unknown option '-a'" "$D/err" && pass "show -a.log without --: an unknown option" ||
	fail "show -a.log" "exit $rc: $(cat "$D/err")"
# A long option may be shortened while it is unambiguous; --name=value works.
"$T" show --js "$A" >"$D/js1" && "$T" show --json "$A" >"$D/js2" && cmp -s "$D/js1" "$D/js2" &&
	python3 -m json.tool "$D/js1" >/dev/null && pass "show --js: --json shortened" || fail "show --js" "$(head -c 200 "$D/js1")"
"$T" export "$A" --format=raw --counter=tsc >"$D/raw1" && "$T" export "$A" --counter tsc >"$D/raw2" &&
	cmp -s "$D/raw1" "$D/raw2" && [ -s "$D/raw1" ] && pass "export --format=raw --counter=tsc: values after =" ||
	fail "export --x=y" "$(head -c 200 "$D/raw1")"
exit 0
