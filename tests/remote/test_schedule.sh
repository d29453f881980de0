#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe schedule against a fake system: an efivarfs directory holding
# OVMF's own entries, an ESP directory, a GPT disk image, a GRUB /boot, a
# state directory.  The Boot#### entry is checked byte for byte against
# tests/remote/fakevars.py, which writes the UEFI layout on its own; BootOrder
# must never change.  Then --cancel, --uninstall, GRUB's grub-reboot (the real
# grub-editenv on a fake grubenv), --after-boot, and logs/show --latest.
. tests/lib/check.sh
BUILD=${BUILD:-build}
D=$BUILD/test-remote/schedule
rm -rf "$D" && mkdir -p "$D"
T=$BUILD/tickprobe
T0=$(date +%s%3N)
for t in python3 sfdisk grub-editenv sqlite3; do
	command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
G=8be4df61-93ca-11d2-aa0d-00e098032b8c
PART=0FC63DAF-8483-4772-8E79-3D69D8477DE4

fresh() {
	rm -rf "$D/efivars" "$D/esp" "$D/state" && mkdir -p "$D/efivars" "$D/esp/EFI/tickprobe" "$D/esp/tickprobe/logs" "$D/state"
	echo app >"$D/esp/EFI/tickprobe/tickprobe.efi"
	python3 tests/remote/fakevars.py ovmf "$D/efivars"
}
vars() { (cd "$D/efivars" && for f in *; do printf '%s ' "$f"; od -An -tx1 -v "$f" | tr -d ' \n'; echo; done); }
S() { "$T" schedule --efivars "$D/efivars" --esp "$D/esp" --disk "$D/disk.img" --partition 1 --state-dir "$D/state" "$@"; }
hex() { od -An -tx1 -v "$D/efivars/$1-$G" | tr -d ' \n'; }

truncate -s 40M "$D/disk.img"
printf 'label: gpt\nstart=2048, size=65536, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, uuid=%s\n' $PART | sfdisk -q "$D/disk.img" ||
	{ fail "setup: sfdisk"; exit 1; }
fresh
vars >"$D/vars.before"

# --- dry run: the steps, nothing done ---------------------------------------------
S --preset quick --dry-run >"$D/dry.out" 2>&1; rc=$?
if [ $rc = 0 ] && vars | cmp -s - "$D/vars.before" && [ -z "$(ls -A "$D/state")" ] &&
	grep -q "^  would write Boot0003 (a new entry, 186 bytes): \"tickprobe\" HD(1,GPT,$(echo $PART | tr A-Z a-z),0x800,0x10000)/\\\\EFI\\\\tickprobe\\\\tickprobe.efi, options \"preset=quick after=reboot\"$" "$D/dry.out" &&
	grep -q '^  would write BootNext: 0003 (the next boot only; BootOrder is left as it is: 0000,0001,0002)$' "$D/dry.out" &&
	grep -q '^  would record what was done in ' "$D/dry.out"; then
	pass "--dry-run: prints the Boot0003, BootNext and record steps; no variable and no file changed"
else
	fail "--dry-run: exit $rc: $(head -n 4 "$D/dry.out" | tr '\n' ' ')"
fi

# --- the entry, byte for byte --------------------------------------------------------
S --preset quick --runs 3 >"$D/s1.out" 2>&1; rc=$?
want=$(python3 tests/remote/fakevars.py option tickprobe $PART 2048 65536 '\EFI\tickprobe\tickprobe.efi' 'preset=quick runs=3 after=reboot')
if [ $rc = 0 ] && [ "$(hex Boot0003)" = "$want" ] && [ "$(hex BootNext)" = 070000000300 ] &&
	[ "$(grep -v '^Boot000[3]\|^BootNext' "$D/vars.before")" = "$(vars | grep -v '^Boot0003\|^BootNext')" ]; then
	pass "schedule: Boot0003 is the UEFI load option byte for byte ($(( ${#want} / 2 )) bytes), BootNext 0003; BootOrder and OVMF's entries untouched"
