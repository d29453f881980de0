#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Real schema-1 logs (tests/data/logs/schema1/, written by the probe and by
# `tickprobe os` before the compact schema 2) must read exactly as they did:
# every show, compare, export and report output is compared with the SHA-256
# of the output the schema-1 tool gave (expected.sha256, one line per command).
# Then the Python checker reads them too, histogram pairs included.
#   sh tests/integrity/test_schema1.sh             check
#   sh tests/integrity/test_schema1.sh --record    rewrite expected.sha256
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$(cd "$(dirname "$BUILD/tickprobe")" && pwd)/tickprobe
DATA=tests/data/logs/schema1
EXPECTED=$DATA/expected.sha256
[ -x "$TP" ] || { fail "setup: $TP not built (make tool)"; exit 1; }
OUT=$(mktemp -d /tmp/tickprobe-schema1.XXXXXX)
trap 'rm -rf "$OUT"' EXIT INT TERM

BIOS=q35-bios-default.log UEFI=q35-uefi-default.log OS=os-quick.log
# One command per line: what its stdout, stderr and exit status hash to.
cat >"$OUT/commands" <<CMDS
show $BIOS
show $UEFI
show $OS
show --json $BIOS $UEFI $OS
compare $BIOS $UEFI
compare --metric mean $BIOS $UEFI
compare --counter hpet -c 99 $BIOS $UEFI
compare $BIOS $OS
compare $OS $OS
export $BIOS
export $BIOS --metric mean
export $UEFI --counter hpet,tsc
export $OS
export $BIOS --samples
export $UEFI --samples --counter acpi-fast
export $OS --samples
export --format csv $BIOS $UEFI $OS
export --format json $BIOS
export --format json $OS
report $BIOS $UEFI $OS -o $OUT/report.html
CMDS

hash_of() { # command words... -> sha256 of "stdout / stderr / exit status"
	(cd "$DATA" && "$TP" "$@" >"$OUT/o" 2>"$OUT/e"; echo "exit $?" >"$OUT/s")
	case $1 in
	report) # the page says when it was made and where it went: not the log's doing
		sed -e '/<p class="dim">Generated /d' "$OUT/report.html" >>"$OUT/o"
		sed -i -e "s|$OUT|OUT|g" "$OUT/o" "$OUT/e" ;;
	esac
	cat "$OUT/o" "$OUT/e" "$OUT/s" | sha256sum | cut -d' ' -f1
}

if [ "$1" = "--record" ]; then
	: >"$EXPECTED"
	while IFS= read -r cmd; do
		# shellcheck disable=SC2086
		echo "$(hash_of $cmd)  $(echo "$cmd" | sed "s|$OUT|OUT|g")" >>"$EXPECTED"
	done <"$OUT/commands"
	echo "recorded $(wc -l <"$EXPECTED") outputs in $EXPECTED"
	exit 0
fi

[ -f "$EXPECTED" ] || { fail "setup: $EXPECTED missing"; exit 1; }
while IFS= read -r cmd; do
	key=$(echo "$cmd" | sed "s|$OUT|OUT|g")
	want=$(grep -F "  $key" "$EXPECTED" | awk -v k="$key" 'substr($0, 67) == k { print $1 }')
	# shellcheck disable=SC2086
	got=$(hash_of $cmd)
	if [ -z "$want" ]; then
		fail "schema 1: tickprobe $key: no expected output recorded"
	elif [ "$got" = "$want" ]; then
		pass "schema 1: tickprobe $key: output as the schema-1 tool gave it"
	else
		fail "schema 1: tickprobe $key: output differs from the schema-1 tool's: $(head -c 300 "$OUT/o" | tr '\n' ' ')"
	fi
done <"$OUT/commands"

for log in "$BIOS" "$UEFI"; do
	python3 tests/boot/checklog.py "$DATA/$log" --label "schema 1: $log" --expect begin.schema=1 \
		--expect end.status='"ok"'
done
# checklog.py wants the probe's records (acpi, ...); the OS log gets its own look.
python3 tests/integrity/schema1_os.py "$DATA/$OS"

# One run written by the log writer in schema 2 (a.log) and in schema 1
# (a1.log) must read the same in every command.
GEN=$BUILD/tests/test_logread
if [ -x "$GEN" ] && "$GEN" --fixtures "$OUT/fx" >/dev/null; then
	for cmd in "show" "export" "export --metric mean" "export --samples" "export --format csv" \
		"compare b.log" "report -o -"; do
		# shellcheck disable=SC2086 # a command and its options, split on purpose
		set -- $cmd
		sub=$1
		shift
		(cd "$OUT/fx" && "$TP" "$sub" a.log "$@" 2>&1 | sed -e 's/a\.log/LOG/g' -e '/<p class="dim">Generated /d') >"$OUT/a2"
		(cd "$OUT/fx" && "$TP" "$sub" a1.log "$@" 2>&1 | sed -e 's/a1\.log/LOG/g' -e '/<p class="dim">Generated /d') >"$OUT/a1"
		if cmp -s "$OUT/a2" "$OUT/a1" && [ -s "$OUT/a2" ]; then
			pass "schemas 1 and 2: tickprobe $cmd: the same run gives the same output ($(wc -l <"$OUT/a2") lines)"
		else
			fail "schemas 1 and 2: tickprobe $cmd: outputs differ: $(diff "$OUT/a2" "$OUT/a1" | head -4 | tr '\n' ' ')"
		fi
	done
	# show --json embeds some records as written: those differ; nothing else may.
	(cd "$OUT/fx" && "$TP" show --json a.log >"$OUT/a2.json" && "$TP" show --json a1.log >"$OUT/a1.json")
	python3 tests/integrity/same_json.py "$OUT/a2.json" "$OUT/a1.json"
else
	fail "setup: $GEN --fixtures failed (make unit)"
fi
