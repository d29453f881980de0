#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Write a compile_commands.json for the static checkers, one entry per C file
# with the flags the Makefile really builds it with, so clang-tidy and cppcheck
# see -ffreestanding, the EFI include paths and the defines of each side.
#
#   compdb.sh OUT VERSION "KERNEL_FLAGS" "EFI_FLAGS" "CORE_FLAGS" "HOST_FLAGS" -- FILES...
#
# The flags arrive without -DTICKPROBE_VERSION (its shell quoting does not
# survive the trip); it is added back here.  KERNEL_FLAGS and EFI_FLAGS are
# each entry's own boot code's, CORE_FLAGS the image's core's.  A file in
# probe/, acpi/ or lib/ is built for the host too; the image's flags are the
# stricter ones (no libc headers, -fno-builtin), so those are the ones checked.
set -eu
out=$1 version=$2 kflags=$3 eflags=$4 cflags=$5 hflags=$6
shift 6
[ "$1" = "--" ] && shift
dir=$(pwd)
{
	echo "["
	sep=""
	for f in "$@"; do
		case $f in
		boot/efi*.c) flags=$eflags ;;
		boot/*) flags=$kflags ;;
		arch/* | platform/* | drivers/* | lib/* | acpi/* | probe/*) flags=$cflags ;;
		*) flags=$hflags ;;
		esac
		# -I. as an absolute path: cppcheck 2.10 resolves a relative one
		# against the database's own directory when that lies below cwd,
		# then finds no project header and checks half-expanded code.
		flags=$(printf ' %s ' "$flags" | sed "s# -I\\. # -I$dir #g; s#^ ##; s# \$##")
		# Only -DTICKPROBE_VERSION carries quotes, and none of the flags or
		# paths carries a backslash: escaping the version's quotes suffices.
		printf '%s  {"directory": "%s", "file": "%s",\n   "command": "cc %s -DTICKPROBE_VERSION=\\\\\\"%s\\\\\\" -c %s"}' \
			"$sep" "$dir" "$f" "$flags" "$version" "$f"
		sep=",
"
	done
	printf '\n]\n'
} >"$out.tmp"
mv "$out.tmp" "$out"
