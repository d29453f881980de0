# SPDX-License-Identifier: BSD-2-Clause
# Shared by tests/net/test_uefi_net.sh and test_lab.sh: OVMF (q35, pflash
# with a fresh copy of its variables) booting the UEFI probe with a NIC on
# QEMU's user network, where the host's loopback is 10.0.2.2.  QEMU itself,
# not `tickprobe qemu`: the tool boots with no NIC and OVMF without a
# variables store of its own.  Sourced after tests/lib/check.sh and
# tests/boot/lib.sh (the boot helper: QEMU_EXIT_DEVICE).
# shellcheck disable=SC2034 # NET: for the tests that source this
NET="$PYTHON3 tests/net/netcheck.py"
CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
VARS=/usr/share/OVMF/OVMF_VARS_4M.fd

# ovmf TIMEOUT NAME NETDEV NIC [QEMU args...]: one boot; NETDEV the -netdev
# user options after id=n0 ("" for none), NIC the virtio-net-pci options
# after netdev=n0 (romfile= always: OVMF's own driver, no iPXE ROM).  The
# variables copy is $OUT/NAME.vars, the serial line $OUT/NAME.log, QEMU's
# messages $OUT/NAME.err; returns QEMU's exit status.
ovmf() {
	tmo=$1 name=$2 netdev=$3 nic=$4
	shift 4
	cp "$VARS" "$OUT/$name.vars" || return 1
	timeout "$tmo" qemu-system-x86_64 -machine q35 -accel tcg -m 256 -display none -monitor none -no-reboot \
		-drive if=pflash,format=raw,readonly=on,file="$CODE" -drive if=pflash,format=raw,file="$OUT/$name.vars" \
		-netdev "user,id=n0${netdev:+,$netdev}" -device "virtio-net-pci,netdev=n0${nic:+,$nic},romfile=" \
		-device "$QEMU_EXIT_DEVICE" -serial file:"$OUT/$name.log" "$@" >"$OUT/$name.err" 2>&1
}
