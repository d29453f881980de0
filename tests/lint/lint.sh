#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Run clang-tidy (.clang-tidy) over FILES and cppcheck (tests/lint/cppcheck.supp)
# over every file of the compile database in DIR (tests/lint/lint.mk writes
# it).  Prints every finding, then one summary line per tool,
#   lint: clang-tidy: N finding(s) in M file(s), K checked
#   lint: comma: N comma operator(s) on M line(s) …
# and exits 1 when either found anything.  FILES may be none.
#
#   lint.sh DIR JOBS FILES...
#
# The comma operators (clang-diagnostic-comma, .clang-tidy says why) are
# counted apart: COMMA_LINT=error (the default) prints them and fails;
# COMMA_LINT=warn lists them in DIR/comma.found and does not fail on them.
# CLANG_TIDY and CPPCHECK name the binaries (default clang-tidy, cppcheck).
set -u
CLANG_TIDY=${CLANG_TIDY:-clang-tidy}
CPPCHECK=${CPPCHECK:-cppcheck}
COMMA_LINT=${COMMA_LINT:-error}
case $COMMA_LINT in
warn | error) ;;
*) echo "lint: COMMA_LINT=$COMMA_LINT: warn or error" >&2; exit 2 ;;
esac

if [ "${1:-}" = --tidy-one ]; then
	# One file, run in parallel by xargs below: its own log, its own status.
	# A clean result is reused while the file, every project header, the
	# flags and .clang-tidy are unchanged (the key), as a build would be.
	log=$2/tidy/$(printf '%s' "$3" | tr / _).log
	key=$(cat "$2/tidy-key" "$3" | cksum | tr ' ' _)
	if [ -f "$2/tidy-cache/$key.rc" ]; then
		cp "$2/tidy-cache/$key.log" "$log" && cp "$2/tidy-cache/$key.rc" "$log.rc"
		exit 0
	fi
	"$CLANG_TIDY" -p "$2" --quiet "$3" >"$log" 2>&1
	echo $? >"$log.rc"
	# Only a clean result is kept: a finding or a crash is looked at again.
	[ "$(cat "$log.rc")" = 0 ] && cp "$log" "$2/tidy-cache/$key.log" && cp "$log.rc" "$2/tidy-cache/$key.rc"
	exit 0
fi

dir=$1 jobs=$2
shift 2
top=$(pwd)
for tool in "$CLANG_TIDY" "$CPPCHECK"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "lint: $tool not found (tests/deps.sh lists it)" >&2
		exit 2
	fi
done
rm -rf "$dir/tidy" "$dir/tidy.failed" && mkdir -p "$dir/tidy" "$dir/tidy-cache"
cat .clang-tidy "$dir/compile_commands.json" boot/*.h arch/x86/*.h platform/*.h drivers/*.h lib/*.h acpi/*.h probe/*.h \
	tools/*.h tools/*/*.h "$CLANG_TIDY" 2>/dev/null >"$dir/tidy-key"
"$CLANG_TIDY" --version >>"$dir/tidy-key"

# clang-tidy: nearly all of its time is the analyzer, so one process per
# file, JOBS at a time, and unchanged files not again.
[ $# -gt 0 ] && printf '%s\n' "$@" | xargs -P "$jobs" -n 1 sh "$0" --tidy-one "$dir"
# A finding in a header shows once per file including it: print each once.
# "N warnings generated." counts the diagnostics the configuration turned off.
cat /dev/null "$dir"/tidy/*.log 2>/dev/null | grep -v -e '^[0-9]* warnings\{0,1\} generated\.$' \
	-e '^Suppressed [0-9]* warnings' -e '^Use -header-filter' | sed "s|$top/||" >"$dir/tidy.out"
grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error): ' "$dir/tidy.out" | sort -u >"$dir/tidy.all"
grep -F '[clang-diagnostic-comma]' "$dir/tidy.all" >"$dir/comma.found"
grep -v -F '[clang-diagnostic-comma]' "$dir/tidy.all" >"$dir/tidy.found"
comma_n=$(wc -l <"$dir/comma.found")
tidy_n=$(wc -l <"$dir/tidy.found")
[ "$COMMA_LINT" = error ] && tidy_n=$((tidy_n + comma_n))
tidy_bad=0
for rc in "$dir"/tidy/*.rc; do
	[ -f "$rc" ] || continue
	[ "$(cat "$rc")" = 0 ] && continue
	tidy_bad=$((tidy_bad + 1))
	# Failed without a finding line: a crash or a missing tool; still a failure.
	[ "$tidy_n" -eq 0 ] && tidy_n=1 && echo "lint: clang-tidy failed: $(basename "$rc" .rc)" >>"$dir/tidy.failed"
done
# Each diagnostic with the notes after it; a comma operator's only under
# COMMA_LINT=error (else the summary line below counts them).
awk -v keep="$([ "$COMMA_LINT" = error ] && echo 1)" '
	/^[^ ].*:[0-9]+:[0-9]+: (warning|error): / { skip = !keep && /\[clang-diagnostic-comma\]$/ }
	!skip { print }' "$dir/tidy.out"
cat "$dir/tidy.failed" 2>/dev/null
rm -f "$dir/tidy.failed"

# cppcheck: the same files and flags through the database.  It predefines no
# compiler macro; gnu-efi's headers and cmd_os.c need __x86_64__.  (No
# --cppcheck-build-dir: it would cache, but it also turns on the whole-program
# checks, ctu*, which the configuration here does not ask for.)
"$CPPCHECK" --project="$dir/compile_commands.json" -D__x86_64__ --library=posix \
	--enable=warning,style,performance,portability --inline-suppr \
	--suppressions-list=tests/lint/cppcheck.supp --error-exitcode=1 -j "$jobs" --quiet \
	--template='{file}:{line}:{column}: {severity}: {message} [{id}]' \
	--output-file="$dir/cppcheck.out"
cpp_rc=$?
sed -i "s|$top/||" "$dir/cppcheck.out"
cat "$dir/cppcheck.out"
cpp_n=$(grep -c '\[[A-Za-z0-9_]*\]$' "$dir/cppcheck.out")
[ "$cpp_rc" -ne 0 ] && [ "$cpp_n" -eq 0 ] && cpp_n=1 && echo "lint: cppcheck exited $cpp_rc"

echo "lint: clang-tidy: $tidy_n finding(s) in $tidy_bad file(s), $# checked"
comma_lines=$(cut -d: -f1,2 "$dir/comma.found" | sort -u | grep -c .)
comma_files=$(cut -d: -f1 "$dir/comma.found" | sort -u | grep -c .)
if [ "$COMMA_LINT" = error ]; then
	echo "lint: comma: $comma_n comma operator(s) on $comma_lines line(s) in $comma_files file(s) (COMMA_LINT=error: counted above)"
else
	echo "lint: comma: $comma_n comma operator(s) on $comma_lines line(s) in $comma_files file(s), reported, not failed (COMMA_LINT=warn; the list: $dir/comma.found)"
fi
echo "lint: cppcheck: $cpp_n finding(s)"
[ "$tidy_n" -eq 0 ] && [ "$cpp_n" -eq 0 ]
