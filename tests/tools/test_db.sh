#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tickprobe db: import real QEMU and OS logs turned into a fleet
# (tests/tools/mkfleet.py), damaged, truncated, multi-boot and duplicate
# logs, two importers at once, a store of a newer schema; summary and the
# paired comparison against values computed here from the logs themselves.
. tests/lib/check.sh
BUILD=${BUILD:-build}
T=$BUILD/tickprobe
D=$(mktemp -d /tmp/tickprobe-db.XXXXXX)
trap 'rm -rf "$D"' EXIT
HERE=$(dirname "$0")

code() { # name, expected exit, command...
	n=$1 want=$2; shift 2
	"$@" >"$D/out" 2>"$D/err"; got=$?
	check "exit $want: $n" "[ $got = $want ]" "got $got: $(head -c 300 "$D/err")"
}
sq() { sqlite3 "$1" "$2"; }

[ -x "$T" ] || { fail setup "build $T first"; exit 1; }
command -v sqlite3 >/dev/null || { fail setup "sqlite3 not installed (tests/deps.sh)"; exit 1; }

# Real captures: the image under QEMU, and this host's OS side.
timeout 120 "$T" qemu --kernel --preset quick --options slow_rates=off -o "$D/bare.log" >/dev/null 2>&1
check "real bare-metal capture" "grep -q '\"type\":\"end\"' '$D/bare.log'" "tickprobe qemu gave no end record"
timeout 120 "$T" os --quick -o "$D/os.log" >/dev/null 2>&1
check "real OS capture" "grep -q '\"type\":\"end\"' '$D/os.log'" "tickprobe os gave no end record"

python3 "$HERE/mkfleet.py" "$D/fleet" 40 7 "$D/bare.log" "$D/os.log" || fail mkfleet "generator failed"
DB=$D/fleet.db
code "import a fleet directory" 0 "$T" db import "$DB" "$D/fleet"
check "import counts" "grep -q '80 runs: 80 imported, 0 already' '$D/out'" "$(cat "$D/out")"
check "machines: bare and OS runs of one machine pair up" "[ \"\$(sq '$DB' 'SELECT COUNT(*) FROM machines')\" = 40 ]" \
	"$(sq "$DB" 'SELECT COUNT(*) FROM machines')"
