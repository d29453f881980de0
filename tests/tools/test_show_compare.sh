#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# show, export, compare and capture on fixture logs written by the real log
# writer (build/tests/test_logread --fixtures DIR).  compare's Difference
# lines are checked against Debian's ministat on the same per-round values.
. tests/lib/check.sh
BUILD=${BUILD:-build}
T=$BUILD/tickprobe
GEN=$BUILD/tests/test_logread
D=$(mktemp -d /tmp/tickprobe-show.XXXXXX)
trap 'rm -rf "$D"' EXIT


if [ ! -x "$T" ] || [ ! -x "$GEN" ]; then
	fail setup "build $T and $GEN first (make tool unit)"
	exit 1
fi
"$GEN" --fixtures "$D" || { fail fixtures "generator failed"; exit 1; }

# --- exit codes ----------------------------------------------------------------
code() { # name, expected, command...
	n=$1 want=$2; shift 2
	"$@" >"$D/out" 2>"$D/err"; got=$?
	ok "exit $want: $n" "$([ "$got" = "$want" ] && echo 0 || echo 1)" "got $got ($(head -c 200 "$D/err"))"
}
code "show clean log" 0 "$T" show "$D/a.log"
code "show noisy console capture" 0 "$T" show "$D/noisy.log"
code "show two boots" 0 "$T" show "$D/two.log"
code "show damaged record" 3 "$T" show "$D/damaged.log"
code "show partial run" 3 "$T" show "$D/partial.log"
code "show newer schema" 2 "$T" show "$D/newer.log"
code "show empty file" 2 "$T" show "$D/empty.log"
code "show missing file" 2 "$T" show "$D/nothing.log"
code "show bad option" 1 "$T" show --bogus "$D/a.log"
code "show --help" 0 "$T" show --help
code "export bad format" 1 "$T" export "$D/a.log" --format xml
code "export bad metric" 1 "$T" export "$D/a.log" --metric max
code "compare one log" 1 "$T" compare "$D/a.log"
code "compare bad -c" 1 "$T" compare -c 97 "$D/a.log" "$D/b.log"
code "compare damaged" 3 "$T" compare "$D/a.log" "$D/damaged.log"
code "capture bad device" 2 "$T" capture "$D/no-such-tty" -o "$D/x.log" --timeout 1

"$T" show "$D/damaged.log" >/dev/null 2>"$D/err"
grep -q "damaged.log:7: bad record crc" "$D/err"
ok "show names FILE:LINE of the damaged record" $? "$(cat "$D/err")"
"$T" show "$D/partial.log" >"$D/out" 2>"$D/err"
grep -q "partial" "$D/out" && grep -q "cut short" "$D/err"
ok "show says partial" $? "$(head -3 "$D/out") / $(cat "$D/err")"

# --- show ----------------------------------------------------------------------
"$T" show "$D/a.log" >"$D/out"
for w in "complete, undamaged" tsc hpet acpi-fast "no PIT" GenuineIntel TCGTCGTCGTCG "2999.999000 MHz" \
	"0x608" "0xfed00000" "bad checksum" "p50 26 cycles"; do
	grep -q -- "$w" "$D/out" || fail "show text has '$w'" "$(cat "$D/out")"
done
grep -q "^hpet  *521.0 " "$D/out"
ok "show: hpet p50 521.0 ns in the table" $? "$(cat "$D/out")"
"$T" show --json "$D/a.log" "$D/two.log" >"$D/show.json"
python3 -m json.tool "$D/show.json" >/dev/null
ok "show --json is valid JSON" $? "$(head -c 300 "$D/show.json")"
python3 tests/tools/show_json_check.py "$D/show.json" "$D/two.log"
ok "show --json: runs named FILE#N, timer values, machine record" $?

# --- export --------------------------------------------------------------------
"$T" export "$D/a.log" --counter tsc >"$D/raw" && cmp -s "$D/raw" "$D/a_tsc.txt"
ok "export raw: tsc per-round p50 values as written" $? "$(cat "$D/raw")"
n=$("$T" export "$D/a.log" --counter hpet --samples | wc -l)
[ "$n" -eq 1000 ]; ok "export raw --samples: 1000 samples from hist" $? "got $n"
"$T" export "$D/a.log" --format csv >"$D/csv"
python3 tests/tools/export_csv_check.py "$D/csv"
ok "export csv: header and one row per counter" $?
"$T" export "$D/a.log" --format json >"$D/json" && cmp -s "$D/json" "$D/a.log"
ok "export json: the records unchanged" $?
"$T" export "$D/noisy.log" --format json >"$D/json" && cmp -s "$D/json" "$D/a.log"
ok "export json of a noisy capture: the same records" $?

