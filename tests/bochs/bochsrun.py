#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Boot the hybrid image on Bochs and keep its serial log.

    bochsrun.py IMAGE LOG [--cpus N] [--preset NAME] [--options TEXT]
                [--timeout S] [--keep DIR] [--bochs PATH]

Bochs 2.7 as Debian builds it has no exit device and its debugger compiled
in: it stops before the first instruction and reads commands from standard
input.  So this runner writes a bochsrc into a scratch directory, boots a
copy of IMAGE whose GRUB environment blocks (tickprobe.env) name the preset
and a menu wait of 0, answers the debugger with `c` through a pipe it keeps
open (at EOF the debugger would only stop again), and follows the serial
file until the log's `end` record is complete; then it stops Bochs.  A hard
timeout bounds the whole run.

Prints `bochs: end after S s (C s of CPU), N CPUs, preset P` or why there
is none.  Exit status:
0 the end record arrived, 1 no end record (timeout, Bochs stopped early),
2 Bochs or its ROMs are not installed, or the image is not found.
"""
import argparse
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROMS = ("/usr/share/bochs/BIOS-bochs-latest", "/usr/share/vgabios/vgabios.bin")
ENV_SIG = b"# GRUB Environment Block\n"
ENV_SIZE = 512  # one GRUB environment block, as image/mkimage.sh writes it

# i440fx: the chipset with ACPI and an HPET (the PM timer at I/O 0xb008).
# Sandy Bridge: long mode, RDTSCP and a TSC-deadline timer.  sync=none with
# ips=100000000: the TSC advances 1 per instruction at a nominal 100 MHz, so
# the guest's costs are whole instruction counts and do not depend on how
# fast the host runs Bochs.  time0 fixes the RTC's date.  fastboot: the BIOS
# skips its "Press F12 for boot menu" wait, 3 of the 4 virtual seconds before
# GRUB (with 4 CPUs, 8 of 24 s of host CPU time).  Sound off, and the dummy
# sound driver: Debian's build otherwise opens ALSA, and on a host with no
# sound card it aborts ("buffer overflow detected") before the BIOS runs.
BOCHSRC = """\
megs: 256
cpu: model=corei7_sandy_bridge_2600k, count={cpus}, ips=100000000, reset_on_triple_fault=0
clock: sync=none, time0=946684800
pci: enabled=1, chipset=i440fx
romimage: file={bios}, options=fastboot
vgaromimage: file={vgabios}
ata0-master: type=disk, path={disk}, mode=flat
boot: disk
com1: enabled=1, mode=file, dev={serial}
display_library: rfb, options="timeout=0"
speaker: enabled=0
sound: driver=dummy
log: {log}
panic: action=fatal
error: action=report
info: action=ignore
debug: action=ignore
"""


def env_block(preset, options):
    """A tickprobe.env block: the preset, no menu wait, more options."""
    opts = options.replace("\\", "\\\\").replace("\n", "\\\n")
    body = ENV_SIG + f"tp_preset={preset}\ntp_timeout=0\ntp_options={opts}\n".encode()
    if len(body) > ENV_SIZE:
        raise ValueError("the options do not fit in a 512-byte environment block")
    return body + b"#" * (ENV_SIZE - len(body))


def patched_copy(image, dest, block):
    """Copies image to dest with every tickprobe.env block replaced (the ISO's,
    for GRUB, and the ESP's, for the UEFI app: both start a 512-byte sector).
    Returns how many were replaced."""
    with open(image, "rb") as f:
        data = bytearray(f.read())
    n = 0
    for off in range(0, len(data) - ENV_SIZE + 1, ENV_SIZE):
        b = data[off:off + ENV_SIZE]
        if b.startswith(ENV_SIG + b"tp_preset=") and b[-1:] == b"#":
            data[off:off + ENV_SIZE] = block
            n += 1
    with open(dest, "wb") as f:
        f.write(data)
    return n


def end_arrived(serial):
    """True once a complete line holding the end record is in the file."""
    try:
        with open(serial, "rb") as f:
            text = f.read()
    except OSError:
        return False
    at = text.rfind(b'{"type":"end"')
    return at >= 0 and b"\n" in text[at:]


def stop(proc):
    """SIGTERM first, so that Bochs closes its files; SIGKILL when it is
    still there 3 s later."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=3)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run(args, work):
    disk, serial = os.path.join(work, "disk.img"), os.path.join(work, "serial.log")
    if patched_copy(args.image, disk, env_block(args.preset, args.options)) == 0:
        print(f"bochs: {args.image} holds no tickprobe.env block", file=sys.stderr)
        return 2, None
    rc_path = os.path.join(work, "bochsrc")
    with open(rc_path, "w") as f:
        f.write(BOCHSRC.format(cpus=args.cpus, bios=ROMS[0], vgabios=ROMS[1], disk=disk,
                               serial=serial, log=os.path.join(work, "bochs.log")))
    out = open(os.path.join(work, "bochs.out"), "wb")
    t0 = time.monotonic()
    proc = subprocess.Popen([args.bochs, "-q", "-f", rc_path], cwd=work, stdin=subprocess.PIPE,
                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    proc.stdin.write(b"c\n")
    proc.stdin.flush()  # the pipe stays open until Bochs is stopped
    seen = None
    while time.monotonic() - t0 < args.timeout and proc.poll() is None:
        if end_arrived(serial):
            seen = time.monotonic() - t0
            break
        time.sleep(0.2)
    stop(proc)
    proc.stdin.close()
    out.close()
    # A killed Bochs leaves disk.img.lock, which would refuse the next run
    # of this disk; the scratch directory goes with it.
    if os.path.exists(disk + ".lock"):
        os.unlink(disk + ".lock")
    if os.path.exists(serial):
        shutil.copyfile(serial, args.log)
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = cpu.ru_utime + cpu.ru_stime  # Bochs's own: a loaded host stretches the wall time, not this
    if seen is not None:
        print(f"bochs: end after {seen:.1f} s ({cpu_s:.1f} s of CPU), {args.cpus} CPUs, preset {args.preset}")
        return 0, work
    why = f"timed out after {args.timeout:.0f} s" if proc.returncode in (-signal.SIGTERM, -signal.SIGKILL) \
        else f"Bochs stopped by itself (exit {proc.returncode})"
    print(f"bochs: no end record: {why} ({args.cpus} CPUs)", file=sys.stderr)
    return 1, work


def main():
    ap = argparse.ArgumentParser(description="Boot the tickprobe image on Bochs.")
    ap.add_argument("image")
    ap.add_argument("log")
    ap.add_argument("--cpus", type=int, default=1)
    ap.add_argument("--preset", default="quick")
    ap.add_argument("--options", default="")
    ap.add_argument("--timeout", type=float, default=180)
    ap.add_argument("--keep", help="copy bochsrc, bochs.log and bochs.out into this directory")
    ap.add_argument("--bochs", default="bochs")
    args = ap.parse_args()
    if not shutil.which(args.bochs) or not all(os.path.exists(r) for r in ROMS):
        print("bochs: Bochs is not installed (Debian: bochs bochsbios vgabios)", file=sys.stderr)
        return 2
    if not os.path.exists(args.image):
        print(f"bochs: {args.image}: no such image", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="tickprobe-bochs.") as work:
        rc, kept = run(args, work)
        if args.keep and kept:
            os.makedirs(args.keep, exist_ok=True)
            for name in ("bochsrc", "bochs.log", "bochs.out"):
                if os.path.exists(os.path.join(kept, name)):
                    shutil.copy(os.path.join(kept, name), args.keep)
    return rc


if __name__ == "__main__":
    sys.exit(main())
