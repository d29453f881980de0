#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The steps of `make lint` (tests/lint/lint.mk), each on a small planted
# tree: each must find exactly the planted faults, so that a broken
# .clang-tidy, an over-wide suppression, a .shellcheckrc that turns too much
# off or a pattern that matches nothing fails here instead of passing
# silently.  `make lint` runs the steps on this tree; this runs none of them
# on it, so it stays a few seconds of CPU.  Run with the repo root as cwd,
# BUILD set by tests/run.sh.
. tests/lib/check.sh
BUILD=${BUILD:-build}
HERE=$(dirname "$0")

# ---- tree checks: first on a small planted tree, then on this one ----------
tree=$BUILD/lint/tree-canary
rm -rf "$tree" && mkdir -p "$tree/tests/data" "$tree/tools"
tag="SPDX-License-Identifier: BSD-2-Clause"
up=.. shared=shared
printf '/* %s */\nint ok;\n' "$tag" >"$tree/good.c"
printf '#!/bin/sh\n# %s\n' "$tag" >"$tree/good.sh"
printf 'int no_tag;\n' >"$tree/bad.c"
: >"$tree/empty.h"
printf '#!/bin/sh\n#\n#\n# %s\n' "$tag" >"$tree/late.sh"	# line 4: too late
printf 'all:\n' >"$tree/tools/Makefile"
printf 'int data_is_exempt;\n' >"$tree/tests/data/table.c"
printf 'see %s/%s/data/x\n' "$up" "$shared" >"$tree/notes.md"
printf 'DATA=/work/%s/data\n' "$shared" >"$tree/tests/data/old.txt"
if command -v git >/dev/null 2>&1 && git -C "$tree" init -q 2>/dev/null; then
	git -C "$tree" add .
	# Not tracked, so not part of the tree: must not be listed.
	printf 'int untracked;\n%s/%s\n' "$up" "$shared" >"$tree/untracked.c"
