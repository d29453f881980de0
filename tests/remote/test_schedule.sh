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
	grep -q "^  would write Boot0003 (a new entry, 186 bytes): \"tickprobe\" HD(1,GPT,$(echo $PART | tr '[:upper:]' '[:lower:]'),0x800,0x10000)/\\\\EFI\\\\tickprobe\\\\tickprobe.efi, options \"preset=quick after=reboot\"$" "$D/dry.out" &&
	grep -q '^  would write BootNext: 0003 (the next boot only; BootOrder is left as it is: 0000,0001,0002)$' "$D/dry.out" &&
	grep -q '^  would record what is to be done in .*, before any of it$' "$D/dry.out" &&
	[ "$(grep -n 'would record' "$D/dry.out" | cut -d: -f1)" -lt "$(grep -n 'would write Boot0003' "$D/dry.out" | cut -d: -f1)" ]; then
	pass "--dry-run: prints the record step first, then Boot0003 and BootNext; no variable and no file changed"
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
if [ $rc = 0 ] && [ "$(find "$D/efivars" -name 'Boot[0-9A-F][0-9A-F][0-9A-F][0-9A-F]-*' | wc -l)" = 4 ] && grep -q 'still pending' "$D/s2.out" &&
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

# --- transactional: the record first, and a failed step undone ----------------------
# The record cannot be written (its temporary file's name is taken by a
# directory; or the state directory is a file): nothing changes.
mkdir "$D/state/schedule.state.new"
S --preset quick >"$D/nostate.out" 2>&1; rc=$?
rmdir "$D/state/schedule.state.new"
: >"$D/state-file"
"$T" schedule --efivars "$D/efivars" --esp "$D/esp" --disk "$D/disk.img" --partition 1 --state-dir "$D/state-file" \
	>"$D/nostate2.out" 2>&1; rc2=$?
if [ $rc = 2 ] && [ $rc2 = 2 ] && vars | cmp -s - "$D/vars.before" && [ ! -e "$st" ] &&
	grep -q 'cannot write .*/schedule.state: .*; nothing was changed' "$D/nostate.out" && grep -q 'Not a directory' "$D/nostate2.out"; then
	pass "a record that cannot be written: exit 2, no variable written (no Boot0003, no BootNext), says nothing was changed"
else
	fail "record unwritable: exits $rc $rc2; Boot0003 $([ -e "$D/efivars/Boot0003-$G" ] && echo set || echo unset), BootNext $([ -e "$D/efivars/BootNext-$G" ] && echo set || echo unset): $(tail -n 2 "$D/nostate.out" | tr '\n' ' ')"
	rm -f "$D/efivars/Boot0003-$G" "$D/efivars/BootNext-$G"
fi
# A state directory another user can write is not trusted, for --cancel either.
mkdir -p "$D/state-open" && chmod 0777 "$D/state-open"
"$T" schedule --efivars "$D/efivars" --esp "$D/esp" --disk "$D/disk.img" --partition 1 --state-dir "$D/state-open" \
	>"$D/openstate.out" 2>&1; rc=$?
printf 'method=efi\nentry=0000\nentry_created=yes\n' >"$D/state-open/schedule.state"
"$T" schedule --cancel --efivars "$D/efivars" --state-dir "$D/state-open" >"$D/openstate-c.out" 2>&1; rc2=$?
if [ $rc = 2 ] && [ $rc2 = 2 ] && vars | cmp -s - "$D/vars.before" && grep -q 'can be written by other users' "$D/openstate.out" &&
	grep -q 'can be written by other users' "$D/openstate-c.out"; then
	pass "a state directory others can write: schedule and --cancel refuse it (a planted record removes no Boot0000), nothing changed"
else
	fail "state directory others can write: exits $rc $rc2: $(tail -n 1 "$D/openstate-c.out")"
