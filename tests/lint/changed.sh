#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Of FILES (the C files `make lint` checks), those clang-tidy must look at
# again after this checkout's changes: `make lint LINT_CHANGED=1`, for the
# edit loop, where the analyzer on every file would be most of the wait.
# A plain `make lint` checks them all.
#
#   changed.sh FILES...
#
# Changed: differing from the commit tests/lint/base.sh names (the upstream
# branch's merge base), committed or not, or untracked.  Every file when a header, the
# clang-tidy configuration or the build's flags changed (the analyzer follows
# calls into headers), and when this is not a git checkout.  One per line.
top=$(git rev-parse --show-toplevel 2>/dev/null)
if [ -z "$top" ] || [ "$top" != "$(pwd -P)" ]; then
	printf '%s\n' "$@"
	exit 0
fi
base=$(sh "$(dirname "$0")/base.sh") || base=HEAD
changed=$({ git diff --name-only "$base" -- && git ls-files --others --exclude-standard; } 2>/dev/null | sort -u)
if printf '%s\n' "$changed" | grep -q -E '\.h$|^\.clang-tidy$|^Makefile$|^tests/lint/(lint\.mk|compdb\.sh)$'; then
	printf '%s\n' "$@"
	exit 0
fi
for f in "$@"; do
	printf '%s\n' "$changed" | grep -qxF "$f" && printf '%s\n' "$f"
done
exit 0
