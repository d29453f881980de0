#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe doctor inside the Linux guest of `tickprobe qemu --linux`: its
# /init runs `tickprobe os --quick --switch`, then `tickprobe doctor
# --os-log` on that log (the text on the console, the JSON on ttyS1 after
# "tickprobe-guest: doctor: ").  Two guests (about 20 s each on 2 cores):
#   - with `--kernel-cmdline tsc=unstable`: the doctor must find the boot
#     parameter as the cause and the switch to hpet, recommend removing it,
#     and give the measured cost ratio;
#   - without it (the kernel keeps tsc): nothing needs changing.
# The kernel is the one tests/linux/test_linux.sh uses ($BUILD/cache, fetched
# with apt-get download on the first run).
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
OUT=$BUILD/test-linux-doctor
export XDG_CACHE_HOME
XDG_CACHE_HOME=$(cd "$BUILD" && pwd)/cache
rm -rf "$OUT"
mkdir -p "$OUT"

for f in "$TP" "$BUILD/tickprobe-static" "$BUILD/tickprobe.img"; do
	if [ ! -e "$f" ]; then
		fail "setup" "$f is not built (make all)"
		exit 1
	fi
done

guest() {
	name=$1
	shift
	t0=$(date +%s)
	timeout 400 "$TP" qemu --linux --machine q35 --smp 2 --preset quick --options slow_rates=off --timeout 240 \
		--os-options "--quick --switch" --keep "$OUT/$name" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
	rc=$?
	echo "guest $name: exit $rc in $(( $(date +%s) - t0 )) s"
	if [ $rc -ne 0 ] || [ ! -s "$OUT/$name/os.log" ]; then
		fail "guest $name" "exit $rc: $(tail -3 "$OUT/$name.err" | tr '\n' ' ')"
	fi
}
guest unstable --kernel-cmdline "tsc=unstable"
guest plain

python3 tests/linux/guest_doctor_check.py "$OUT"
