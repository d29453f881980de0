#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The table of boots, tests/boots.cfg: each entry booted through `tickprobe
# qemu`, its exit status checked and its log validated by checklog.py with
# the entry's options (tests/lib/boot.sh, boot_entry).
#
#   test_boots.sh                 the entries in the groups of $TEST_GROUPS
#                                 (tests/run.sh sets it), or all
#   test_boots.sh NAME...         these entries
#   test_boots.sh -g GROUP...     the entries in any of these groups
. tests/lib/check.sh
. tests/lib/boot.sh
OUT=$BUILD/test-boots
if [ "${1:-}" = -g ]; then
	shift
	names=$(boots_names "$@")
elif [ $# -gt 0 ]; then
	names=$*
else
	# shellcheck disable=SC2086 # a list of groups, split on purpose
	names=$(boots_names ${TEST_GROUPS:-})
fi
[ -n "$names" ] || { fail "setup: no entry of $BOOTS_CFG in the groups asked for"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"
need_tool
for f in tickprobe.elf32 tickprobe.img; do
	[ -f "$BUILD/$f" ] || { fail "setup: $BUILD/$f missing (make all)"; exit 1; }
done
t_all=$(now_ms)
count=0
for n in $names; do
	boot_entry "$n" && count=$((count + 1))
done
echo "boots: $count boots in $(($(now_ms) - t_all)) ms"