code "import again" 0 "$T" db import "$DB" "$D/fleet"
check "import is idempotent" "grep -q '80 runs: 0 imported, 80 already' '$D/out' && [ \"\$(sq '$DB' 'SELECT COUNT(*) FROM runs')\" = 80 ]" "$(cat "$D/out")"
check "every run complete" "[ \"\$(sq '$DB' 'SELECT COUNT(*) FROM runs WHERE complete=1')\" = 80 ]" ""
# The same logs as another machine's (--machine), into a copy: new runs,
# each with its records' text, though the thread that loads them finds the
# same logs stored under their own machines.
cp "$DB" "$D/named.db"
code "import the fleet again as one named machine" 0 "$T" db import --machine bench "$D/named.db" "$D/fleet"
check "a named machine's runs are new, each with its records' text" \
	"grep -q '80 runs: 80 imported, 0 already' '$D/out' && [ \"\$(sq '$D/named.db' 'SELECT COUNT(*) FROM runs WHERE log IS NULL')\" = 0 ] &&
	 [ \"\$(sq '$D/named.db' 'SELECT COUNT(*) FROM runs')\" = 160 ]" "$(cat "$D/out")"
check "per-round values and histograms stored" \
	"[ \"\$(sq '$DB' \"SELECT COUNT(*) FROM counters WHERE name='hpet' AND json_array_length(rounds_p50)=10 AND json_array_length(hist)>0\")\" = 40 ]" ""
check "OS calls stored" "[ \"\$(sq '$DB' 'SELECT COUNT(DISTINCT run_id) FROM os_rates')\" = 40 ]" ""

# --- every table from a real 4-CPU capture, against the log read here -----------
# The compact log writes the per-CPU lists as columns and leaves out what
# follows from other members (docs/log-format.md, "Derived members"); the
# store must hold the rows they stand for.  A copy has its last TSC pair
# moved into a tsc_sync_pairs record, as the probe writes pairs past the
# 512th, and sealed again (tests/tools/mkfleet.py's writer).
timeout 120 "$T" qemu --kernel --smp 4 --tcg=single --preset quick --options slow_rates=off -o "$D/smp4.log" >/dev/null 2>&1
check "real 4-CPU capture" "grep -q '\"type\":\"contention\"' '$D/smp4.log' && grep -q '\"type\":\"tsc_sync\"' '$D/smp4.log'" \
	"no contention or tsc_sync record: $(tail -c 300 "$D/smp4.log")"
mkdir -p "$D/smp"
python3 tests/tools/split_runs.py "$HERE" "$D/smp4.log" "$D/smp/split.log"
SD=$D/smp.db
code "import a 4-CPU capture" 0 "$T" db import "$SD" "$D/smp4.log"
code "import it with a tsc_sync_pairs record" 0 "$T" db import --machine split "$SD" "$D/smp/split.log"
python3 tests/tools/smp_store.py "$D/smp4.log" "$SD"
[ $? = 0 ] || fail "python checks" "stopped before the end of its checks (see above)"

# --- summary and compare against values computed from the logs ---------------
"$T" db summary "$DB" --json >"$D/summary.json" 2>"$D/err" || fail "summary --json" "$(cat "$D/err")"
"$T" db compare "$DB" hpet acpi-fast --json >"$D/pair.json" 2>"$D/err" || fail "compare --json" "$(cat "$D/err")"
# The OS call is named by the host's clocksource (tsc, kvm-clock, ...).
CALL=$(grep -o '"name":"clock_gettime(MONOTONIC)@[^"]*"' "$D/os.log" | head -1 | sed 's/^"name":"//; s/"$//')
check "the OS capture has clock_gettime(MONOTONIC)" "[ -n '$CALL' ]" "$(grep -o '"name":"[^"]*"' "$D/os.log" | head -5)"
"$T" db compare "$DB" "$CALL" tsc --json >"$D/pair2.json" 2>"$D/err" || fail "compare call --json" "$(cat "$D/err")"
python3 tests/tools/fleet_truth.py "$D" "$CALL"
[ $? = 0 ] || fail "python checks" "stopped before the end of its checks (see above)"
code "compare with a counter no machine has" 0 "$T" db compare "$DB" hpet no-such-counter --json
check "no machine with both: 0 machines and no ratio" \
	"python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r[\"machines\"]==0 and r[\"a_faster\"]+r[\"b_faster\"]+r[\"no_difference\"]==0 and set(r[\"ratio\"].values())=={None} else 1)' '$D/out'" \
	"$(cat "$D/out")"
for by in cpu vendor firmware boot; do
	code "summary --by $by" 0 "$T" db summary "$DB" --by $by --json
	check "summary --by $by groups" "python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))[\"groups\"]; sys.exit(0 if sum(x[\"runs\"] for x in g)==80 and len(g)>1 else 1)' '$D/out'" "$(head -c 300 "$D/out")"
done
code "summary text" 0 "$T" db summary "$DB"
check "summary text lists hpet" "grep -q '^  hpet ' '$D/out'" "$(head -5 "$D/out")"

# --- damaged input -------------------------------------------------------------
B=$D/bad; mkdir -p "$B"
python3 tests/tools/damage_logs.py "$D/bare.log" "$B" "$D/os.log"
[ $? = 0 ] || fail "python checks" "stopped before the end of its checks (see above)"
cp "$D/bare.log" "$B/dup1.log"; cp "$D/bare.log" "$B/dup2.log"
BD=$D/bad.db
code "import damaged, truncated, two-boot and duplicate logs" 3 "$T" db import "$BD" "$B"
check "damaged counts exact" "grep -q '5 files, 6 runs: 4 imported, 2 already' '$D/out'" "$(cat "$D/out")"
check "damaged records counted on their runs" "[ \"\$(sq '$BD' \"SELECT group_concat(damaged_records) FROM (SELECT damaged_records FROM runs ORDER BY source)\")\" = 1,0,1,0 ]" "$(sq "$BD" 'SELECT source, damaged_records FROM runs')"
check "truncated run kept, marked incomplete" "[ \"\$(sq '$BD' 'SELECT COUNT(*) FROM runs WHERE complete=0')\" = 2 ]" "$(sq "$BD" 'SELECT source, complete FROM runs')"
check "the damaged record is not in the store" "[ \"\$(sq '$BD' \"SELECT COUNT(*) FROM counters c JOIN runs r ON r.id=c.run_id WHERE r.source LIKE '%damaged.log'\")\" = \"\$(( \$(grep -c '\"type\":\"timer\"' '$D/bare.log') - 1 + \$(grep '\"type\":\"plan\"' '$D/bare.log' | grep -o '\"absent\":{[^}]*}' | grep -o '\":\"' | wc -l) ))\" ]" ""
code "summary of a damaged store" 0 "$T" db summary "$BD" --json
check "summary says the damaged records" "grep -q '\"damaged_records\":2,' '$D/out'" "$(head -c 200 "$D/out")"

# --- two importers at once -----------------------------------------------------
CD=$D/concurrent.db
"$T" db import -q "$CD" "$D/fleet" >"$D/c1" 2>&1 & p1=$!
"$T" db import -q --batch 7 "$CD" "$D/fleet" >"$D/c2" 2>&1 & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
check "two importers both succeed" "[ $r1 = 0 ] && [ $r2 = 0 ]" "exit $r1 and $r2: $(cat "$D/c1" "$D/c2")"
check "two importers: every run once" "[ \"\$(sq '$CD' 'SELECT COUNT(*) FROM runs')\" = 80 ] && [ \"\$(sq '$CD' 'SELECT COUNT(*) FROM machines')\" = 40 ]" \
	"runs $(sq "$CD" 'SELECT COUNT(*) FROM runs')"
check "two importers: store intact" "[ \"\$(sq '$CD' 'PRAGMA integrity_check')\" = ok ]" ""

# Both importers creating the store: the race is in the first few
# milliseconds, so it is run on 20 new files.
bad=0
for i in $(seq 20); do
	"$T" db import -q "$D/new$i.db" "$D/bare.log" "$D/os.log" >"$D/n1" 2>&1 & p1=$!
	"$T" db import -q "$D/new$i.db" "$D/os.log" "$D/bare.log" >"$D/n2" 2>&1 & p2=$!
	wait $p1 || bad=$((bad + 1)); wait $p2 || bad=$((bad + 1))
	[ "$(sq "$D/new$i.db" 'SELECT COUNT(*) FROM runs')" = 2 ] || bad=$((bad + 1))
done
check "two importers creating one store, 20 times" "[ $bad = 0 ]" "$bad failures: $(cat "$D/n1" "$D/n2")"

# --- stores that are not ours ----------------------------------------------------
cp "$DB" "$D/newer.db"; sq "$D/newer.db" 'PRAGMA user_version=99'
code "summary of a newer schema" 2 "$T" db summary "$D/newer.db"
check "newer schema message" "grep -q 'newer than this tickprobe' '$D/err'" "$(cat "$D/err")"
code "import into a newer schema" 2 "$T" db import "$D/newer.db" "$D/bare.log"
# A version-1 store (no cpus.cpu, startup_us, sipis): read as it is, and
# brought up to the current version by the next import.
cp "$SD" "$D/v1.db"
sq "$D/v1.db" 'ALTER TABLE cpus DROP COLUMN cpu; ALTER TABLE cpus DROP COLUMN startup_us;
	ALTER TABLE cpus DROP COLUMN sipis; PRAGMA user_version=1'
code "summary of a version-1 store" 0 "$T" db summary "$D/v1.db"
check "reading leaves a version-1 store as it is" "[ \"\$(sq '$D/v1.db' 'PRAGMA user_version')\" = 1 ]" ""
code "import into a version-1 store" 0 "$T" db import --machine again "$D/v1.db" "$D/smp4.log"
check "import brings a version-1 store up to version 2: its old rows null, the new one's filled" \
	"[ \"\$(sq '$D/v1.db' 'PRAGMA user_version')\" = 2 ] &&
	 [ \"\$(sq '$D/v1.db' 'SELECT COUNT(*) FROM cpus WHERE cpu IS NULL')\" = 8 ] &&
	 [ \"\$(sq '$D/v1.db' 'SELECT COUNT(*) FROM cpus WHERE cpu IS NOT NULL AND sipis IS NOT NULL')\" = 4 ]" \
	"$(sq "$D/v1.db" 'PRAGMA user_version; SELECT run_id, idx, cpu, sipis FROM cpus' | tr '\n' ' ')"
echo "not a database" >"$D/text.db"
code "summary of a text file" 2 "$T" db summary "$D/text.db"
code "summary of a missing store" 2 "$T" db summary "$D/none.db"
sq "$D/other.db" 'CREATE TABLE t(x)'
code "import into someone else's database" 2 "$T" db import "$D/other.db" "$D/bare.log"
code "compare extra operand" 1 "$T" db compare "$DB" hpet acpi-fast tsc
code "compare bad -c" 1 "$T" db compare -c 97 "$DB" hpet acpi-fast
code "summary bad --by" 1 "$T" db summary "$DB" --by colour
# --- hostile text from the store is shown escaped -------------------------------------
# The real captures with every string made hostile (tests/tools/evil_log.py):
# the store keeps them as they are, and what summary and compare print from
# it holds no raw control character (tests/tools/evil_text.py).
for f in bare os smp4; do python3 tests/tools/evil_log.py "$D/$f.log" "$D/evil-$f.log"; done
ED=$D/evil.db
code "import hostile logs" 0 "$T" db import "$ED" "$D/evil-bare.log" "$D/evil-os.log" "$D/evil-smp4.log"
n=$(sq "$ED" "SELECT COUNT(*) FROM machines WHERE instr(cpu_brand, char(27, 93, 48, 59, 80)) > 0")
[ "$n" -ge 1 ]
ok "the store keeps the hostile brand as it was" $? "$n machines: $(sq "$ED" 'SELECT cpu_brand FROM machines' | od -c | head -3)"
evil() { # [--json] what, times the payload's start is shown, times whole, then the command
	j=
	[ "$1" = --json ] && j=--json && shift
	w=$1 m=$2 h=$3
	shift 3
	"$@" >"$D/evil.out" 2>"$D/evil.err"
	python3 tests/tools/evil_text.py $j "$w" "$D/evil.out" "$m" "$h"
	python3 tests/tools/evil_text.py "$w, stderr" "$D/evil.err" 0 0
}
evil "db summary" 5 5 "$T" db summary "$ED"
evil --json "db summary --json" 5 5 "$T" db summary "$ED" --json
for by in cpu vendor firmware; do
	evil "db summary --by $by" 2 1 "$T" db summary "$ED" --by $by
done
evil "db compare -v" 1 1 "$T" db compare -v "$ED" tsc rdtscp

code "import nothing" 1 "$T" db import "$DB"
code "db unknown command" 1 "$T" db frobnicate
code "db --help" 0 "$T" db --help
