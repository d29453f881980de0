#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Logs found where a run without a cable leaves them: a DIR operand for every
# reader, --latest, and tickprobe logs.  The logs are real: one bare-metal
# run under QEMU and one tickprobe os run, laid out as the UEFI app numbers
# them (tickprobe/logs/NNNN.log), plus a cut-short one.
. tests/lib/check.sh
BUILD=${BUILD:-build}
T=$BUILD/tickprobe
D=$(mktemp -d /tmp/tickprobe-logdir.XXXXXX)
trap 'rm -rf "$D"' EXIT

code() { # name, expected exit, command...
	n=$1 want=$2; shift 2
	"$@" >"$D/out" 2>"$D/err"; got=$?
	check "exit $want: $n" "[ $got = $want ]" "got $got: $(head -c 300 "$D/err")"
}

[ -x "$T" ] || { fail setup "build $T first"; exit 1; }
timeout 120 "$T" qemu --kernel --preset quick --options slow_rates=off -o "$D/bare.log" >/dev/null 2>&1
timeout 120 "$T" os --quick -o "$D/os.log" >/dev/null 2>&1
# compare's kernel path needs an OS log on a clocksource the bare log reads
# (tsc, hpet, acpi_pm); a host that offers only kvm-clock has none, and a real
# capture on tsc (tests/data/logs/schema1/README.md) stands in for it there.
case $(grep -o '"clocksource":"[a-z_-]*"' "$D/os.log" | head -n 1 | cut -d'"' -f4) in
tsc | hpet | acpi_pm) ;;
*) cp tests/data/logs/schema1/os-quick.log "$D/os.log" ;;
esac
check "real captures" "grep -q '\"type\":\"end\"' '$D/bare.log' && grep -q '\"type\":\"end\"' '$D/os.log'" "no end record"
S=$D/stick/tickprobe/logs
mkdir -p "$S/old"
cp "$D/bare.log" "$S/0000.log"
cp "$D/os.log" "$S/0001.log"
cp "$D/bare.log" "$S/0009.log"
head -c 3000 "$D/bare.log" >"$S/0010.log"   # the newest: cut short
cp "$D/bare.log" "$S/old/0099.log"          # below: not this directory's newest
touch -d '2020-01-01' "$S"/*.log            # numbers decide, not dates

code "logs DIR" 0 "$T" logs "$D/stick"
check "logs lists every log" "[ \$(grep -c '^00' '$D/out') = 5 ]" "$(cat "$D/out")"
# ok-absent too: under TCG on a loaded host a rate check can fail (the run is
# then ok-absent, its log as whole); the columns are what is tested here.
check "logs: number, machine, boot, status, integrity" \
	"grep -q '^0000 .* bios  *ok\(-absent\)\?  *complete, undamaged' '$D/out' && grep -q '^0001 .* linux  *ok\(-absent\)\? ' '$D/out'" "$(cat "$D/out")"
check "logs: a cut-short log says so" "grep -q '^0010 .*partial: no end record' '$D/out'" "$(cat "$D/out")"
code "logs --json" 0 "$T" logs --json "$D/stick"
check "logs --json parses, 5 logs, one not clean" \
	"python3 -c 'import json,sys; l=json.load(open(sys.argv[1]))[\"logs\"]; sys.exit(0 if len(l)==5 and sum(not x[\"clean\"] for x in l)==1 else 1)' '$D/out'" "$(head -c 300 "$D/out")"
# No default place on this machine (no ESP log directory, no stick): a clear message.
if [ ! -d /boot/efi/tickprobe/logs ] && ! grep -q ' /media/' /proc/self/mounts; then
	code "logs with nowhere to look" 2 "$T" logs
	check "logs says where it looked" "grep -q '/boot/efi/tickprobe/logs' '$D/err'" "$(cat "$D/err")"
	code "show --latest with nowhere to look" 2 "$T" show --latest
fi

code "show --latest DIR (the newest is cut short)" 3 "$T" show --latest "$S"
check "show --latest takes the highest number" "grep -q -- '--latest: $S/0010.log' '$D/err'" "$(head -3 "$D/err")"
rm "$S/0010.log"
code "show --latest DIR" 0 "$T" show --latest "$S"
check "show --latest: 0009, not old/0099" "grep -q -- '--latest: $S/0009.log' '$D/err'" "$(head -3 "$D/err")"
code "show DIR: every log below it" 0 "$T" show --json "$D/stick"
check "show DIR: 4 runs" "[ \$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))[\"runs\"]))' '$D/out') = 4 ]" ""
code "export DIR" 0 "$T" export --format csv "$D/stick"
check "export DIR: rows from 4 logs" "[ \$(cut -d, -f1 '$D/out' | sort -u | grep -c '^\"') = 4 ]" "$(cut -d, -f1 "$D/out" | sort -u)"
code "compare --latest DIR os.log" 0 "$T" compare --latest "$S" "$D/os.log"
check "compare --latest: the newest bare-metal run against the OS log" \
	"grep -q '\\[1\\] $S/0009.log' '$D/out' && grep -q '\\[2\\] $D/os.log' '$D/out' && grep -q 'Kernel path over the bare hardware read' '$D/out'" \
	"$(grep '^  \[' "$D/out")"
code "report --latest DIR" 0 "$T" report --latest "$S" -o "$D/r.html"
check "report --latest: one run on the page" "grep -q '1 run' '$D/err'" "$(cat "$D/err")"
mkdir "$D/empty"
code "show of an empty DIR" 2 "$T" show "$D/empty"
check "empty DIR named" "grep -q 'no \*.log files' '$D/err'" "$(cat "$D/err")"
code "show --latest of an empty DIR" 2 "$T" show --latest "$D/empty"

# The default places with a stick plugged in: a volume mounted under /media
# holding tickprobe/logs is found with no DIR given; one mounted elsewhere
# that is no removable disk is not.  Done in a private mount namespace
# (unshare -m), so the test's mounts vanish with it and nobody else sees
# them; needs root, as mounting does.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1; then
	M=/media/tickprobe-test.$$
	mkdir -p "$M" "$D/notstick"
	unshare -m sh -c '
		mount --make-rprivate / 2>/dev/null
		mount -t tmpfs -o size=4m tpstick "$1" && mount -t tmpfs -o size=4m tpother "$2" || exit 9
		mkdir -p "$1/tickprobe/logs" "$2/tickprobe/logs"
		cp "$3" "$1/tickprobe/logs/0004.log"
		cp "$3" "$2/tickprobe/logs/0007.log"
		"$4" logs >"$5/mounted.out" 2>"$5/mounted.err"
		echo $? >"$5/mounted.rc"
		"$4" show --latest >/dev/null 2>"$5/latest.err"' sh "$M" "$D/notstick" "$D/bare.log" "$T" "$D"
	rc=$?
	rmdir "$M" 2>/dev/null
	check "logs finds a stick under /media with no DIR given" \
		"[ $rc = 0 ] && [ \"\$(cat '$D/mounted.rc')\" = 0 ] && grep -q '^0004 ' '$D/mounted.out' && grep -q '$M/tickprobe/logs' '$D/mounted.out'" \
		"unshare $rc: $(cat "$D/mounted.out" "$D/mounted.err" 2>/dev/null | head -5)"
	check "logs leaves out a mount that is neither under /media nor removable" \
		"! grep -q '0007\|notstick' '$D/mounted.out'" "$(cat "$D/mounted.out")"
	check "show --latest takes the stick's newest" "grep -q -- '--latest: $M/tickprobe/logs/0004.log' '$D/latest.err'" \
		"$(head -3 "$D/latest.err")"
fi