else
	fail "schedule: exit $rc; Boot0003 $(hex Boot0003 | cut -c1-60)... want ${want%"${want#????????????????????????????????????????????????????????????}"}..."
fi
st=$D/state/schedule.state
if grep -qx method=efi "$st" && grep -qx entry=0003 "$st" && grep -qx entry_created=yes "$st" && grep -qx 'boot_next_before=' "$st" &&
	grep -qx 'options=preset=quick runs=3 after=reboot' "$st"; then
	pass "schedule.state records method, entry 0003 (made here), no BootNext before, the options"
else
	fail "schedule.state: $(tr '\n' ' ' <"$st")"
fi
S --preset quick >"$D/s2.out" 2>&1; rc=$?
if [ $rc = 0 ] && [ "$(ls "$D/efivars" | grep -c '^Boot[0-9A-F]\{4\}-')" = 4 ] && grep -q 'still pending' "$D/s2.out" &&
	[ "$(hex BootNext)" = 070000000300 ]; then
	pass "schedule again while pending: undone first, then Boot0003 again: one tickprobe entry, no duplicate"
else
	fail "schedule again: exit $rc: $(ls "$D/efivars" | tr '\n' ' ')"
fi
S --cancel >"$D/c1.out" 2>&1; rc=$?
if [ $rc = 0 ] && vars | cmp -s - "$D/vars.before" && [ ! -e "$st" ] && grep -q '^  remove BootNext$' "$D/c1.out" &&
	grep -q '^  remove Boot0003 (schedule made it)$' "$D/c1.out"; then
	pass "--cancel: BootNext and Boot0003 removed, the variables exactly as before, the record gone"
else
	fail "--cancel: exit $rc: $(tr '\n' ' ' <"$D/c1.out")"
fi
S --cancel >"$D/c2.out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q 'nothing to cancel' "$D/c2.out"; then
	pass "--cancel with nothing scheduled: says so, exit 0"
else
	fail "--cancel again: exit $rc"
fi

# --- an entry of an earlier install is reused; a BootNext set before comes back -----
old=$(python3 tests/remote/fakevars.py option tickprobe $PART 2048 65536 '\EFI\TICKPROBE\TICKPROBE.EFI' 'preset=default')
python3 tests/remote/fakevars.py set "$D/efivars" Boot0007 "$old"
python3 tests/remote/fakevars.py set "$D/efivars" BootNext 070000000100
vars >"$D/vars.before7"
S >"$D/s7.out" 2>&1; rc=$?
want=$(python3 tests/remote/fakevars.py option tickprobe $PART 2048 65536 '\EFI\tickprobe\tickprobe.efi' 'after=reboot')
if [ $rc = 0 ] && [ "$(hex Boot0007)" = "$want" ] && [ "$(hex BootNext)" = 070000000700 ] && [ ! -e "$D/efivars/Boot0003-$G" ] &&
	grep -qx entry_created=no "$st" && grep -qx boot_next_before=0001 "$st"; then
	pass "an existing tickprobe entry (Boot0007, path in capitals) is reused and rewritten; the BootNext before (0001) recorded"
else
	fail "reuse: exit $rc: $(tr '\n' ' ' <"$D/s7.out" | cut -c1-300)"
fi
S --cancel >"$D/c7.out" 2>&1; rc=$?
if [ $rc = 0 ] && [ "$(hex BootNext)" = 070000000100 ] && [ -e "$D/efivars/Boot0007-$G" ] && grep -q 'keep Boot0007' "$D/c7.out"; then
	pass "--cancel: BootNext back to 0001, the entry that was there before kept"
else
	fail "--cancel after reuse: exit $rc: $(tr '\n' ' ' <"$D/c7.out")"
fi

# --- uninstall: every trace ---------------------------------------------------------------
fresh
S >/dev/null 2>&1
python3 tests/remote/fakevars.py set "$D/efivars" BootOrder 070000000300000001000200 # someone put 0003 in BootOrder
"$T" schedule --uninstall --efivars "$D/efivars" --state-dir "$D/state" --boot-directory "$D/noboot" >"$D/u.out" 2>&1; rc=$?
if [ $rc = 0 ] && vars | cmp -s - "$D/vars.before" && [ ! -e "$st" ]; then
	pass "--uninstall: Boot0003, BootNext and BootOrder's 0003 removed; the variables as OVMF made them; the record gone"
else
	fail "--uninstall: exit $rc: $(tr '\n' ' ' <"$D/u.out")"
fi

# --- GRUB --------------------------------------------------------------------------------
# grub.cfg stands for what update-grub writes: Debian's header clears
# next_entry (save_env) and the package's 25_tickprobe uses tickprobe_once.
mkdir -p "$D/boot/grub"
cat >"$D/boot/grub/grub.cfg" <<'CFG'
if [ "${next_entry}" ] ; then
   set default="${next_entry}"
   set next_entry=
   save_env next_entry
fi
function tickprobe_boot {
	tickprobe_more="$tickprobe_once"
}
menuentry 'tickprobe' --class tickprobe $menuentry_id_option 'tickprobe' {
	tickprobe_boot default
}
CFG
grub-editenv "$D/boot/grub/grubenv" create
GS() { "$T" schedule --efivars "$D/no-efivars" --boot-directory "$D/boot" --state-dir "$D/state" "$@"; }
GS --preset latency --runs 2 >"$D/g2.out" 2>&1; rc2=$?
GS --preset latency --runs 1 >"$D/g.out" 2>&1; rc=$?
grub-editenv "$D/boot/grub/grubenv" list >"$D/g.env"
if [ $rc2 = 1 ] && grep -q -- '--runs 2 needs the firmware' "$D/g2.out" &&
	[ $rc = 0 ] && grep -qx next_entry=tickprobe "$D/g.env" && grep -qx 'tickprobe_once=preset=latency runs=1 after=reboot' "$D/g.env" &&
	grep -q "through GRUB's grub-reboot" "$D/g.out" && grep -qx method=grub "$st"; then
	pass "GRUB (no firmware variables): grub-reboot tickprobe, tickprobe_once='preset=latency runs=1 after=reboot'; --runs 2 refused (a series needs BootNext)"
else
	fail "GRUB: exit $rc: $(tr '\n' ' ' <"$D/g.out" | cut -c1-300) env: $(tr '\n' ' ' <"$D/g.env")"
fi
GS --cancel >"$D/gc.out" 2>&1; rc=$?
if [ $rc = 0 ] && [ -z "$(grub-editenv "$D/boot/grub/grubenv" list)" ] && [ ! -e "$st" ]; then
	pass "GRUB --cancel: next_entry and tickprobe_once unset"
else
	fail "GRUB --cancel: exit $rc: $(grub-editenv "$D/boot/grub/grubenv" list | tr '\n' ' ')"
fi
GS >/dev/null 2>&1
"$T" schedule --uninstall --efivars "$D/no-efivars" --boot-directory "$D/boot" --state-dir "$D/state" >/dev/null 2>&1; rc=$?
if [ $rc = 0 ] && [ -z "$(grub-editenv "$D/boot/grub/grubenv" list)" ]; then
	pass "GRUB --uninstall: the one-shot is gone"
else
	fail "GRUB --uninstall: exit $rc"
fi
sed -i '/save_env next_entry/d' "$D/boot/grub/grub.cfg"
GS >"$D/gn.out" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q 'does not clear next_entry' "$D/gn.out" && [ -z "$(grub-editenv "$D/boot/grub/grubenv" list)" ]; then
	pass "GRUB whose grub.cfg never clears next_entry: refused (it would boot the probe every time), exit 2"
else
	fail "GRUB without save_env: exit $rc: $(cat "$D/gn.out")"
fi

# --- usage ---------------------------------------------------------------------------
bad=
for args in "--preset nope" "--disk x" "--cancel --reboot" "--runs 0" "--after-boot --dry-run" "--method bios" "extra"; do
	# shellcheck disable=SC2086
	"$T" schedule $args >/dev/null 2>"$D/usage.err"; rc=$?
	[ $rc = 1 ] && [ "$(wc -l <"$D/usage.err")" = 1 ] && grep -q '^tickprobe schedule: ' "$D/usage.err" || bad="$bad [$args: $rc]"
done
if [ -z "$bad" ]; then
	pass "usage errors (unknown preset, --disk alone, --cancel --reboot, --runs 0, ...): one line, exit 1"
else
	fail "usage errors:$bad"
fi

# --- --after-boot: the unit's step -------------------------------------------------------
fresh
BARE=tests/data/logs/schema1/q35-uefi-default.log
cp "$BARE" "$D/esp/tickprobe/logs/0004.log"
printf 'method=efi\nentry=0003\n' >"$st" # a schedule whose BootNext the firmware has used
AB() { "$T" schedule --after-boot --esp "$D/esp" --efivars "$D/efivars" --state-dir "$D/state" --os-options "--quick --samples 20000"; }
AB >"$D/ab.out" 2>&1; rc=$?
L=$D/state/latest.txt
if [ $rc = 0 ] && grep -q "1 new log imported into $D/state/fleet.db\$" "$D/ab.out" && [ -f "$D/state/logs/os-0004.log" ] &&
	[ ! -e "$st" ] && grep -q 'the scheduled boot has happened' "$D/ab.out" &&
	head -n 1 "$L" | grep -q "^tickprobe: the probe's log $D/esp/tickprobe/logs/0004.log (bare metal) against $D/state/logs/os-0004.log (Linux " &&
	sed '1,3d' "$L" | cmp -s - "$("$T" compare "$D/esp/tickprobe/logs/0004.log" "$D/state/logs/os-0004.log" >"$D/cmp.txt" 2>&1; echo "$D/cmp.txt")"; then
	pass "--after-boot: the new log imported, tickprobe os once (os-0004.log), latest.txt is tickprobe compare of the two; the used schedule forgotten"
else
	fail "--after-boot: exit $rc: $(tr '\n' ' ' <"$D/ab.out" | cut -c1-400)"
fi
runs=$(sqlite3 "$D/state/fleet.db" 'select count(*) from runs' 2>&1)
ls -l --time-style=+%s.%N "$L" "$D/state/logs" >"$D/ab.before"
AB >"$D/ab2.out" 2>&1; rc=$?
ls -l --time-style=+%s.%N "$L" "$D/state/logs" >"$D/ab.after"
if [ $rc = 0 ] && [ ! -s "$D/ab2.out" ] && cmp -s "$D/ab.before" "$D/ab.after" && [ "$runs" = 1 ]; then
	pass "--after-boot with nothing new: silent, exit 0, no tickprobe os, latest.txt untouched (fleet.db: 1 run)"
else
	fail "--after-boot again: exit $rc, runs '$runs': $(head -c 300 "$D/ab2.out")"
fi
rm -rf "$D/esp/tickprobe"
AB >"$D/ab3.out" 2>&1; rc=$?
if [ $rc = 0 ] && [ ! -s "$D/ab3.out" ]; then
	pass "--after-boot with no log directory on the ESP: silent, exit 0"
else
	fail "--after-boot without logs: exit $rc"
fi

# --- logs and show --latest find both: the ESP's log and the OS log ----------------------
# In a private mount namespace (unshare -m, root), tmpfs over /boot and
# /var/lib stand for the ESP and the state; nobody else sees them.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1; then
	unshare -m sh -c '
		mount --make-rprivate / 2>/dev/null
		mount -t tmpfs -o size=8m tpboot /boot && mount -t tmpfs -o size=8m tpvar /var/lib || exit 9
		mkdir -p /boot/efi/tickprobe/logs /var/lib/tickprobe/logs
		cp "$1" /boot/efi/tickprobe/logs/0004.log
		sleep 0.05; cp "$2" /var/lib/tickprobe/logs/os-0004.log
		"$3" logs >"$4/both.logs" 2>&1
		"$3" show --latest >"$4/both.show" 2>"$4/both.err"
		echo $? >"$4/both.rc"' sh "$BARE" "$D/state/logs/os-0004.log" "$T" "$D"
	rc=$?
	if [ $rc = 0 ] && grep -q '^/boot/efi/tickprobe/logs:$' "$D/both.logs" && grep -q '^/var/lib/tickprobe/logs:$' "$D/both.logs" &&
		[ "$(cat "$D/both.rc")" = 0 ] && grep -q -- '--latest: /boot/efi/tickprobe/logs/0004.log$' "$D/both.err" &&
		grep -q -- '--latest: /var/lib/tickprobe/logs/os-0004.log (this system, measured after it)$' "$D/both.err"; then
		pass "logs lists /boot/efi/tickprobe/logs and /var/lib/tickprobe/logs; show --latest shows the bare log and the OS log after it"
	else
		fail "logs/show --latest: unshare $rc: $(cat "$D/both.err" "$D/both.logs" 2>/dev/null | head -n 6 | tr '\n' ' ')"
	fi
fi
echo "test_schedule: $(( ($(date +%s%3N) - T0) / 1000 )) s"
