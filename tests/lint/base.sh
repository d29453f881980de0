#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The commit that the checks of changed files and changed lines compare with
# (tests/lint/changed.sh, tests/lint/format.sh): LINT_BASE when set, else the
# merge base with the upstream branch, else with a local branch "main" (a
# worktree without an upstream), else HEAD, so that only uncommitted edits
# count.  Prints the commit; exits 1 outside a git checkout.
#
#   base.sh
if [ -n "${LINT_BASE:-}" ]; then
	git rev-parse --verify -q "$LINT_BASE^{commit}" || {
		echo "base.sh: LINT_BASE=$LINT_BASE is not a commit" >&2
		exit 1
	}
	exit 0
fi
git rev-parse -q --verify HEAD >/dev/null 2>&1 || exit 1
git merge-base HEAD '@{upstream}' 2>/dev/null ||
	git merge-base HEAD refs/heads/main 2>/dev/null ||
	git rev-parse HEAD
