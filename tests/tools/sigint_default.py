# SPDX-License-Identifier: BSD-2-Clause
"""Run a command with SIGINT at its default: a script's background job starts
with SIGINT ignored, and tickprobe leaves an ignored SIGINT alone.

Run by tests/tools/test_os.sh.  Arguments: COMMAND [ARGUMENTS...].
"""
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])
