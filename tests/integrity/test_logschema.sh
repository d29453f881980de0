#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The log's schema (probe/log_schema.def) and what is made from it:
#  - docs/log-format.md's member tables and tests/lib/log_schema.json are
#    what build/mkschema prints now (`make schema` rewrites both); a table
#    changed by hand, and a record without its table's markers, are caught;
#  - the writers' helpers (probe/log_schema.h) are typed: a misspelt member,
#    a value of the wrong type, a member of another record or object, a
#    derived member and a null where the schema has none do not compile;
#  - tickprobe os's logs, --switch and --threads included, match the schema
#    (tests/method/schema_check.py; the image's boots are held to it by
#    tests/method/test_icount.sh and test_watch.sh).
. tests/lib/check.sh
BUILD=${BUILD:-build}
MK=$BUILD/mkschema
T=$(mktemp -d /tmp/tickprobe-logschema.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM

if [ ! -x "$MK" ] || [ ! -x "$BUILD/tickprobe" ]; then
	fail "setup" "$MK or $BUILD/tickprobe not built (make unit-build)"
	exit 1
fi

# --- what is made from the schema is up to date -------------------------------
"$MK" docs docs/log-format.md >"$T/doc.md" 2>"$T/doc.err"
ok "docs/log-format.md: every record's member table is as make schema prints it" \
	"$(cmp -s "$T/doc.md" docs/log-format.md; echo $?)" "run make schema ($(cat "$T/doc.err"))"
"$MK" json >"$T/schema.json"
ok "tests/lib/log_schema.json is as make schema prints it" \
	"$(cmp -s "$T/schema.json" tests/lib/log_schema.json; echo $?)" "run make schema"

# A row edited by hand is put back, so the comparison above can fail.
sed 's/^| `cost_cycles.p50` | integer | cycles |/| `cost_cycles.p50` | number | ns |/' docs/log-format.md >"$T/edited.md"
"$MK" docs "$T/edited.md" >"$T/edited.out" 2>/dev/null
check "a table row edited by hand differs from a fresh print" \
	"! cmp -s '$T/edited.md' docs/log-format.md && cmp -s '$T/edited.out' docs/log-format.md"
# A record whose table has no place in the docs is refused, and named.
grep -v '^<!-- /schema: gaps -->$' docs/log-format.md >"$T/nomarker.md"
"$MK" docs "$T/nomarker.md" >/dev/null 2>"$T/nomarker.err"
rc=$?
check "a record without its markers: exit 1, the record named" \
	"[ $rc -eq 1 ] && grep -q 'has no table of record gaps' '$T/nomarker.err'" "exit $rc: $(cat "$T/nomarker.err")"

# --- the writers' helpers are typed --------------------------------------------
# Each body is compiled against probe/log_schema.h: the first must build, each
# other must not.
compiles() { # body
	printf '#include "probe/log_schema.h"\nvoid f(struct log *l);\nvoid f(struct log *l)\n{\n\tstruct put_timer t = put_record_timer(l);\n\t%s\n\tlog_end(l);\n}\n' "$1" >"$T/w.c"
	${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I. -c "$T/w.c" -o "$T/w.o" 2>"$T/w.err"
}
compiles 'put_timer_samples(t, 1); put_cost_p50(put_timer_cost_cycles_open(t), 2); put_timer_width_null(t);'
ok "writers: a record written through its helpers compiles" $? "$(head -n 3 "$T/w.err")"
while IFS='|' read -r what body; do
	if compiles "$body"; then
		fail "writers: $what does not compile" "it did: $body"
	else
		pass "writers: $what does not compile"
	fi
done <<'BAD'
a misspelt member|put_timer_sampels(t, 1);
a string for an integer member|put_timer_samples(t, "1000");
a member of another record|put_exception_vector(t, 13);
a member of an object, on the record|put_cost_p50(t, 2);
a derived member|put_timer_overhead_cycles(t, 30);
null where the schema has none|put_timer_samples_null(t);
BAD

# --- tickprobe os's records --------------------------------------------------------
"$BUILD/tickprobe" os --quick -q --threads 2 -o "$T/os.log" 2>"$T/os.err"
ok "tickprobe os --quick --threads 2: exit 0" $? "$(tail -n 2 "$T/os.err")"
"$PYTHON3" tests/method/schema_check.py "$T/os.log" --label "tickprobe os --quick --threads 2"
if [ "$(id -u)" -eq 0 ]; then
	CSDIR=sys/devices/system/clocksource/clocksource0
	mkdir -p "$T/root/$CSDIR"
	echo "tsc hpet" >"$T/root/$CSDIR/available_clocksource"
	echo tsc >"$T/root/$CSDIR/current_clocksource"
	"$BUILD/tickprobe" os --quick -q --switch --sysfs-root "$T/root" -o "$T/switch.log" 2>"$T/switch.err"
	ok "tickprobe os --switch on a fake tree: exit 0" $? "$(tail -n 2 "$T/switch.err")"
	check "the --switch log has its restore record" "grep -q '\"type\":\"restore\"' '$T/switch.log'"
	"$PYTHON3" tests/method/schema_check.py "$T/switch.log" --label "tickprobe os --switch"
else
	skip "tickprobe os --switch on a fake tree: needs root"
fi
