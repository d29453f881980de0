#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Kernel logs for the doctor's tests: mkklog.py OUTDIR

Each log is written from the kernel's own format strings (printk's %d, %s,
%llx filled in here), with each kernel's prefix (pr_fmt "clocksource: " in
kernel/time/clocksource.c, "tsc: " in arch/x86/kernel/tsc.c, none in
tsc_sync.c and kernel/sched/clock.c) and in the three ways a log is read:
dmesg's "[seconds] ", /dev/kmsg's "level,seq,usec,-;" and journalctl -k's
"Mon DD HH:MM:SS host kernel: ".  Beside each log, a fake sysfs/proc tree
(OUTDIR/NAME.root) with the clocksources and command line that kernel would
be left with.
"""
import os
import sys

# The format strings, as the kernels print them.
WD_MARK = "timekeeping watchdog on CPU%d: Marking clocksource '%s' as unstable because the skew is too large:"
WD_419 = "                      '%s' wd_now: %llx wd_last: %llx mask: %llx"        # 4.19 .. 5.12
CS_419 = "                      '%s' cs_now: %llx cs_last: %llx mask: %llx"
WD_6 = "                      '%s' wd_nsec: %lld wd_now: %llx wd_last: %llx mask: %llx"  # 5.13+
CS_6 = "                      '%s' cs_nsec: %lld cs_now: %llx cs_last: %llx mask: %llx"
SKEW_6 = ("                      Clocksource '%s' skewed %lld ns (%lld ms) over watchdog '%s' "
          "interval of %lld ns (%lld ms)")                                          # 6.x
CURRENT_6 = "                      '%s' is current clocksource."
READBACK_6 = ("timekeeping watchdog on CPU%d: wd-%s-wd excessive read-back delay of %lldns vs. "
              "limit of %ldns, wd-wd read-back delay only %lldns, attempt %d, marking %s unstable")
TSC_UNSTABLE = "Marking TSC unstable due to %s"
SWITCHED = "Switched to clocksource %s"
DETECTED = "Detected %lu.%03lu MHz processor"
REFINED = "Refined TSC clocksource calibration: %lu.%03lu MHz"
BIOS = "TSC found unstable after boot, most likely due to broken BIOS. Use 'tsc=unstable'."
SCHED = "sched_clock: Marking unstable (%lld, %lld)<-(%lld, %lld)"


def c(fmt, *args):
    """printk's conversions as Python's: %llx → %x, %lld/%ld/%lu → %d."""
    for a, b in (("%llx", "%x"), ("%lld", "%d"), ("%ld", "%d"), ("%lu", "%d"), ("%03lu", "%03d")):
        fmt = fmt.replace(a, b)
    return fmt % args


def dmesg(lines):
    return "".join("[%12.6f] %s\n" % (t, m) for t, m in lines)


def kmsg(lines):
    return "".join("%d,%d,%d,-;%s\n" % (6, i, int(t * 1e6), m) for i, (t, m) in enumerate(lines))


def journal(lines):
    return "".join("Dec 01 09:%02d:%02d host kernel: %s\n" % (int(t) // 60 % 60, int(t) % 60, m)
                   for t, m in lines)


def k419_hpet():
    """4.19: the TSC marked against the HPET, then the switch to hpet."""
    return dmesg([
        (0.0, "Linux version 4.19.0-27-amd64 (debian-kernel@lists.debian.org)"),
        (0.004, "tsc: Fast TSC calibration using PIT"),
        (0.004, "tsc: " + c(DETECTED, 2394, 454)),
        (0.61, "clocksource: " + c(SWITCHED, "tsc-early")),
        (1.9, "tsc: " + c(REFINED, 2394, 459)),
        (1.9001, "clocksource: " + c(SWITCHED, "tsc")),
        (312.514234, "clocksource: " + c(WD_MARK, 2, "tsc")),
        (312.514234, "clocksource: " + c(WD_419, "hpet", 0x5e3c5b4c, 0x5d1dd3f0, 0xffffffff)),
        (312.514234, "clocksource: " + c(CS_419, "tsc", 0x2d8e0c4f2a, 0x2d5c1f8c62, 0xffffffffffffffff)),
        (312.514240, "tsc: " + c(TSC_UNSTABLE, "clocksource watchdog")),
        (312.516, BIOS),
        (312.516, c(SCHED, 312514123, -1234, 312598765, -2345)),
        (312.53, "clocksource: " + c(SWITCHED, "hpet")),
    ]), "hpet", "hpet acpi_pm", "BOOT_IMAGE=/vmlinuz-4.19.0-27-amd64 root=/dev/sda1 ro quiet"


def k510_jiffies():
    """5.10, /dev/kmsg: tsc-early marked against refined-jiffies (no HPET)."""
    return kmsg([
        (0.0, "Linux version 5.10.0-28-amd64 (debian-kernel@lists.debian.org)"),
        (0.0, "tsc: " + c(DETECTED, 2095, 78)),
        (0.21, "clocksource: " + c(SWITCHED, "tsc-early")),
        (0.98, "clocksource: " + c(WD_MARK, 0, "tsc-early")),
        (0.98, "clocksource: " + c(WD_419, "refined-jiffies", 0xfffb7018, 0xfffb6e9d, 0xffffffff)),
        (0.98, "clocksource: " + c(CS_419, "tsc-early", 0x68a6a7070f6a0, 0x68a69ab6f74d6, 0xffffffffffffffff)),
        (0.98, "tsc: " + c(TSC_UNSTABLE, "clocksource watchdog")),
        (1.02, "clocksource: " + c(SWITCHED, "acpi_pm")),
    ]), "acpi_pm", "acpi_pm", "BOOT_IMAGE=/vmlinuz-5.10.0-28-amd64 root=/dev/vda1 ro nohpet"


def k61_param():
    """6.1, journalctl -k: tsc=unstable on the command line, then hpet."""
    return journal([
        (0.0, "Linux version 6.1.0-26-amd64 (debian-kernel@lists.debian.org)"),
        (0.0, "tsc: " + c(TSC_UNSTABLE, "boot parameter")),
        (0.05, "tsc: " + c(DETECTED, 2611, 820)),
        (1.49, "clocksource: " + c(SWITCHED, "hpet")),
    ]), "hpet", "hpet acpi_pm", "BOOT_IMAGE=/vmlinuz-6.1.0-26-amd64 root=UUID=1 ro quiet tsc=unstable"


def k66_acpi_pm():
    """6.6: the TSC marked against acpi_pm (wd_nsec, skewed), and a read-back mark."""
    return dmesg([
        (0.0, "Linux version 6.6.13 (builder@host)"),
        (0.0, "tsc: " + c(DETECTED, 3000, 0)),
        (2.1, "clocksource: " + c(SWITCHED, "tsc")),
        (733.1, "clocksource: " + c(READBACK_6, 5, "acpi_pm", 151280, 125000, 10300, 3, "tsc")),
        (901.2, "clocksource: " + c(WD_MARK, 1, "tsc")),
        (901.2, "clocksource: " + c(WD_6, "acpi_pm", 511993325, 0x1f1d8c, 0x17c3ad, 0xffffff)),
        (901.2, "clocksource: " + c(CS_6, "tsc", 511380836, 0x2a4f80ac0, 0x2703bd900, 0xffffffffffffffff)),
        (901.2, "clocksource: " + c(SKEW_6, "tsc", -612489, 0, "acpi_pm", 511993325, 511)),
        (901.2, "clocksource: " + c(CURRENT_6, "tsc")),
        (901.2, "tsc: " + c(TSC_UNSTABLE, "clocksource watchdog")),
        (901.3, "clocksource: " + c(SWITCHED, "acpi_pm")),
    ]), "acpi_pm", "acpi_pm", "BOOT_IMAGE=/boot/vmlinuz root=/dev/nvme0n1p2 ro nohpet"


def k61_clean():
    """6.1 on a machine whose TSC is kept: nothing to do."""
    return dmesg([
        (0.0, "Linux version 6.1.0-26-amd64 (debian-kernel@lists.debian.org)"),
        (0.0, "tsc: " + c(DETECTED, 2611, 820)),
        (0.5, "clocksource: " + c(SWITCHED, "tsc-early")),
        (1.6, "tsc: " + c(REFINED, 2611, 811)),
        (1.61, "clocksource: " + c(SWITCHED, "tsc")),
    ]), "tsc", "tsc hpet acpi_pm", "BOOT_IMAGE=/vmlinuz-6.1.0-26-amd64 root=UUID=1 ro quiet"


def tree(root, current, available, cmdline):
    cs = os.path.join(root, "sys/devices/system/clocksource/clocksource0")
    dmi = os.path.join(root, "sys/class/dmi/id")
    for d in (cs, dmi, os.path.join(root, "proc")):
        os.makedirs(d, exist_ok=True)
    for path, text in ((cs + "/current_clocksource", current), (cs + "/available_clocksource", available + " "),
                       (root + "/proc/cmdline", cmdline), (dmi + "/sys_vendor", "Test Vendor"),
                       (dmi + "/product_name", "Test Board"), (dmi + "/bios_version", "1.0")):
        with open(path, "w") as f:
            f.write(text + "\n")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, make in (("k419", k419_hpet), ("k510", k510_jiffies), ("k61", k61_param),
                       ("k66", k66_acpi_pm), ("clean", k61_clean)):
        text, current, available, cmdline = make()
        with open(os.path.join(out, name + ".log"), "w") as f:
            f.write(text)
        tree(os.path.join(out, name + ".root"), current, available, cmdline)


main()
