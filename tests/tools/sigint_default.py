# SPDX-License-Identifier: BSD-2-Clause
"""Run a command with SIGINT and SIGQUIT at their defaults: a script's
background job starts with both ignored, and tickprobe leaves an ignored
signal alone.

Run by tests/tools/test_os.sh.  Arguments: COMMAND [ARGUMENTS...].
"""
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
signal.signal(signal.SIGQUIT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])
