#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Secure Boot: `make sign` with a throwaway key gives a binary sbverify
# accepts and an image that boots to its end record; with the key of
# Debian's test firmware (OVMF's "snakeoil" variant: that key in PK, KEK and
# db, Secure Boot on) the signed image runs under Secure Boot and its begin
# record says so, while the unsigned image is refused.
# shellcheck disable=SC2046 # stick prints QEMU's options for a disk, split on purpose
. tests/lib/check.sh
. tests/nocable/lib.sh
OUT=$BUILD/test-nocable/sign
rm -rf "$OUT" && mkdir -p "$OUT"
need_nocable
for t in sbsign sbverify openssl; do
	command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
SO_CODE=/usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd
SO_VARS=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
SO_KEY=/usr/share/ovmf/PkKek-1-snakeoil.key
SO_CERT=/usr/share/ovmf/PkKek-1-snakeoil.pem
SB_QEMU="-machine q35,smm=on -global driver=cfi.pflash01,property=secure,value=on
 -drive if=pflash,format=raw,unit=0,readonly=on,file=$SO_CODE -drive if=pflash,format=raw,unit=1,file=$OUT/vars.fd"

# sign NAME KEY CERT: make sign into $OUT/NAME.efi and $OUT/NAME.img (under
# the lock of the other builds into BUILD: see tests/fuzz/test_fuzz.sh).
sign() {
	flock "$BUILD/.make.lock" make -s --no-print-directory sign BUILD="$BUILD" KEY="$2" CERT="$3" SIGNED_EFI="$OUT/$1.efi" \
		SIGNED_IMG="$OUT/$1.img" >"$OUT/$1.make" 2>&1
}

# --- a throwaway key: signed, verified, booted --------------------------------
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$OUT/test.key" -out "$OUT/test.crt" -days 2 \
	-subj "/CN=tickprobe test key/" >/dev/null 2>&1
ok "openssl made a throwaway key and certificate" $?
sign test "$OUT/test.key" "$OUT/test.crt"
ok "make sign KEY=test.key CERT=test.crt" $? "$(tail -n 3 "$OUT/test.make" | tr '\n' ' ')"
sbverify --cert "$OUT/test.crt" "$OUT/test.efi" >"$OUT/verify.txt" 2>&1
ok "sbverify --cert test.crt accepts the signed BOOTX64.EFI" $? "$(tr '\n' ' ' <"$OUT/verify.txt")"
if sbverify --cert "$OUT/test.crt" "$BUILD/BOOTX64.EFI" >/dev/null 2>&1; then
	fail "sbverify accepts the unsigned BOOTX64.EFI too: the check above proves nothing"
else
	pass "sbverify refuses the unsigned BOOTX64.EFI"
fi
mtype -i "$OUT/test.img@@$ESP" ::EFI/BOOT/BOOTX64.EFI >"$OUT/in-image.efi" 2>/dev/null
cmp -s "$OUT/in-image.efi" "$OUT/test.efi"
ok "test.img carries the signed binary as \\EFI\\BOOT\\BOOTX64.EFI" $?
$NC set-env "$OUT/test.img" quick 0 slow_rates=off # the RTC's rate: not what this tests
qboot signed ended $(stick "$OUT/test.img")
checklog signed --expect-boot uefi --expect begin.secure_boot=false
ended signed

# --- under Secure Boot: the snakeoil key ----------------------------------------
openssl rsa -in "$SO_KEY" -passin pass:snakeoil -out "$OUT/snakeoil.key" >/dev/null 2>&1 &&
	sign snakeoil "$OUT/snakeoil.key" "$SO_CERT"
ok "make sign with the snakeoil key" $? "$(tail -n 3 "$OUT/snakeoil.make" | tr '\n' ' ')"
$NC set-env "$OUT/snakeoil.img" quick 0 slow_rates=off
cp "$SO_VARS" "$OUT/vars.fd"
# shellcheck disable=SC2086
qboot secureboot ended $SB_QEMU -drive format=raw,file="$OUT/snakeoil.img"
checklog secureboot --expect-boot uefi --expect begin.secure_boot=true \
	--expect begin.log_file='"\\tickprobe\\logs\\0000.log"'
ended secureboot

# The unsigned image: refused ("Access Denied"), so no record at all; OVMF
# then waits in its boot manager, so QEMU is stopped once it said so.
copy_image unsigned quick
cp "$SO_VARS" "$OUT/vars.fd"
# shellcheck disable=SC2086
$QEMU $SB_QEMU -drive format=raw,file="$OUT/unsigned.img" -serial file:"$OUT/unsigned.log" >"$OUT/unsigned.err" 2>&1 &
qpid=$!
n=0
while [ $n -lt 600 ] && kill -0 $qpid 2>/dev/null && ! grep -saq "Access Denied" "$OUT/unsigned.log"; do
	sleep 0.1
	n=$((n + 1))
done
kill $qpid 2>/dev/null
wait $qpid 2>/dev/null
grep -aq "Access Denied" "$OUT/unsigned.log" && ! grep -aq '"type":"begin"' "$OUT/unsigned.log"
st=$?
ok "unsigned: Secure Boot refuses it: $(plain "$OUT/unsigned.log" | grep -a -m1 'Access Denied' | cut -c1-120)" $st
