#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The metrics (tools/lib/metrics.h): `tickprobe export --format prometheus`
# and `openmetrics` of real logs, and `tickprobe os --prometheus FILE`, pass
# Debian's `promtool check metrics` (names, units, labels); a label value
# from a hostile log is escaped; Debian's prometheus-node-exporter, on
# 127.0.0.1 with only its textfile collector, serves the os run's file.
. tests/lib/check.sh
BUILD=${BUILD:-build}
T=$BUILD/tickprobe
D=$(mktemp -d /tmp/tickprobe-prom.XXXXXX)
NE=""
trap '[ -n "$NE" ] && kill "$NE" 2>/dev/null; rm -rf "$D"' EXIT
LOGS=tests/data/logs/schema1

for fmt in prometheus openmetrics; do
	"$T" export --format $fmt "$LOGS"/q35-uefi-default.log "$LOGS"/q35-bios-default.log >"$D/$fmt.txt" 2>"$D/$fmt.err"
	ok "export --format $fmt: exit 0" $? "$(cat "$D/$fmt.err")"
	promtool check metrics <"$D/$fmt.txt" >"$D/$fmt.lint" 2>&1
	ok "export --format $fmt: promtool check metrics finds nothing" $? "$(head -n 5 "$D/$fmt.lint")"
	check "export --format $fmt: each log's read costs, labelled by log and counter" \
		"grep -q '^tickprobe_read_cost_seconds{log=\"$LOGS/q35-bios-default.log\",counter=\"hpet\",quantile=\"0.5\"} [0-9.e+-]*\$' '$D/$fmt.txt'" \
		"$(grep -m 3 read_cost "$D/$fmt.txt")"
done
check "openmetrics ends with # EOF and states units" "tail -n 1 '$D/openmetrics.txt' | grep -qx '# EOF' && grep -q '^# UNIT tickprobe_read_cost_seconds seconds' '$D/openmetrics.txt'"
check "prometheus (the textfile format) has no # EOF" "! grep -q '^# EOF' '$D/prometheus.txt'"

# A counter name with a quote, a backslash and a line end in it: escaped,
# and promtool still parses the whole.
"$PYTHON3" tests/tools/relabel.py "$LOGS/q35-bios-default.log" "$D/quote.log" '"name":"hpet"' '"name":"hp\"e\\t\n"'
"$T" export --format prometheus "$D/quote.log" >"$D/quote.txt" 2>/dev/null
promtool check metrics <"$D/quote.txt" >"$D/quote.lint" 2>&1
ok "a counter named with a quote, a backslash and a line end: promtool parses the export" $? "$(head -n 3 "$D/quote.lint")"
check "... the name escaped as the format wants" "grep -qF 'counter=\"hp\\\"e\\\\t\\n\"' '$D/quote.txt'" "$(grep -m 1 'counter=\"hp' "$D/quote.txt")"

# tickprobe os --prometheus, served by node_exporter's textfile collector.
mkdir -p "$D/textfile"
"$T" os --quick -q -o "$D/os.log" --prometheus "$D/textfile/tickprobe.prom" 2>"$D/os.err"
ok "os --prometheus: exit 0" $? "$(tail -n 2 "$D/os.err")"
check "os --prometheus: the file is complete and no .tmp is left" \
	"[ -s '$D/textfile/tickprobe.prom' ] && [ ! -e '$D/textfile/tickprobe.prom.tmp' ]"
promtool check metrics <"$D/textfile/tickprobe.prom" >"$D/os.lint" 2>&1
ok "os --prometheus: promtool check metrics finds nothing" $? "$(head -n 5 "$D/os.lint")"
port=$("$PYTHON3" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$D/textfile" >"$D/ne.log" 2>&1 &
NE=$!
i=0
while ! "$PYTHON3" -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/metrics', timeout=2)" 2>/dev/null &&
	[ $i -lt 50 ]; do
	sleep 0.2
	i=$((i + 1))
done
"$PYTHON3" -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:$port/metrics', timeout=5).read().decode())" >"$D/scrape.txt" 2>&1
check "node_exporter serves the current clocksource" "grep -q '^tickprobe_clocksource_info{clocksource=\"[a-z_-]*\"} 1\$' '$D/scrape.txt'" \
	"$(grep -m 3 tickprobe "$D/scrape.txt"; tail -n 3 "$D/ne.log")"
check "... clock_gettime's cost and the TSC's rate" \
	"grep -q '^tickprobe_clock_gettime_seconds{clocksource=' '$D/scrape.txt' && grep -q '^tickprobe_tsc_frequency_hertz ' '$D/scrape.txt'"
check "... a read's cost as a summary whose count is the reads measured, not 0" \
	"grep -q '^tickprobe_read_cost_seconds_count{counter=\"tsc\"} [1-9][0-9]*\$' '$D/scrape.txt' &&
	 grep -q '^tickprobe_read_cost_seconds_sum{counter=\"tsc\"} [0-9]' '$D/scrape.txt'" \
	"$(grep read_cost "$D/scrape.txt")"
check "... and no textfile error (node_textfile_scrape_error 0)" "grep -q '^node_textfile_scrape_error 0\$' '$D/scrape.txt'" \
	"$(grep textfile "$D/scrape.txt")"
grep '^tickprobe_' "$D/scrape.txt" | grep -v read_cost | sed 's/^/INFO: scraped: /'
