#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The tree's shape checks (tests/lint/shape.py, which `make lint` runs on
# this tree): comments name only paths that exist, no C function is over 100
# lines, no folders include each other in a circle, a command (tools/PART/)
# includes only tools/lib/ of the host's folders and tools/lib/ no command,
# every script test sources the one PASS/FAIL helper first, only the boot
# helper defines boot() and now_ms(), a unit check that joins conditions
# names the false one (COND), no statement hides behind a (void) cast and a
# comma, and commit subjects are at most 72 characters.  Each check runs on a
# planted tree
# here and must find exactly the planted faults, so that a check that
# stopped seeing fails here.
. tests/lib/check.sh
BUILD=${BUILD:-build}
HERE=$(dirname "$0")

tree=$BUILD/lint/shape-canary
rm -rf "$tree" && mkdir -p "$tree/probe" "$tree/lib" "$tree/tools/lib" "$tree/tests/x" "$tree/tests/unit"
printf '#!/bin/sh\n# a test\n. tests/lib/check.sh\npass x\n' >"$tree/tests/x/test_good.sh"
printf '#!/bin/sh\n# a test\nBUILD=build\n. tests/lib/check.sh\n' >"$tree/tests/x/test_late.sh"
# A second boot helper, and the one it may not be.
printf '# helpers\nboot() {\n\t:\n}\nnow_ms() { :; }\nboot_twice() { :; }\n' >"$tree/tests/x/lib.sh"
mkdir -p "$tree/tests/lib"
printf '# the helper\nboot() {\n\t:\n}\n' >"$tree/tests/lib/boot.sh"
printf '/* Reads probe/gone.c and lib/here.h, and names probe/*.h. */\n#include "lib/here.h"\n' >"$tree/probe/here.h"
printf '/* lib/here.h */\n#include "probe/here.h"\n' >"$tree/lib/here.h"
printf '# see tools/lib/missing.py and tools/PART/cmd_NAME.c\n' >"$tree/tools/lib/x.sh"
# Two commands and the library: a uses b's header (a fault), the library
# uses it too (a fault); a's own header, the library's and tools/commands.h
# are fine.
mkdir -p "$tree/tools/a" "$tree/tools/b"
printf '\n' >"$tree/tools/b/y.h"
printf '#include "tools/b/y.h"\n' >"$tree/tools/a/x.c"
printf '#include "tools/a/own.h"\n#include "tools/lib/z.h"\n#include "tools/commands.h"\n' >"$tree/tools/a/ok.c"
printf '\n' >"$tree/tools/a/own.h"
printf '\n' >"$tree/tools/lib/z.h"
printf '\n' >"$tree/tools/commands.h"
printf '#include "tools/lib/z.h"\n#include "tools/b/y.h"\n' >"$tree/tools/lib/l.c"
# Documents named bare: two that the planted tree has (README, as README.md,
# and LICENSE), two that it lacks, and words in capitals that name nothing.
printf '# per README and LICENSE (not the LAB-NOTES, nor TODO.md), CPU and TSC_DEADLINE\n' >"$tree/tools/lib/docs.sh"
printf 'text\n' >"$tree/README.md"
printf 'text\n' >"$tree/LICENSE"
{
	printf 'int long_one(void)\n{\n'
	i=0; while [ $i -lt 100 ]; do printf '\ti++;\n'; i=$((i + 1)); done
	printf '}\n\nint short_one(void)\n{\n\treturn 0;\n}\n'
} >"$tree/probe/f.c"
# Unit checks: one condition, and conditions each in COND(), are fine; two
# joined bare, and COND() around two, are faults.
cat >"$tree/tests/unit/test_c.c" <<'EOF'
int main(void)
{
	check(a == 1, "one condition (a && b)");
	check(COND(a == 1) && COND(f(b, c) || d), "each in COND");
	check(a == 1 && b == 2, "two bare");
	check(COND(a == 1 && b == 2) && COND(c), "COND around two");
	return check_done();
}
EOF
# Casts to void: one a line, and in a call's arguments, are fine; a statement
# after one behind a comma, also after return, is a fault.
cat >"$tree/lib/casts.c" <<'EOF'
static int f(void *ctx, int a)
{
	(void)ctx;
	g((void *)a, (void)0, a);
	(void)ctx, (void)a;
	if (a)
		return (void)ctx, a;
	return 0;
}
EOF
if git -C "$tree" init -q 2>/dev/null; then
	git -C "$tree" add . && git -C "$tree" -c user.name=t -c user.email=t@t commit -qm "base" &&
		git -C "$tree" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "short subject" &&
		git -C "$tree" -c user.name=t -c user.email=t@t commit -q --allow-empty \
			-m "a subject that goes on and on past the seventy-two characters a line may take"
