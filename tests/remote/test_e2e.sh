#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The remote flow end to end, as on a server reached by SSH only: one OVMF
# machine with its own copy of OVMF_VARS and one disk (tests/remote/lib.sh).
#   boot 1  the installed system runs `tickprobe schedule --preset quick --reboot`
#   boot 2  the firmware's BootNext runs tickprobe from \EFI\tickprobe, which
#           saves its log on the ESP and reboots (after=reboot)
#   boot 3  the installed system again: the package unit's step imports the log,
#           runs `tickprobe os --quick` and writes latest.txt; then it powers off
# latest.txt, the store and the logs are then read off the disk with mtools.
# A second machine starts from the disk and variables as boot 1 left them
# (copied while the first was paused at its reset) and is reset part-way
# through the probe's boot (QEMU's system_reset, as a watchdog or a BMC
# would): its next boot must be the installed system.
# Wall times are reported, never asserted (the host is shared).
. tests/lib/check.sh
BUILD=${BUILD:-build}
OUT=$BUILD/test-remote/e2e
rm -rf "$OUT" && mkdir -p "$OUT"
# The kernel's cache: the build's, which the tests of tests/linux/ fill and
# read too, not the user's ~/.cache.
export XDG_CACHE_HOME
XDG_CACHE_HOME=$(cd "$BUILD" && pwd)/cache
. tests/remote/lib.sh
T0=$(NOW_MS)
for t in qemu-system-x86_64 python3 cpio sfdisk mkfs.fat mcopy grub-mkimage apt-get dpkg-deb gzip; do
	command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
for f in /usr/share/OVMF/OVMF_CODE_4M.fd /usr/share/OVMF/OVMF_VARS_4M.fd /bin/busybox "$BUILD/tickprobe-static" "$BUILD/BOOTX64.EFI"; do
	[ -f "$f" ] || { fail "setup: no $f (make deps all)"; exit 1; }
done
cloud_kernel || { fail "setup: Debian's cloud kernel could not be fetched (apt-get update?)"; exit 1; }
make_initramfs && make_grub || { fail "setup: the initramfs or GRUB"; exit 1; }
make_disk || { fail "setup: the disk"; exit 1; }
echo "setup: $(( ($(NOW_MS) - T0) / 1000 )) s, kernel $KERNEL"

# --- the flow --------------------------------------------------------------------
python3 tests/remote/e2e.py flow "$OUT" >"$OUT/flow.txt" 2>&1
cat "$OUT/flow.txt"
S=$OUT/serial-flow.txt
kinds=$(sed -n 's/^e2e: boot [0-9]*: \([a-z]*\),.*/\1/p' "$OUT/flow.txt" | tr '\n' ' ')
if [ "$kinds" = "installed tickprobe installed " ] && grep -q '^e2e: whole run: .* QEMU exit 0$' "$OUT/flow.txt"; then
	pass "flow: three boots, installed system, tickprobe, installed system; then it powered off"
else
	fail "flow: boots '$kinds'; $(grep 'whole run' "$OUT/flow.txt")"
fi
entry=$(sed -n 's/.*write BootNext: \([0-9A-F]\{4\}\) .*/\1/p' "$S" | head -n 1)
if [ -n "$entry" ] && grep -q "BdsDxe: starting Boot$entry \"tickprobe\" from HD(1,GPT,$ESP_GUID,0x800,0x20000)/\\\\EFI\\\\tickprobe\\\\tickprobe.efi" "$S" &&
	grep -q "BootOrder is left as it is" "$S"; then
	pass "boot 1: schedule wrote Boot$entry and BootNext; boot 2: the firmware started Boot$entry, HD(1,GPT,$ESP_GUID)/\\EFI\\tickprobe\\tickprobe.efi"
else
	fail "boot 1 to 2: entry '$entry'; $(grep -m1 'BdsDxe: starting' "$S")"
fi
if grep -q 'uefi boot, preset quick' "$S" && ! grep -q "unknown option" "$S" && grep -qi 'rebooting' "$S"; then
	pass "boot 2: the probe ran preset quick with after=reboot and rebooted by itself"
else
	fail "boot 2: $(grep -m2 -i 'preset\|unknown option\|reboot' "$S" | tr '\n' ' ')"
fi
# Boot 3 is the lines after the probe's.
b3=$OUT/boot3.txt
awk 'f; /BdsDxe: starting Boot/ { n++; if (n == 3) f = 1 }' "$S" >"$b3"
if grep -q 'tickprobe schedule --after-boot: 1 new log imported into /var/lib/tickprobe/fleet.db$' "$b3" &&
	grep -q 'tickprobe schedule --after-boot: tickprobe os --quick: /var/lib/tickprobe/logs/os-0000.log$' "$b3" &&
	grep -q 'tickprobe schedule --after-boot: the comparison: /var/lib/tickprobe/latest.txt$' "$b3" &&
	grep -q 'the scheduled boot has happened' "$b3" && grep -q 'tickprobe-e2e: after-boot exit 0' "$b3" &&
	grep -q 'tickprobe-e2e: BootNext absent' "$b3"; then
	pass "boot 3: the unit's step imported 0000.log, ran tickprobe os --quick, wrote latest.txt; BootNext is gone"
