# SPDX-License-Identifier: BSD-2-Clause
"""Boots the installed system of tests/remote/lib.sh under OVMF, through
every reset, and tells its boots apart on the serial line, each line
stamped with the host's clock as it arrives.

  python3 tests/remote/e2e.py flow OUT   the three boots of the remote flow;
                                          at boot 1's reset QEMU is paused
                                          while its disk and variables are
                                          copied to OUT/disk.boot2 and
                                          OUT/vars.boot2
  python3 tests/remote/e2e.py kill OUT   from those copies: the probe's boot
                                          reset part-way (the QEMU monitor's
                                          system_reset, as a watchdog or a
                                          BMC would)

Writes OUT/serial-CASE.txt (each line "seconds-since-start text") and prints
"e2e: ..." lines for the test to check: one per boot, with its wall time,
then the whole run's."""
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import time

LIMIT_S = 600  # about 110 s on a quiet 2-core host; a loaded one (load 27) took 130 s for boot 1 alone
ANSI = re.compile(r'\x1b\[[0-9;=?]*[A-Za-z]')


def qemu_argv(out, monitor_path):
    return ['qemu-system-x86_64', '-machine', 'q35', '-m', '512', '-smp', '1', '-display', 'none',
            '-no-user-config', '-nodefaults', '-net', 'none',
            '-drive', 'if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd',
            '-drive', 'if=pflash,format=raw,unit=1,file=' + os.path.join(out, 'vars.fd'),
            '-drive', 'file=' + os.path.join(out, 'disk.img') + ',if=none,id=d0,format=raw',
            '-device', 'nvme,drive=d0,serial=tp0', '-serial', 'stdio',
            '-monitor', 'unix:' + monitor_path + ',server,nowait']


class Boots:
    """The boots seen so far: each starts where the one before ended."""

    def __init__(self):
        self.t0 = time.monotonic()
        self.list = []  # [kind, start, end]

    def now(self):
        return time.monotonic() - self.t0

    def end(self, t):
        if self.list and self.list[-1][2] is None:
            self.list[-1][2] = t


def monitor(path, command):
    """One command to QEMU's human monitor; returns once QEMU has done it
    (its next prompt)."""
    def prompt(s):
        seen = b''
        while not seen.endswith(b'(qemu) '):
            data = s.recv(4096)
            if not data:
                return
            seen += data

    s = socket.socket(socket.AF_UNIX)
    s.settimeout(30)
    s.connect(path)
    prompt(s)  # the greeting
    s.sendall(command.encode() + b'\n')
    prompt(s)
    s.close()


def keep_boot2(out, monitor_path):
    """Boot 1 has reset: the disk and the variables as it left them, BootNext
    set, copied while QEMU is paused, before the firmware reads them."""
    monitor(monitor_path, 'stop')
    shutil.copyfile(os.path.join(out, 'disk.img'), os.path.join(out, 'disk.boot2'))
    shutil.copyfile(os.path.join(out, 'vars.fd'), os.path.join(out, 'vars.boot2'))
    monitor(monitor_path, 'cont')


def classify(line, boots, t, state):
    """One serial line: which boot starts or ends here."""
    if 'BdsDxe: starting Boot' in line:
        # the firmware's choice of what this boot runs
        kind = 'tickprobe' if '"tickprobe"' in line else 'installed'
        if boots.list and boots.list[-1][2] is None:
            boots.end(state.get('last', t))
        boots.list.append([kind, boots.list[-1][2] if boots.list else 0.0, None])
        state['firmware'] = line
    elif 'reboot: Restarting system' in line or 'reboot: Power down' in line:
        boots.end(t)
    if line.startswith('{"') and boots.list and boots.list[-1][0] == 'tickprobe':
        state['records'] = state.get('records', 0) + 1
    state['last'] = t


def run(case, out):
    monitor_path = os.path.join(out, 'monitor-%s.sock' % case)
    if os.path.exists(monitor_path):
        os.unlink(monitor_path)
    boots = Boots()
    state = {}
    p = subprocess.Popen(qemu_argv(out, monitor_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    log = open(os.path.join(out, 'serial-%s.txt' % case), 'w')
    buf = b''
    reset_done = False
    while p.poll() is None and boots.now() < LIMIT_S:
        ready, _, _ = select.select([p.stdout], [], [], 1.0)
        if not ready:
            continue
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk:
            break
        buf += chunk
        while b'\n' in buf:
            raw, buf = buf.split(b'\n', 1)
            line = ANSI.sub('', raw.decode('utf-8', 'replace')).replace('\r', '').strip()
            if not line:
                continue
            t = boots.now()
            log.write('%8.3f %s\n' % (t, line))
            classify(line, boots, t, state)
            # kill: the probe is reset at its first record (its begin); the
            # serial line lags, so on a quiet host the run may be further on
            if case == 'flow' and len(boots.list) == 1 and 'reboot: Restarting system' in line:
                keep_boot2(out, monitor_path)
                print('e2e: boot 1 reset at %.1f s: its disk and variables kept for the kill case' % t)
            if case == 'kill' and not reset_done and state.get('records', 0) >= 1:
                monitor(monitor_path, 'system_reset')
                reset_done = True
                boots.end(t)
                print('e2e: system_reset at %.1f s, %d records into the probe' % (t, state['records']))
    try:  # the serial line's end comes a moment before QEMU's
        p.wait(timeout=max(1.0, LIMIT_S - boots.now()))
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        print('e2e: QEMU still running after %d s: killed' % LIMIT_S)
    total = boots.now()
    log.close()
    if boots.list and boots.list[-1][2] is None:
        boots.end(total)
    for i, (kind, start, end) in enumerate(boots.list):
        print('e2e: boot %d: %s, %.1f s (%.1f to %.1f)' % (i + 1, kind, end - start, start, end))
    print('e2e: whole run: %.1f s, QEMU exit %d' % (total, p.returncode))


if __name__ == '__main__':
    run(sys.argv[1], sys.argv[2])