fi

canary() { # check, expected finding (a fixed string), expected count, [base]
	out=$(python3 "$HERE/shape.py" "$1" "$tree" ${4:+"$4"} 2>&1); rc=$?
	n=$(printf '%s\n' "$out" | grep -c "$2")
	all=$(printf '%s\n' "$out" | grep -c .)
	if [ "$rc" -eq 1 ] && [ "$n" -eq "$3" ] && [ "$all" -ge "$3" ]; then
		pass "shape canary: $1 finds the planted fault ($2)"
	else
		fail "shape canary: $1 exited $rc with" "$out"
	fi
}
canary paths "probe/gone.c" 1
canary paths "tools/lib/missing.py" 1
canary paths "names LAB-NOTES, which" 1
canary paths "names TODO.md, which" 1
canary functions "long_one is 103 lines" 1
canary includes "include circle: lib -> probe -> lib" 1
canary includes "tools/a/x.c includes tools/b/y.h: commands use tools/lib only" 1
canary includes "tools/lib/l.c includes tools/b/y.h: tools/lib uses no command's files" 1
canary helpers "tests/x/test_late.sh: its first command is not" 1
canary helpers "tests/x/lib.sh:[25]: defines [a-z_]*(): the one boot helper is" 2
canary conditions "tests/unit/test_c.c:5: check() joins 2 conditions, 2 of them not in COND()" 1
canary conditions "tests/unit/test_c.c:6: check() joins 2 conditions, 1 of them not in COND()" 1
canary casts "lib/casts.c:5: a (void) cast, then a comma" 1
canary casts "lib/casts.c:7: a (void) cast, then a comma" 1
if [ -d "$tree/.git" ]; then
	canary subjects "subject is 77 characters" 1 "HEAD~2"
else
	fail "shape canary: git could not make the planted history"
fi
# A clean planted tree passes each check.
out=$(python3 "$HERE/shape.py" paths "$tree" 2>&1 | grep -c "PART\|probe/\*.h\|lib/here.h\|README\|LICENSE\|CPU\|TSC_DEADLINE")
check "shape canary: placeholders, globs, existing paths and documents, words in capitals are not findings" \
	'[ "$out" -eq 0 ]' "a placeholder, glob, existing path or document, or a word was reported"

out=$(python3 "$HERE/shape.py" includes "$tree" 2>&1 | grep -c "ok.c\|z.h\|own.h\|commands.h")
check "shape canary: a command's own header, the library's and tools/commands.h are not findings" \
	'[ "$out" -eq 0 ]' "an allowed include was reported"

out=$(python3 "$HERE/shape.py" conditions "$tree" 2>&1 | grep -c "test_c.c:[34]:")
check "shape canary: a check of one condition, or of conditions each in COND(), is not a finding" \
	'[ "$out" -eq 0 ]' "a check of one condition or of COND()s was reported"

# all: every check, and one summary line that counts their findings.
out=$(python3 "$HERE/shape.py" all "$tree" 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -qx 'lint: shape: 15 finding(s) (paths, functions, includes, helpers, conditions, casts)'; then
	pass "shape canary: all runs each check and counts the 15 planted faults"
else
	fail "shape canary: all exited $rc with" "$out"
fi