# --- compare against ministat ----------------------------------------------------
"$T" compare "$D/a.log" "$D/b.log" >"$D/cmp"
ok "compare two logs: exit 0" $?
block() { awk -v k="== $2:" 'index($0,k)==1{on=1;next} /^== /{on=0} on' "$1"; }
block "$D/cmp" tsc >"$D/cmp.tsc"
block "$D/cmp" hpet >"$D/cmp.hpet"
if command -v ministat >/dev/null; then
	ministat "$D/a_tsc.txt" "$D/b_tsc.txt" >"$D/ms.tsc"
	ministat "$D/a_hpet.txt" "$D/b_hpet.txt" >"$D/ms.hpet"
	for pat in "+/-" "pooled s"; do
		a=$(grep -F -- "$pat" "$D/cmp.tsc" | grep -v % | tr -d '\t ')
		b=$(grep -F -- "$pat" "$D/ms.tsc" | grep -v % | tr -d '\t ')
		[ -n "$a" ] && [ "$a" = "$b" ]
		ok "compare tsc '$pat' line equals ministat's" $? "ours '$a', ministat '$b'"
	done
	# Relative line: the difference agrees; its +/- uses current FreeBSD's formula.
	a=$(grep -F "% +/-" "$D/cmp.tsc" | tr -d '\t ' | cut -d+ -f1,2 | cut -d/ -f1)
	b=$(grep -F "% +/-" "$D/ms.tsc" | tr -d '\t ' | cut -d+ -f1,2 | cut -d/ -f1)
	[ -n "$a" ] && [ "$a" = "$b" ]; ok "compare tsc relative difference equals ministat's" $? "'$a' vs '$b'"
	for c in tsc hpet; do
		a=$(grep -E "^[x+] +[0-9]" "$D/cmp.$c" | awk '{print $2,$3,$4,$6,$7}')
		b=$(grep -E "^[x+] +[0-9]" "$D/ms.$c" | awk '{print $2,$3,$4,$6,$7}')
		[ -n "$a" ] && [ "$a" = "$b" ]; ok "compare $c N/Min/Max/Avg/Stddev equal ministat's" $? "'$a' vs '$b'"
	done
	grep -q "No difference proven at 95.0% confidence" "$D/cmp.hpet" && grep -q "No difference proven" "$D/ms.hpet"
	ok "compare hpet: no difference, as ministat says" $?
else
	fail "ministat" "not installed (apt-get install ministat)"
fi
grep -q "Difference at 95.0% confidence" "$D/cmp.tsc" && grep -q "^|" "$D/cmp.tsc" && grep -q "^x .*/a.log$" "$D/cmp.tsc"
ok "compare tsc: legend, plot and difference printed" $?
grep -E "^tsc " "$D/cmp" | grep -q '\*+19.1%'
ok "compare summary marks tsc as different (+19.1%)" $? "$(grep -E '^tsc ' "$D/cmp")"
"$T" compare "$D/a.log" "$D/os.log" >"$D/cmp"
grep -E "^tsc +tsc +25.6 +10.2 +15.35 \+/- 0.2965" "$D/cmp" >/dev/null
ok "compare os log: kernel path over the tsc read, 15.35 +/- 0.2965 ns" $? "$(tail -3 "$D/cmp")"
# With two bare-metal logs the OS call is lined up with each, in the order given,
# and the pairing with a.log is the same row as with a.log alone.
"$T" compare "$D/a.log" "$D/b.log" "$D/os.log" >"$D/cmp3"
sed -n '/^Kernel path/,$p' "$D/cmp3" | grep -E '^tsc +tsc ' >"$D/rows3"
[ "$(wc -l <"$D/rows3")" = 2 ] && head -1 "$D/rows3" | grep -q "(.*/os.log vs .*/a.log)$" &&
	tail -1 "$D/rows3" | grep -q "(.*/os.log vs .*/b.log)$" && grep -qxF "$(head -1 "$D/rows3")" "$D/cmp"
ok "compare os log with two bare logs: one kernel-path row each, in order" $? "$(cat "$D/rows3")"
"$T" compare "$D/two.log" >"$D/cmp"
ok "compare one file with two runs" $? "$(head -3 "$D/cmp")"

# --- capture from a pty ----------------------------------------------------------
cap() { # fixture, timeout, expected exit
	python3 tests/tools/pty_capture.py "$T" "$D/$1" "$D/cap-$1" "$2"
}
cap noisy.log 20 2>"$D/err"; rc=$?
[ "$rc" = 0 ] && cmp -s "$D/noisy.log" "$D/cap-noisy.log"
ok "capture from a pty: exit 0, bytes identical" $? "exit $rc: $(tail -3 "$D/err")"
grep -q "complete and undamaged" "$D/err"; ok "capture verdict: complete and undamaged" $? "$(tail -2 "$D/err")"
cap partial.log 2 2>"$D/err"; rc=$?
[ "$rc" = 3 ] && cmp -s "$D/partial.log" "$D/cap-partial.log" && grep -q "partial" "$D/err"
ok "capture of a cut-short run: timeout, partial, exit 3" $? "exit $rc: $(tail -3 "$D/err")"

