# SPDX-License-Identifier: BSD-2-Clause
# The one PASS/FAIL vocabulary of the script tests: every tests/*/test_*.sh
# sources this first, before anything else it does.
#
#   pass TEXT                  PASS: TEXT
#   fail NAME [DETAIL]         FAIL: NAME[: DETAIL]
#   skip TEXT                  SKIP: TEXT (a check that could not run here, and why)
#   ok NAME STATUS [DETAIL]    pass NAME when STATUS is 0, else fail NAME DETAIL
#   check NAME COND [DETAIL]   ok on the status of eval COND
#
# The Python checkers beside the tests (tests/boot/checklog.py and the others)
# print the same "PASS: " and "FAIL: " lines through tests/lib/tplog.py's ok,
# and read a log's records, each held to its crc, through its read.
#
# Sourcing this runs the rest of the script as a child whose output (stderr
# too) passes through a counter, so that every check is counted, whether made
# by these functions, in a subshell or a pipeline, or by a Python checker.
# Then it prints "N passed, N failed" and exits 1 when a check failed, when
# none ran, when a Python checker raised (the checks after it never ran), or
# when the script itself exited non-zero; that line and exit status are what
# tests/run.sh counts too.
if [ -z "${TICKPROBE_CHECK_CHILD:-}" ]; then
	check_status=$(mktemp "${TMPDIR:-/tmp}/tickprobe-check.XXXXXX") || exit 1
	{
		TICKPROBE_CHECK_CHILD=1 sh "$0" "$@" 2>&1
		echo $? >"$check_status"
	} | awk '
		{ print; fflush() }
		/^PASS: / { p++ }
		/^FAIL: / { f++ }
		/^Traceback \(most recent call last\):/ { raised++ }
		END {
			printf "%d passed, %d failed\n", p, f
			if (raised) print "a Python check raised: the checks after it did not run"
			exit (f > 0 || p == 0 || raised > 0) ? 1 : 0
		}'
	counted=$?
	script=$(cat "$check_status")
	rm -f "$check_status"
	if [ "${script:-1}" -ne 0 ]; then
		echo "$0 exited $script"
		exit 1
	fi
	exit $counted
fi

# printf, not echo: dash's echo would read backslashes in paths as escapes.
pass() { printf 'PASS: %s\n' "$*"; }
fail() {
	if [ $# -ge 2 ]; then printf 'FAIL: %s: %s\n' "$1" "$2"; else printf 'FAIL: %s\n' "$1"; fi
}
skip() { printf 'SKIP: %s\n' "$*"; }
ok() {
	if [ "$2" -eq 0 ] 2>/dev/null; then pass "$1"; else fail "$1" "${3:-status $2}"; fi
}
check() {
	if eval "$2"; then pass "$1"; else fail "$1" "${3:-}"; fi
}

# Debian's python3 (tests/deps.sh installs it) runs the Python checkers even
# when another python3 comes first in PATH: a pyenv shim there adds a shell
# script and a second interpreter start to every start, and the suite starts
# Python hundreds of times.  A function, so that "$CHECK ..." and eval find it too;
# a command run through another (timeout) names "$PYTHON3".
PYTHON3=python3
[ -x /usr/bin/python3 ] && PYTHON3=/usr/bin/python3
python3() { "$PYTHON3" "$@"; }
