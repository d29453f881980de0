# SPDX-License-Identifier: BSD-2-Clause
# The boot helper under the name the tests that boot first sourced it by:
# it is tests/lib/boot.sh (boot, checklog, need_tool, now_ms, boot_entry).
# Sourced, not run.
. tests/lib/boot.sh
