#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Static checks as a test: the tree checks of tests/lint/tree.sh and `make
# lint` must find nothing, and each check must still catch a planted fault
# (a broken .clang-tidy, an over-wide suppression or a pattern that matches
# nothing would otherwise pass silently).
# About 400 s of CPU in make check (399 s measured beside the other tests),
# about 20 s of wall time in make check-fast, whose clang-tidy sees only the
# changed files; run with the repo root as cwd, BUILD set by tests/run.sh.
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
canary spdx "bad.c late.sh tools/Makefile"

out=$(sh "$HERE/tree.sh" outside .)
case $? in
0) pass "no file refers to data outside the tree" ;;
1) fail "$(printf '%s\n' "$out" | wc -l) file(s) refer to data outside the tree (tests/data/ holds it):"
   printf '%s\n' "$out" | sed 's/^/  /' ;;
*) fail "tree.sh outside failed" ;;
esac
out=$(sh "$HERE/tree.sh" spdx .)
case $? in
0) pass "every source file carries $tag" ;;
1) fail "$(printf '%s\n' "$out" | wc -l) source file(s) lack '$tag' in their first 3 lines:"
   printf '%s\n' "$out" | sed 's/^/  /' ;;
*) fail "tree.sh spdx failed" ;;
esac

# ---- which files check-fast's clang-tidy looks at (tests/lint/changed.sh) ----
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

# make check-fast (CHECK_FAST=1, tests/run.sh): clang-tidy on the files
# changed since upstream only (tests/lint/changed.sh); make check: on all.
start=$(date +%s)
make -s lint BUILD="$BUILD" ${CHECK_FAST:+LINT_CHANGED=1} >"$BUILD/lint/make-lint.log" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
for tool in clang-tidy cppcheck; do
	line=$(grep "^lint: $tool: " "$BUILD/lint/make-lint.log")
	n=$(printf '%s\n' "$line" | sed -n 's/^lint: [a-z-]*: \([0-9]*\) finding.*/\1/p')
	if [ -z "$n" ]; then
		fail "$tool: no summary line (see $BUILD/lint/make-lint.log)"
	elif [ "$n" -ne 0 ]; then
		fail "$tool: ${line#lint: $tool: } (see $BUILD/lint/make-lint.log)"
	else
		pass "$tool: no finding$(printf '%s' "$line" | sed -n 's/.*, \([0-9]*\) checked$/ in \1 file(s)/p') (${secs}s for both${CHECK_FAST:+; make check-fast})"
	fi
done
[ "$rc" -eq 0 ] || fail "make lint exited $rc"
exit 0
