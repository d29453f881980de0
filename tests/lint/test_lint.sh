#!/bin/sh
# Static checks as a test: `make lint` must find nothing, and each checker must
# still catch a planted bug with this tree's configuration (a broken
# .clang-tidy or an over-wide suppression would otherwise pass silently).
# About 70 s of CPU; run with the repo root as cwd, BUILD set by tests/run.sh.
BUILD=${BUILD:-build}
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
	echo "FAIL: clang-tidy canary: a planted null dereference passed (see $dir/tidy.log)"
elif grep -q 'clang-analyzer-core.NullDereference' "$dir/tidy.log"; then
	echo "PASS: clang-tidy canary"
else
	echo "FAIL: clang-tidy canary: failed without the expected finding (see $dir/tidy.log)"
fi
if cppcheck --enable=warning,style,performance,portability --suppressions-list=tests/lint/cppcheck.supp \
	--error-exitcode=1 --quiet --template='{id}' "$dir/canary.c" >"$dir/cppcheck.log" 2>&1; then
	echo "FAIL: cppcheck canary: a planted out-of-bounds store passed (see $dir/cppcheck.log)"
elif grep -q 'arrayIndexOutOfBounds' "$dir/cppcheck.log"; then
	echo "PASS: cppcheck canary"
else
	echo "FAIL: cppcheck canary: failed without the expected finding (see $dir/cppcheck.log)"
fi

start=$(date +%s)
make -s lint BUILD="$BUILD" >"$BUILD/lint/make-lint.log" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
for tool in clang-tidy cppcheck; do
	line=$(grep "^lint: $tool: " "$BUILD/lint/make-lint.log")
	n=$(printf '%s\n' "$line" | sed -n 's/^lint: [a-z-]*: \([0-9]*\) finding.*/\1/p')
	if [ -z "$n" ]; then
		echo "FAIL: $tool: no summary line (see $BUILD/lint/make-lint.log)"
	elif [ "$n" -ne 0 ]; then
		echo "FAIL: $tool: ${line#lint: $tool: } (see $BUILD/lint/make-lint.log)"
	else
		echo "PASS: $tool: no finding (${secs}s for both)"
	fi
done
[ "$rc" -eq 0 ] || echo "FAIL: make lint exited $rc"
exit 0
