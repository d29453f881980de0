# SPDX-License-Identifier: BSD-2-Clause
"""tickprobe capture over a pseudo-terminal fed a log's bytes.

Run by tests/tools/test_show_compare.sh from the top of the tree.  Arguments: TOOL LOG OUT_LOG TIMEOUT.
"""
import os, pty, subprocess, sys, time, tty
tool, src, dst, timeout = sys.argv[1:5]
master, slave = pty.openpty()
tty.setraw(slave)
p = subprocess.Popen([tool, "capture", os.ttyname(slave), "-o", dst, "--timeout", timeout],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
time.sleep(0.3)
data = open(src, "rb").read()
for i in range(0, len(data), 700):
    os.write(master, data[i:i + 700])
    time.sleep(0.005)
# As bytes: what the tool wrote, whatever it is, for the test to judge.
sys.stderr.buffer.write(p.communicate(timeout=60)[1])
sys.exit(p.returncode)