fi
canary() { # check, expected list (sorted, space-separated)
	got=$(sh "$HERE/tree.sh" "$1" "$tree")
	rc=$?
	got=$(printf '%s\n' "$got" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ *$//')
	if [ "$rc" -eq 1 ] && [ "$got" = "$2" ]; then
		pass "tree canary: $1 lists exactly the planted files ($2)"
	else
		fail "tree canary: $1 exited $rc listing '$got', expected 1 listing '$2'"
	fi
}
canary outside "notes.md tests/data/old.txt"
canary spdx "bad.c empty.h late.sh tools/Makefile"
out=$(sh "$HERE/tree.sh" all "$tree")
rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -qx 'lint: tree: 6 file(s) to fix (outside, spdx)'; then
	pass "tree canary: all lists both checks' files and counts them (6)"
else
	fail "tree canary: all exited $rc" "$(printf '%s\n' "$out" | tail -n 1)"
fi

# ---- which files LINT_CHANGED=1's clang-tidy looks at (tests/lint/changed.sh) ----
repo=$BUILD/lint/changed-canary
rm -rf "$repo" && mkdir -p "$repo/lib"
for f in a b; do printf 'int %s;\n' "$f" >"$repo/lib/$f.c"; done
printf 'int h;\n' >"$repo/lib/h.h"
changed() { (cd "$repo" && sh "$OLDPWD/$HERE/changed.sh" lib/a.c lib/b.c | tr '\n' ' ' | sed 's/ $//'); }
if git -C "$repo" init -q 2>/dev/null && git -C "$repo" add . && git -C "$repo" -c user.name=t -c user.email=t@t commit -qm t; then
	got1=$(changed)
	printf 'int a2;\n' >>"$repo/lib/a.c"
	got2=$(changed)
	printf 'int h2;\n' >>"$repo/lib/h.h"
	got3=$(changed)
	if [ "$got1" = "" ] && [ "$got2" = "lib/a.c" ] && [ "$got3" = "lib/a.c lib/b.c" ]; then
		pass "changed.sh: none when clean, the edited file alone, every file once a header changed"
	else
		fail "changed.sh: clean '$got1' (want none), a.c edited '$got2', a header edited '$got3'"
	fi
else
	fail "changed.sh canary: cannot make a git repository in $repo"
fi

# ---- clang-tidy and cppcheck ----------------------------------------------
dir=$BUILD/lint/canary
mkdir -p "$dir"

# A null dereference and an out-of-bounds store: both tools know both.
cat >"$dir/canary.c" <<'C'
#include <stddef.h>
int canary(int k)
{
	int a[4] = { 0 }, *p = NULL;
	a[4] = k;
	if (k > 1)
		p = &a[1];
	return *p + a[0];
}
C
if clang-tidy --config-file=.clang-tidy --quiet "$dir/canary.c" -- -std=gnu11 >"$dir/tidy.log" 2>&1; then
	fail "clang-tidy canary: a planted null dereference passed (see $dir/tidy.log)"
elif grep -q 'clang-analyzer-core.NullDereference' "$dir/tidy.log"; then
	pass "clang-tidy canary"
else
	fail "clang-tidy canary: failed without the expected finding (see $dir/tidy.log)"
fi
if cppcheck --enable=warning,style,performance,portability --suppressions-list=tests/lint/cppcheck.supp \
	--error-exitcode=1 --quiet --template='{id}' "$dir/canary.c" >"$dir/cppcheck.log" 2>&1; then
	fail "cppcheck canary: a planted out-of-bounds store passed (see $dir/cppcheck.log)"
elif grep -q 'arrayIndexOutOfBounds' "$dir/cppcheck.log"; then
	pass "cppcheck canary"
else
	fail "cppcheck canary: failed without the expected finding (see $dir/cppcheck.log)"
fi

# The comma operator (.clang-tidy: clang-diagnostic-comma): the two chained
# statements are found, the declaration list and the for header are not, and
# it is a warning, so that clang-tidy itself still passes.
cat >"$dir/comma.c" <<'C'
int f(void);
int g(void);
int comma(int n)
{
	int a = 0, b = 1, i, j;

	for (i = 0, j = 0; i < n; i++, j++)
		a += j;
	a = n, b = 2;
	f(), g();
	return a + b;
}
C
clang-tidy --config-file=.clang-tidy --quiet "$dir/comma.c" -- -std=gnu11 >"$dir/comma.log" 2>&1
rc=$?
got=$(grep -o ':[0-9]*:[0-9]*: warning: .*\[clang-diagnostic-comma\]$' "$dir/comma.log" | cut -d: -f2 | sort -n -u | tr '\n' ' ')
if [ "$rc" -eq 0 ] && [ "$got" = "9 10 " ]; then
	pass "clang-tidy comma canary: lines 9 and 10 found, the declaration and the for header not, a warning"
else
	fail "clang-tidy comma canary: exit $rc, comma operators on lines '$got', expected 0 and '9 10 ' (see $dir/comma.log)"
fi

# tests/lint/lint.sh, as `make lint-c` runs it, on a compile database of the
# planted files: its summary lines count what the tools found, and the comma
# operators fail unless COMMA_LINT=warn (the default is error).
db=$dir/db
mkdir -p "$db"
lint_sh() { # DB-FILE... (after COMMA_LINT=...): lint.sh's output in $out, its status in $rc
	sh "$HERE/compdb.sh" "$db/compile_commands.json" 0 "-std=gnu11" "-std=gnu11" "-std=gnu11" "-std=gnu11" -- "$@" &&
		out=$(sh "$HERE/lint.sh" "$db" 1 "$@" 2>&1)
	rc=$?
}
COMMA_LINT=warn lint_sh "$dir/comma.c"
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -qx 'lint: clang-tidy: 0 finding(s) in 0 file(s), 1 checked' &&
	printf '%s\n' "$out" | grep -q '^lint: comma: 2 comma operator(s) on 2 line(s) in 1 file(s), reported, not failed'; then
	pass "lint.sh canary: COMMA_LINT=warn reports the 2 comma operators and passes"
else
	fail "lint.sh canary: COMMA_LINT=warn exited $rc" "$out"
fi
COMMA_LINT=error lint_sh "$dir/comma.c"
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -qx 'lint: clang-tidy: 2 finding(s) in 0 file(s), 1 checked'; then
	pass "lint.sh canary: COMMA_LINT=error counts the 2 comma operators as findings and fails"
else
	fail "lint.sh canary: COMMA_LINT=error exited $rc" "$out"
fi
(
	unset COMMA_LINT
	lint_sh "$dir/comma.c"
	if [ "$rc" -eq 1 ] &&
		printf '%s\n' "$out" | grep -q '^lint: comma: 2 comma operator(s) .*(COMMA_LINT=error: counted above)$'; then
		pass "lint.sh canary: without COMMA_LINT the comma operators fail (the default is error)"
	else
		fail "lint.sh canary: without COMMA_LINT exited $rc" "$out"
	fi
)
# tests/lint/comma.sh, as `make lint-comma` runs it on the tests' own C: the
# same 2 comma operators, none in a clean file, and a file that does not
# compile is a failure of its own.
printf 'int clean(int n)\n{\n\treturn n + 1;\n}\n' >"$dir/clean.c"
printf 'int broken(void)\n{\n\treturn nowhere;\n}\n' >"$dir/broken.c"
comma_sh() { # FILE...: comma.sh's output in $out, its status in $rc
	out=$(sh "$HERE/comma.sh" "${FUZZ_CC:-clang}" 2 "-std=gnu11" "$@" 2>&1)
	rc=$?
}
comma_sh "$dir/comma.c" "$dir/clean.c"
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -qx 'lint: comma (tests): 2 comma operator(s) on 2 line(s) in 1 file(s), 2 read' &&
	[ "$(printf '%s\n' "$out" | grep -c 'comma.c:\(9\|10\):.*\[-Wcomma\]$')" -eq 2 ]; then
	pass "comma.sh canary: lines 9 and 10 of comma.c, nothing of clean.c, and it fails"
else
	fail "comma.sh canary: exit $rc" "$out"
fi
COMMA_LINT=warn comma_sh "$dir/comma.c"
ok "comma.sh canary: COMMA_LINT=warn lists them and passes" "$rc" "$out"
comma_sh "$dir/clean.c" "$dir/broken.c"
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -qx 'lint: comma (tests): 1 file(s) did not compile' &&
	printf '%s\n' "$out" | grep -q "broken.c:3:.*nowhere"; then
	pass "comma.sh canary: a file that does not compile fails, with the compiler's words"
else
	fail "comma.sh canary: broken.c: exit $rc" "$out"
fi
COMMA_LINT=warn lint_sh "$dir/canary.c"
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q '^lint: clang-tidy: [1-9][0-9]* finding(s) in 1 file(s), 1 checked$' &&
	printf '%s\n' "$out" | grep -q '^lint: cppcheck: [1-9][0-9]* finding(s)$'; then
	pass "lint.sh canary: both tools' findings in the planted file are counted, and fail"
else
	fail "lint.sh canary: the planted faults: exit $rc" "$out"
fi

# ---- clang-format on changed lines (tests/lint/format.sh) -----------------
repo=$BUILD/lint/format-canary
rm -rf "$repo" && mkdir -p "$repo"
cp .clang-format "$repo/"
printf 'int  untouched(int a){return a;}\n\nint edited(int a)\n{\n\treturn a;\n}\n' >"$repo/a.c"
top=$(pwd)
format() { # [LINT_BASE]: format.sh in the planted repository; output in $out, status in $rc
	out=$(cd "$repo" && LINT_BASE=${1:-} sh "$top/$HERE/format.sh" 2>&1)
	rc=$?
}
gitc() { git -C "$repo" -c user.name=t -c user.email=t@t "$@"; }
if git -C "$repo" init -q 2>/dev/null && gitc add . && gitc commit -qm base; then
	format
	rc0=$rc
	sed -i 's/^\treturn a;$/\treturn  a+1;/' "$repo/a.c"
	format
	if [ "$rc0" -eq 0 ] && [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -qxF -- '-	return  a+1;' &&
		! printf '%s\n' "$out" | grep -qF -- '-int  untouched' &&
		printf '%s\n' "$out" | grep -q '^lint: clang-format: 1 changed line(s) to reformat, in 1 file(s)'; then
		pass "format canary: the one edited line is reported, the untouched badly formatted one is not"
	else
		fail "format canary: clean exit $rc0 (want 0), edited exit $rc (want 1)" "$out"
	fi
	gitc commit -qam edit
	format
	rc1=$rc
	format HEAD~1
	if [ "$rc1" -eq 0 ] && [ "$rc" -eq 1 ]; then
		pass "format canary: committed, the line counts from LINT_BASE=HEAD~1 and not from HEAD"
	else
		fail "format canary: committed: from HEAD exit $rc1 (want 0), from HEAD~1 exit $rc (want 1)" "$out"
	fi
else
	fail "format canary: cannot make a git repository in $repo"
fi

# ---- shellcheck (tests/lint/shellcheck.sh, with this tree's .shellcheckrc) ---
sc=$BUILD/lint/shellcheck-canary
rm -rf "$sc" && mkdir -p "$sc/tests/data"
printf '#!/bin/sh\n# SPDX-License-Identifier: BSD-2-Clause\nrm -- $1\n' >"$sc/bad.sh"
printf '#!/bin/sh\ncd $HOME || exit 1\n' >"$sc/run"
# The tests' `check && pass || fail`, which .shellcheckrc allows (SC2015).
printf '#!/bin/sh\n[ -n "$1" ] && pass "$1" || fail none\n' >"$sc/good.sh"
printf 'rm $1\n' >"$sc/tests/data/data.sh"
printf '#!/usr/bin/env python3\nprint("not sh")\n' >"$sc/tool"
out=$(sh "$HERE/shellcheck.sh" "$sc" 2>&1)
rc=$?
files=$(printf '%s\n' "$out" | grep -o '^[^:]*:[0-9]*:[0-9]*: [a-z]*: .*\[SC2086\]$' | cut -d: -f1 | sort | tr '\n' ' ')
if [ "$rc" -eq 1 ] && [ "$files" = "bad.sh run " ] &&
	printf '%s\n' "$out" | grep -qx 'lint: shellcheck: 2 finding(s) in 2 file(s), 3 checked'; then
	pass "shellcheck canary: the unquoted expansions in bad.sh and in run (#!/bin/sh) only"
else
	fail "shellcheck canary: exit $rc, SC2086 in '$files', expected 1 and 'bad.sh run '" "$out"
fi
exit 0