fi
# BootNext cannot be written: the entry made a step before is removed again.
mkdir "$D/efivars/BootNext-$G"
S --preset quick >"$D/nonext.out" 2>&1; rc=$?
rmdir "$D/efivars/BootNext-$G"
if [ $rc = 2 ] && vars | cmp -s - "$D/vars.before" && [ ! -e "$st" ] && grep -q 'undoing what was done' "$D/nonext.out" &&
	grep -q '^  remove Boot0003 (schedule made it)$' "$D/nonext.out" && grep -q 'undone: nothing of this schedule is left' "$D/nonext.out"; then
	pass "BootNext not writable: exit 2, Boot0003 removed again, the record gone, the variables as before"
else
	fail "BootNext not writable: exit $rc: $(tr '\n' ' ' <"$D/nonext.out" | cut -c1-400)"
fi
# The record lost: --cancel still finds BootNext and the entry schedule made.
S --preset quick >/dev/null 2>&1
rm -f "$st"
S --cancel >"$D/lost.out" 2>&1; rc=$?
if [ $rc = 0 ] && vars | cmp -s - "$D/vars.before" && grep -q 'no record in' "$D/lost.out" &&
	grep -q '^  remove BootNext (it names Boot0003, tickprobe.s entry)$' "$D/lost.out" &&
	grep -q '^  remove Boot0003 (tickprobe.s entry, outside BootOrder' "$D/lost.out"; then
	pass "--cancel without its record: finds BootNext naming tickprobe's Boot0003 and the entry, removes both; the variables as before"
else
	fail "--cancel without a record: exit $rc: $(tr '\n' ' ' <"$D/lost.out" | cut -c1-400)"
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
# grub-editenv failing to set tickprobe_once after grub-reboot set next_entry:
# next_entry is unset again (the real grub-editenv for everything else).
mkdir -p "$D/failbin"
printf '#!/bin/sh\ncase "$*" in *"set tickprobe_once="*) echo "grub-editenv: test failure" >&2; exit 1 ;; esac\nexec %s "$@"\n' \
	"$(command -v grub-editenv)" >"$D/failbin/grub-editenv"
chmod +x "$D/failbin/grub-editenv"
PATH="$D/failbin:$PATH" GS --preset quick >"$D/gfail.out" 2>&1; rc=$?
if [ $rc = 2 ] && [ -z "$(grub-editenv "$D/boot/grub/grubenv" list)" ] && [ ! -e "$st" ] && grep -q 'undone: nothing of this schedule is left' "$D/gfail.out"; then
	pass "GRUB: tickprobe_once not writable after grub-reboot: exit 2, next_entry unset again, the record gone"
else
	fail "GRUB with a failing grub-editenv: exit $rc: env $(grub-editenv "$D/boot/grub/grubenv" list | tr '\n' ' '): $(tr '\n' ' ' <"$D/gfail.out" | cut -c1-300)"
fi
GS >/dev/null 2>&1
rm -f "$st"
GS --cancel >"$D/glost.out" 2>&1; rc=$?
if [ $rc = 0 ] && [ -z "$(grub-editenv "$D/boot/grub/grubenv" list)" ] && grep -q 'no record in' "$D/glost.out"; then
	pass "GRUB --cancel without its record: next_entry and tickprobe_once found and unset"
else
	fail "GRUB --cancel without a record: exit $rc: $(grub-editenv "$D/boot/grub/grubenv" list | tr '\n' ' ')"
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
# --- --after-boot retries an import that failed; its files are never reached through links --
# The store unusable (a file that is no SQLite database): the log is not
# taken, and the next run, with the store usable again, imports it.
fresh
cp "$BARE" "$D/esp/tickprobe/logs/0005.log"
echo "not a database" >"$D/state/fleet.db"
AB >"$D/retry1.out" 2>&1; rc=$?
taken=$(cat "$D/state/collected" 2>/dev/null)
rm "$D/state/fleet.db"
AB >"$D/retry2.out" 2>&1; rc2=$?
runs=$(sqlite3 "$D/state/fleet.db" 'select count(*) from runs' 2>&1)
if [ $rc = 2 ] && grep -q 'tried again at the next run' "$D/retry1.out" && [ -z "$taken" ] &&
	[ $rc2 = 0 ] && grep -q "1 new log imported into $D/state/fleet.db\$" "$D/retry2.out" && [ "$runs" = 1 ] &&
	grep -qx '0005.log [0-9]*' "$D/state/collected"; then
	pass "--after-boot: a log whose import failed (store unusable) is not marked taken; the next run imports it (fleet.db: 1 run)"
