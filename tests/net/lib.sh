# SPDX-License-Identifier: BSD-2-Clause
# Shared by tests/net/test_uefi_net.sh and test_lab.sh: OVMF (q35) booting
# the UEFI probe with a NIC on QEMU's user network, where the host's loopback
# is 10.0.2.2.  QEMU itself, not `tickprobe qemu`: the tool boots with no NIC.
# OVMF.fd as -bios keeps its variables in memory, fresh at every boot: these
# boots read nothing back from them, and OVMF on emulated flash spends its
# writes there on TCG's slow path at every boot.  Sourced after
# tests/lib/check.sh and tests/boot/lib.sh (the boot helper:
# QEMU_EXIT_DEVICE).
# shellcheck disable=SC2034 # NET: for the tests that source this
NET="$PYTHON3 tests/net/netcheck.py"
OVMF=/usr/share/ovmf/OVMF.fd

# ovmf TIMEOUT NAME NETDEV NIC [QEMU args...]: one boot; NETDEV the -netdev
# user options after id=n0 ("" for none), NIC the virtio-net-pci options
# after netdev=n0 (romfile= always: OVMF's own driver, no iPXE ROM).  The
# serial line is $OUT/NAME.log, QEMU's messages $OUT/NAME.err; returns
# QEMU's exit status.
ovmf() {
	tmo=$1 name=$2 netdev=$3 nic=$4
	shift 4
	timeout "$tmo" qemu-system-x86_64 -machine q35 -accel tcg -m 256 -display none -monitor none -no-reboot \
		-bios "$OVMF" -netdev "user,id=n0${netdev:+,$netdev}" -device "virtio-net-pci,netdev=n0${nic:+,$nic},romfile=" \
		-device "$QEMU_EXIT_DEVICE" -serial file:"$OUT/$name.log" "$@" >"$OUT/$name.err" 2>&1
}
