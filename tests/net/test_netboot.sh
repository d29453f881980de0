#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# make netboot's tree (image/mknetboot.sh): its files, its GRUB menu against
# image/presets.cfg, two builds byte for byte; then the tree booted over QEMU's
# user network (its built-in DHCP and TFTP server, restrict=on: the guest
# reaches nothing else) as a lab's machines boot it:
#   - legacy BIOS: SeaBIOS, the virtio NIC's iPXE ROM, GRUB's core.0, the menu
#     over TFTP, the multiboot kernel, the quick preset chosen through the
#     tree's environment block (grub-editenv, as a lab would), to the end;
#   - UEFI: OVMF's own PXE (no iPXE ROM) loading BOOTX64.EFI, to the end.
. tests/lib/check.sh
BUILD=${BUILD:-build}
OUT=$BUILD/test-net/netboot
rm -rf "$OUT" && mkdir -p "$OUT"
OVMF=/usr/share/ovmf/OVMF.fd

for f in "$BUILD/tickprobe" "$BUILD/tickprobe.elf32" "$BUILD/BOOTX64.EFI" "$BUILD/mkgrubcfg"; do
	[ -x "$f" ] || [ -f "$f" ] || { fail "setup: $f is not built (make all)"; exit 1; }
done
for t in qemu-system-x86_64 grub-mknetdir grub-editenv; do
	command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
[ -f "$OVMF" ] || { fail "setup: $OVMF missing (make deps: ovmf)"; exit 1; }

. tests/lib/boot.sh # now_ms, QEMU_EXIT_DEVICE

# --- the tree ---------------------------------------------------------------
A=$OUT/a B=$OUT/b
t0=$(now_ms)
sh image/mknetboot.sh "$BUILD" "$A" >"$OUT/a.out" 2>&1
rc=$?
ok "mknetboot: builds the tree ($(( $(now_ms) - t0 )) ms)" $rc "$(tail -n 2 "$OUT/a.out" | tr '\n' ' ')"
sh image/mknetboot.sh "$BUILD" "$B" >"$OUT/b.out" 2>&1
ok "mknetboot: builds it a second time" $? "$(tail -n 2 "$OUT/b.out" | tr '\n' ' ')"

# Byte for byte, and the same names, modes and times (SOURCE_DATE_EPOCH).
listing() { (cd "$1" && find . -printf '%p %y %m %T@ %s\n' | LC_ALL=C sort); }
if diff -r "$A" "$B" >"$OUT/ab.diff" && [ "$(listing "$A")" = "$(listing "$B")" ]; then
	pass "mknetboot: two builds give the same tree: $(find "$A" -type f | wc -l) files, the same bytes, modes and times"
else
	fail "mknetboot: two builds differ" "$(head -n 3 "$OUT/ab.diff" | tr '\n' ' ')"
fi

same() { # NAME IN-TREE SOURCE
	if cmp -s "$A/$2" "$3"; then pass "tree: $2 is $3"; else fail "tree: $2 is not $3 ($1)"; fi
}
same "the UEFI boot file" BOOTX64.EFI "$BUILD/BOOTX64.EFI"
same "the presets beside it" presets.cfg image/presets.cfg
same "the lab's options" tickprobe.cfg image/tickprobe.cfg
same "the multiboot kernel" boot/tickprobe.elf32 "$BUILD/tickprobe.elf32"
missing=
for f in boot/grub/i386-pc/core.0 boot/grub/grub.cfg boot/grub/tickprobe.env boot/grub/i386-pc/moddep.lst; do
	[ -s "$A/$f" ] || missing="$missing $f"
done
# Every module the menu's commands need, fetched over TFTP at boot.
for m in normal multiboot loadenv test echo serial terminal; do
	[ -s "$A/boot/grub/i386-pc/$m.mod" ] || missing="$missing $m.mod"
done
check "tree: the BIOS boot file, GRUB's menu, environment block and modules are there" '[ -z "$missing" ]' "missing:$missing"

# The menu: image/grub.cfg's head, then one entry per preset of
# image/presets.cfg, in order, each booting preset=ID net=auto.
G=$A/boot/grub/grub.cfg
head -n "$(wc -l <image/grub.cfg)" "$G" | cmp -s - image/grub.cfg
ok "grub.cfg: starts with image/grub.cfg, the image's menu head" $?
presets=$(sed -n 's/^[[:space:]]*\([A-Za-z0-9_-]*\)[[:space:]]*:.*/\1/p' image/presets.cfg | grep -vx timeout | tr '\n' ' ')
entries=$(sed -n 's/^menuentry .* --id \([^ ]*\) {$/\1/p' "$G" | tr '\n' ' ')
check "grub.cfg: its entries are the presets of image/presets.cfg ($presets)" '[ -n "$presets" ] && [ "$entries" = "$presets" ]' \
	"entries: $entries"