else
	fail "--after-boot retry: exits $rc $rc2, runs '$runs': $(tr '\n' ' ' <"$D/retry1.out" | cut -c1-200) | $(tr '\n' ' ' <"$D/retry2.out" | cut -c1-200)"
fi
# Links planted in the state directory are replaced, never written through.
abs() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
fresh
cp "$BARE" "$D/esp/tickprobe/logs/0006.log"
mkdir -p "$D/state/logs"
echo "precious" >"$D/precious"
ln -s "$(abs "$D/precious")" "$D/state/logs/0006.log"
ln -s "$(abs "$D/precious")" "$D/state/latest.txt.new"
ln -s "$(abs "$D/precious")" "$D/state/logs/os-0006.log.new"
AB >"$D/links.out" 2>&1; rc=$?
if [ $rc = 0 ] && [ "$(cat "$D/precious")" = precious ] && [ ! -L "$D/state/logs/0006.log" ] &&
	cmp -s "$BARE" "$D/state/logs/0006.log" && [ -f "$D/state/latest.txt" ] && [ ! -L "$D/state/latest.txt" ] &&
	[ -f "$D/state/logs/os-0006.log" ] && [ ! -e "$D/state/latest.txt.new" ]; then
	pass "--after-boot: links planted as the copy, latest.txt.new and the os log's temporary are replaced; their target untouched"
else
	fail "--after-boot with planted links: exit $rc; target now '$(head -c 60 "$D/precious")'; $(ls -l "$D/state/logs" | tr '\n' ' ' | cut -c1-300)"
fi
# The state directory reached through an administrator's link (a link of
# root's, in a directory only root can write): followed, and the store opened.
fresh
cp "$BARE" "$D/esp/tickprobe/logs/0008.log"
rm -rf "$D/linkdir" && mkdir -p "$D/linkdir" && ln -s ../state "$D/linkdir/state"
"$T" schedule --after-boot --esp "$D/esp" --efivars "$D/efivars" --state-dir "$D/linkdir/state" \
	--os-options "--quick --samples 20000" >"$D/linked.out" 2>&1; rc=$?
runs=$(sqlite3 "$D/state/fleet.db" 'select count(*) from runs' 2>&1)
chmod 1777 "$D/linkdir"
cp "$BARE" "$D/esp/tickprobe/logs/0009.log"
"$T" schedule --after-boot --esp "$D/esp" --efivars "$D/efivars" --state-dir "$D/linkdir/state" \
	--os-options "--quick --samples 20000" >"$D/linked2.out" 2>&1; rc2=$?
chmod 0755 "$D/linkdir"
if [ $rc = 0 ] && [ "$runs" = 1 ] && grep -q "1 new log imported into $D/linkdir/state/fleet.db\$" "$D/linked.out" &&
	[ $rc2 = 2 ] && grep -q 'can be written by other users' "$D/linked2.out"; then
	pass "--after-boot: a state directory that is root's link is followed and the store opened; the same link in a directory others can write is refused"
else
	fail "--after-boot through a link: exits $rc $rc2, runs '$runs': $(head -c 300 "$D/linked.out") | $(head -c 200 "$D/linked2.out")"
fi
# A state directory another user can write is refused.
fresh
cp "$BARE" "$D/esp/tickprobe/logs/0007.log"
chmod 0777 "$D/state"
AB >"$D/open.out" 2>&1; rc=$?
chmod 0755 "$D/state"
if [ $rc = 2 ] && grep -q 'can be written by other users' "$D/open.out" && [ -z "$(ls -A "$D/state")" ]; then
	pass "--after-boot: a state directory others can write is refused, exit 2, nothing written in it"
else
	fail "--after-boot with an open state directory: exit $rc: $(head -c 300 "$D/open.out")"
fi

echo "test_schedule: $(( ($(date +%s%3N) - T0) / 1000 )) s"