else
	fail "boot 3: $(grep 'after-boot\|BootNext' "$b3" | tr '\n' ' ')"
fi
if grep -q 'tickprobe-e2e: show --latest exit 0' "$b3" && grep -q '/var/lib/tickprobe/logs:$' "$b3" &&
	grep -q '/boot/efi/tickprobe/logs:$' "$b3"; then
	pass "boot 3: tickprobe logs lists the ESP's log and the OS log; show --latest exit 0"
else
	fail "boot 3: logs or show --latest: $(grep -A3 'tickprobe-e2e: after-boot exit' "$b3" | tail -n 1)"
fi
# What the disk holds afterwards.
esp_cmd mtype ::state/latest.txt >"$OUT/latest.txt" 2>/dev/null
esp_cmd mcopy ::tickprobe/logs/0000.log "$OUT/bare.log" 2>/dev/null
esp_cmd mcopy ::state/logs/os-0000.log "$OUT/os.log" 2>/dev/null
esp_cmd mcopy ::state/fleet.db "$OUT/fleet.db" 2>/dev/null
if head -n 1 "$OUT/latest.txt" | grep -q '^tickprobe: the probe.s log /boot/efi/tickprobe/logs/0000.log (bare metal) against /var/lib/tickprobe/logs/os-0000.log (Linux 6' &&
	grep -qx 'tickprobe compare: exit 0' "$OUT/latest.txt" &&
	"$BUILD/tickprobe" compare "$OUT/bare.log" "$OUT/os.log" 2>&1 |
	sed "s|$OUT/bare.log|/boot/efi/tickprobe/logs/0000.log|; s|$OUT/os.log|/var/lib/tickprobe/logs/os-0000.log|" |
	cmp -s - "$(sed '1,3d' "$OUT/latest.txt" >"$OUT/latest.body"; echo "$OUT/latest.body")"; then
	pass "latest.txt on the disk: 0000.log against os-0000.log, exactly what tickprobe compare prints for the two logs ($(wc -l <"$OUT/latest.txt") lines)"
else
	fail "latest.txt: $(head -n 2 "$OUT/latest.txt" | tr '\n' ' ')"
fi
"$BUILD/tickprobe" show "$OUT/bare.log" >/dev/null 2>&1; rc_bare=$?
"$BUILD/tickprobe" show "$OUT/os.log" >/dev/null 2>&1; rc_os=$?
"$BUILD/tickprobe" db summary "$OUT/fleet.db" >"$OUT/summary.txt" 2>&1; rc_db=$?
if [ $rc_bare$rc_os$rc_db = 000 ] && grep -q '^ *tsc  *1 ' "$OUT/summary.txt"; then
	pass "the disk: the probe's log and the OS log are complete (show exit 0), fleet.db has the run (db summary)"
else
	fail "the disk: show exits $rc_bare $rc_os, db summary $rc_db: $(head -n 2 "$OUT/summary.txt" | tr '\n' ' ')"
fi

# --- a probe reset part-way ---------------------------------------------------------
if ! grep -q '^e2e: boot 1 reset at .*: its disk and variables kept' "$OUT/flow.txt" ||
	! cp "$OUT/disk.boot2" "$OUT/disk.img" || ! cp "$OUT/vars.boot2" "$OUT/vars.fd"; then
	fail "kill: no copy of the disk and variables as boot 1 left them"
	exit 1
fi
python3 tests/remote/e2e.py kill "$OUT" >"$OUT/kill.txt" 2>&1
cat "$OUT/kill.txt"
kinds=$(sed -n 's/^e2e: boot [0-9]*: \([a-z]*\),.*/\1/p' "$OUT/kill.txt" | tr '\n' ' ')
K=$OUT/serial-kill.txt
if [ "$kinds" = "tickprobe installed " ] && grep -q '^e2e: system_reset at' "$OUT/kill.txt" &&
	grep -q '^e2e: whole run: .* QEMU exit 0$' "$OUT/kill.txt" && [ "$(grep -c 'tickprobe-e2e: installed system up' "$K")" -eq 1 ] &&
	[ "$(grep -c 'BdsDxe: starting Boot[0-9A-F]* "tickprobe"' "$K")" -eq 1 ]; then
	pass "kill: BootNext ran the probe, reset part-way; the next boot is the installed system (BootNext was used up), which powers off"
else
	fail "kill: boots '$kinds'; $(grep 'system_reset\|whole run' "$OUT/kill.txt" | tr '\n' ' ')"
fi
if awk 'f; /BdsDxe: starting Boot/ { n++; if (n == 2) f = 1 }' "$K" | grep -q 'tickprobe-e2e: BootNext absent'; then
	pass "kill: BootNext absent on the boot after the reset"
else
	fail "kill: BootNext still set after the reset"
fi
echo "test_e2e: $(( ($(NOW_MS) - T0) / 1000 )) s"