# --- hostile text is shown escaped ----------------------------------------------------
# Every string in the fixtures made to carry terminal escapes, C1 and bidi
# controls and invalid UTF-8 (tests/tools/evil_log.py); a file name too.
# What each command prints, on stdout and stderr, must hold none of them raw
# (tests/tools/evil_text.py), and show them escaped as tools/lib/textsafe.h says.
for f in a b os; do python3 tests/tools/evil_log.py "$D/$f.log" "$D/evil-$f.log"; done
mkdir "$D/evil-dir" && cp "$D/evil-a.log" "$D/evil-dir/$(printf 'x\033]0;PWNED\007y.log')"
evil() { # [--json] what, times the payload's start is shown, times it is shown whole, then the command
	j=
	[ "$1" = --json ] && j=--json && shift
	w=$1 m=$2 h=$3
	shift 3
	"$@" >"$D/evil.out" 2>"$D/evil.err"
	python3 tests/tools/evil_text.py $j "$w" "$D/evil.out" "$m" "$h"
	python3 tests/tools/evil_text.py "$w, stderr" "$D/evil.err" 0 0
}
evil show 15 10 "$T" show "$D/evil-a.log"
evil "show, an OS log" 10 5 "$T" show "$D/evil-os.log"
evil --json "show --json" 20 10 "$T" show --json "$D/evil-a.log" "$D/evil-os.log"
evil compare 8 5 "$T" compare "$D/evil-a.log" "$D/evil-b.log" "$D/evil-os.log"
evil "show DIR with a hostile file name" 16 10 "$T" show "$D/evil-dir"
evil "logs DIR" 1 0 "$T" logs "$D/evil-dir"
evil --json "logs --json" 2 1 "$T" logs --json "$D/evil-dir"
mkdir "$D/evil-damaged" && cp "$D/damaged.log" "$D/evil-damaged/$(printf 'x\033]0;PWNED\007y.log')"
evil "show, a damaged log with a hostile name" 1 0 "$T" show "$D/evil-damaged"
grep -q 'x\\x1b]0;PWNED\\x07y.log:7: bad record crc' "$D/evil.err"
ok "show names the damaged record's FILE:LINE, the name escaped" $? "$(cat "$D/evil.err")"
TA=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
cp "$D/evil-a.log" "$D/=evil.log"
(cd "$D" && "$TA" export =evil.log --format csv) >"$D/evil.csv" 2>"$D/evil.err"
python3 tests/tools/evil_text.py "export csv" "$D/evil.csv" 4 4
python3 tests/tools/evil_csv.py "$D/evil.csv" "'=evil.log"
"$T" export "$D/evil-a.log" --format json >"$D/evil.json" && cmp -s "$D/evil.json" "$D/evil-a.log"
ok "export json of a hostile log: the records as written, byte for byte" $?
cap evil-a.log 20 2>"$D/evil.err"
rc=$?
ok "capture of a hostile log: exit 0" "$rc" "exit $rc: $(tail -c 300 "$D/evil.err")"
python3 tests/tools/evil_text.py "capture's progress and verdict" "$D/evil.err" 0 0

# tickprobe qemu's summary line quotes the guest's serial log: a stand-in
# QEMU (--qemu) writes a hostile log and exits as the probe would, once
# refusing the CPU, once with an end record whose status has raw escapes.
# shellcheck disable=SC2016 # the stand-in's own "$@" and variables
printf '#!/bin/sh\nfor a in "$@"; do\n\tcase $a in file,id=ser0,path=*) cp "$GUEST_LOG" "${a#*path=}" ;; esac\ndone\nexit "$GUEST_EXIT"\n' \
	>"$D/qemu.sh"
chmod +x "$D/qemu.sh"
printf 'tickprobe: this CPU cannot run tickprobe: it lacks \033]0;PWNED\007 SSE2\302\233\n' >"$D/refused.log"
sed "s/\"status\":\"ok/\"status\":\"$(printf '\233\033')]0;PWNED$(printf '\007')/" "$D/a.log" >"$D/status.log"
for g in refused:39 status:33; do
	GUEST_LOG=$D/${g%%:*}.log GUEST_EXIT=${g#*:} "$T" qemu --kernel="$D/a.log" --qemu "$D/qemu.sh" \
		-o "$D/guest.log" >/dev/null 2>"$D/evil.err"
	python3 tests/tools/evil_text.py "qemu's summary of a hostile guest log (${g%%:*})" "$D/evil.err" 1 0
done