bad=$(awk '/^menuentry/ { id = $(NF - 1) }
	/^\tmultiboot/ { if ($0 != "\tmultiboot /boot/tickprobe.elf32 preset=" id " net=auto $tp_options") print id }' "$G")
nboot=$(grep -c '^	multiboot /boot/tickprobe.elf32 ' "$G")
check "grub.cfg: each entry boots /boot/tickprobe.elf32 preset=ID net=auto \$tp_options" \
	'[ -z "$bad" ] && [ "$nboot" -eq "$(echo $presets | wc -w)" ]' "wrong: $bad; $nboot multiboot lines"
grep -q '^load_env --file /boot/grub/tickprobe.env ' "$G"
ok "grub.cfg: reads /boot/grub/tickprobe.env, which the tree holds" $?
env_list=$(grub-editenv "$A/boot/grub/tickprobe.env" list | tr '\n' ' ')
check "tickprobe.env: 512 bytes, GRUB reads it: $env_list" \
	'[ "$(wc -c <"$A/boot/grub/tickprobe.env")" -eq 512 ] && [ "$env_list" = "tp_preset= tp_timeout= tp_options= " ]'

# tickprobe.cfg as shipped: comments only (the default preset, net=auto),
# explaining every word a lab sets.
active=$(grep -v '^[[:space:]]*#' "$A/tickprobe.cfg" | grep -v '^[[:space:]]*$' | head -n 1)
check "tickprobe.cfg: as shipped every line is a comment (default preset, net=auto)" '[ -z "$active" ]' "active: $active"
unexplained=
for w in '#preset=' '#net=http://' '#net=syslog://' '#net_token=' 'net=auto' 'net=none'; do
	grep -qF -- "$w" "$A/tickprobe.cfg" || unexplained="$unexplained $w"
done
check "tickprobe.cfg: explains preset=, net=auto, net=http://, net=syslog://, net=none and net_token=" \
	'[ -z "$unexplained" ]' "missing:$unexplained"

# A build that cannot be made says why and leaves no tree.
mkdir -p "$OUT/nobuild"
sh image/mknetboot.sh "$OUT/nobuild" "$OUT/none" >"$OUT/none.out" 2>&1
rc=$?
check "mknetboot: without the kernel it fails, naming the file, and makes no tree" \
	'[ $rc -ne 0 ] && grep -q "missing $OUT/nobuild/tickprobe.elf32" "$OUT/none.out" && [ ! -e "$OUT/none" ] && [ ! -e "$OUT/none.tmp" ]' \
	"exit $rc: $(head -n 1 "$OUT/none.out")"

# NETBOOT_SERVER: the same tree but core.0, whose prefix names the server
# (for labs behind a proxy DHCP).  QEMU's TFTP server is 10.0.2.2, which its
# DHCP names too: the boot below shows that this core.0 loads the menu and the
# kernel, not the proxy case itself (docs/netboot.md has that).
S=$OUT/server
NETBOOT_SERVER=10.0.2.2 sh image/mknetboot.sh "$BUILD" "$S" >"$OUT/server.out" 2>&1
ok "mknetboot: NETBOOT_SERVER=10.0.2.2 builds the tree" $? "$(tail -n 2 "$OUT/server.out" | tr '\n' ' ')"
differ=$(diff -rq "$A" "$S" 2>&1 | sed "s|$A/||; s|$S/||" | tr '\n' ' ')
check "mknetboot: with NETBOOT_SERVER only core.0 differs" \
	'[ "$differ" = "Files boot/grub/i386-pc/core.0 and boot/grub/i386-pc/core.0 differ " ]' "$differ"
NETBOOT_SERVER=10.0.2 sh image/mknetboot.sh "$BUILD" "$OUT/bad-server" >"$OUT/bad-server.out" 2>&1
rc=$?
check "mknetboot: NETBOOT_SERVER=10.0.2 is refused as no IPv4 address, no tree made" \
	'[ $rc -ne 0 ] && grep -q "NETBOOT_SERVER=10.0.2 is not an IPv4 address" "$OUT/bad-server.out" && [ ! -e "$OUT/bad-server" ]' \
	"exit $rc: $(head -n 1 "$OUT/bad-server.out")"

# --- BIOS: PXE through iPXE and GRUB ---------------------------------------
# bios_pxe NAME TREE: boots a copy of TREE with the quick preset, no wait and
# slow_rates=off (the RTC's rate is not what this tests), set as a lab would
# (grub-editenv), to the probe's end.
bios_pxe() {
	name=$1 P=$OUT/$1-tree
	cp -a "$2" "$P"
	grub-editenv "$P/boot/grub/tickprobe.env" set tp_preset=quick tp_timeout=0 tp_options=slow_rates=off
	check "$name: grub-editenv sets tickprobe.env in place, still 512 bytes" \
		'[ "$(wc -c <"$P/boot/grub/tickprobe.env")" -eq 512 ]'
	t0=$(now_ms)
	timeout 240 qemu-system-x86_64 -machine pc -accel tcg -cpu max -smp 1 -m 256 \
		-netdev user,id=n0,restrict=on,tftp="$P",bootfile=boot/grub/i386-pc/core.0 \
		-device virtio-net-pci,netdev=n0 -boot n \
		-serial file:"$OUT/$name.log" -device "$QEMU_EXIT_DEVICE" \
		-no-reboot -display none -monitor none >"$OUT/$name.qemu" 2>&1
	rc=$?
	echo "boot $name: exit $rc in $(( $(now_ms) - t0 )) ms ($(wc -c <"$OUT/$name.log") serial bytes)"
	# 33 and 35: the probe wrote EXIT_CODE_OK or EXIT_CODE_OK_ABSENT to the
	# exit device (probe/exit_status.h); ok-absent when a rate check gives up
	# on a busy host.
	check "$name: QEMU ends through the probe's exit device, status ok or ok-absent (33, 35)" \
		'[ $rc -eq 33 ] || [ $rc -eq 35 ]' \
		"exit $rc: $(tail -n 2 "$OUT/$name.qemu" | tr '\n' ' ')"
	grep -q "Booting \`2) quick " "$OUT/$name.log"
	ok "$name: GRUB booted the netboot menu's quick entry" $?
	python3 tests/boot/checklog.py "$OUT/$name.log" --label "$name" --expect-boot bios \
		--expect begin.options.preset='"quick"' --expect begin.cmdline='"preset=quick net=auto slow_rates=off"'
	"$BUILD/tickprobe" show "$OUT/$name.log" >"$OUT/$name.show" 2>&1
	rc=$?
	check "$name: tickprobe show reads it: complete, undamaged" \
		'[ $rc -eq 0 ] && head -n 1 "$OUT/$name.show" | grep -q ": complete, undamaged, .* status ok"' \
		"$(head -n 1 "$OUT/$name.show")"
}
bios_pxe bios-pxe "$A"
# Once the probe knows the net= options (probe/options_net.c), net=auto is no
# unknown option, and the BIOS probe, which cannot send, says in its begin
# record that the log goes to the serial line and the screen only
# ("net":null and a net_problem naming the serial line: docs/netboot.md).
if cat probe/options*.c | grep -q '"net_token'; then
	! grep -q "unknown option 'net" "$OUT/bios-pxe.log"
	ok "bios-pxe: net=auto is a known option" $?
	"$PYTHON3" - "$OUT/bios-pxe.log" <<'PY'
import sys
sys.path.insert(0, "tests/lib")
from tplog import read  # the serial capture's records whose crc holds
begins = read(sys.argv[1], clean=True).of("begin")
begin = begins[-1] if begins else None
why = (begin or {}).get("net_problem") or ""
if begin and "net" in begin and begin["net"] is None and "serial" in why.lower():
    print("PASS: bios-pxe: the begin record says the log goes to the serial line: " + why)
else:
    print("FAIL: bios-pxe: the begin record says nothing of the network: net=%r net_problem=%r"
          % ((begin or {}).get("net", "(absent)"), why))
PY
else
	skip "bios-pxe: probe/options.c has no net= options yet (net=auto, and the BIOS probe's word on it)"
fi
bios_pxe bios-pxe-server "$S"

# --- UEFI: OVMF's PXE, BOOTX64.EFI from the shipped tree -----------------------
t0=$(now_ms)
timeout 240 qemu-system-x86_64 -machine q35 -accel tcg -cpu max -smp 1 -m 256 -bios "$OVMF" \
	-netdev user,id=n0,restrict=on,tftp="$A",bootfile=BOOTX64.EFI \
	-device virtio-net-pci,netdev=n0,romfile= \
	-serial file:"$OUT/uefi.log" -device "$QEMU_EXIT_DEVICE" \
	-no-reboot -display none -monitor none >"$OUT/uefi.qemu" 2>&1
rc=$?
echo "boot uefi-pxe: exit $rc in $(( $(now_ms) - t0 )) ms ($(wc -c <"$OUT/uefi.log") serial bytes)"
grep -q "NBP filename is BOOTX64.EFI" "$OUT/uefi.log" && grep -q "NBP file downloaded successfully" "$OUT/uefi.log"
ok "uefi-pxe: OVMF's PXE downloaded BOOTX64.EFI from the tree" $?
check "uefi-pxe: QEMU ends through the probe's exit device, status ok or ok-absent (33, 35)" \
	'[ $rc -eq 33 ] || [ $rc -eq 35 ]' \
	"exit $rc: $(tail -n 2 "$OUT/uefi.qemu" | tr '\n' ' ')"
python3 tests/boot/checklog.py "$OUT/uefi.log" --label uefi-pxe --expect-boot uefi
