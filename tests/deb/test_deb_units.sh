#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The package's systemd units and the state it leaves: tickprobe-after-boot.service
# runs `schedule --after-boot` (it was named tickprobe-collect.service),
# tickprobe-collect.service runs the collector itself, sandboxed; both pass
# `systemd-analyze verify`, and `systemd-analyze security --offline=true`
# holds each under an exposure threshold (printed).  Then, as dpkg runs the
# maintainer scripts, under DPKG_ROOT trees (never this machine's /): a new
# installation enables the after-boot unit and not the collector; an upgrade
# from the old name moves its enablement (or the administrator's disabling)
# to the new unit and leaves the collector off; `postrm purge` removes
# /var/lib/tickprobe, the collector's state and /run/tickprobe, and nothing
# else, following no link; `postrm remove` takes the metrics file of
# tickprobe-metrics.service, which with its timer (installed, not enabled)
# feeds node_exporter: its command line run here writes metrics promtool
# passes.
. tests/lib/check.sh
BUILD=${BUILD:-build}
OUT=$BUILD/test-deb/units
rm -rf "$OUT" && mkdir -p "$OUT"
. tests/deb/lib.sh
for t in dpkg-buildpackage systemd-analyze deb-systemd-helper; do
	command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
T0=$(now_ms)
# Exposure thresholds (systemd-analyze's 0.0-10.0, here times ten): the
# collector faces the network; the after-boot unit runs as root.
COLLECT_MAX=20
AFTER_MAX=35

build_deb
unpack_deb
write_fake_tools
fake_system
R=$OUT/root
A=lib/systemd/system/tickprobe-after-boot.service
C=lib/systemd/system/tickprobe-collect.service
M=lib/systemd/system/tickprobe-metrics.service
MT=lib/systemd/system/tickprobe-metrics.timer

# --- what each unit runs ----------------------------------------------------------
if grep -qx 'ExecStart=/usr/bin/tickprobe schedule --after-boot' "$R/$A" && grep -qx 'Type=oneshot' "$R/$A" &&
	grep -qx 'WantedBy=multi-user.target' "$R/$A"; then
	pass "/$A: a oneshot running tickprobe schedule --after-boot"
else
	fail "/$A: $(grep -v '^#' "$R/$A" 2>&1 | tr '\n' ' ' | cut -c1-200)"
fi
exec_c=$(sed -n 's/^ExecStart=//p' "$R/$C")
case $exec_c in
"/usr/bin/tickprobe collect "*"--token-file %d/token"*) ok_exec=0 ;;
*) ok_exec=1 ;;
esac
if [ $ok_exec = 0 ] && ! printf '%s' "$exec_c" | grep -q -- '--token ' && grep -qx 'LoadCredential=token:/etc/tickprobe/collect.token' "$R/$C" &&
	grep -qx 'DynamicUser=yes' "$R/$C" && grep -qx 'StateDirectory=tickprobe-collect' "$R/$C" && grep -qx 'CapabilityBoundingSet=' "$R/$C"; then
	pass "/$C: runs tickprobe collect itself, its token from a credential file (never on the command line), as a dynamic user with no capability"
else
	fail "/$C: ExecStart '$exec_c'"
fi

# The unit's command line as systemd would run it under DynamicUser=: %S is
# /var/lib, where the state directory is private/tickprobe-collect with the
# link tickprobe-collect beside it, %d the credentials directory with the
# token.  Here in a tree of its own, on a loopback port the kernel picks: it
# must start (its ready file), take SIGTERM, and make its store.  The same
# line through the link fails: the store refuses a link in its path.
SIM=$(cd "$OUT" && pwd)/sim
rm -rf "$SIM" && mkdir -p "$SIM/var/lib/private/tickprobe-collect" "$SIM/cred" && chmod 0700 "$SIM/var/lib/private/tickprobe-collect" "$SIM/cred" &&
	ln -s private/tickprobe-collect "$SIM/var/lib/tickprobe-collect" && printf 'a-Token_1.x~\n' >"$SIM/cred/token" &&
	chmod 0400 "$SIM/cred/token" || { fail "setup: the DynamicUser= tree"; exit 1; }
run_unit_line() { # LINE: the ExecStart line, substituted, run for at most 20 s
	line=$(printf '%s' "$1" | sed -e "s|%S|$SIM/var/lib|g" -e "s|%d|$SIM/cred|g" -e "s|0\.0\.0\.0:8514|127.0.0.1:0|" \
		-e "s|^/usr/bin/tickprobe|$(cd "$R" && pwd)/usr/bin/tickprobe|")
	rm -f "$SIM/ready"
	# shellcheck disable=SC2086
	timeout 20 $line --ready-file "$SIM/ready" -q >"$SIM/run.out" 2>&1 &
	pid=$!
	i=0
	while [ ! -s "$SIM/ready" ] && kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -TERM $pid 2>/dev/null
	wait $pid
}
run_unit_line "$exec_c"; rc=$?
if [ $rc = 0 ] && grep -q '^http=127.0.0.1:[0-9]*' "$SIM/ready" && [ -s "$SIM/var/lib/private/tickprobe-collect/fleet.db" ] &&
	[ -d "$SIM/var/lib/private/tickprobe-collect/logs" ]; then
	pass "/$C's command line, in the layout DynamicUser= makes: starts, stops on SIGTERM (exit 0), makes its logs and store"
else
	fail "/$C's command line: exit $rc, ready '$(cat "$SIM/ready" 2>/dev/null)': $(head -c 300 "$SIM/run.out")"
fi
run_unit_line "$(printf '%s' "$exec_c" | sed 's|%S/private/|%S/|g')"; rc=$?
if [ $rc = 2 ] && grep -q 'unable to open database file' "$SIM/run.out"; then
	pass "the same line through the link systemd makes (%S/tickprobe-collect) is refused: why the unit names the directory itself"
else
	fail "the line through the link: exit $rc: $(head -c 200 "$SIM/run.out")"
fi

# The metrics unit's command line, its paths moved into $OUT: a quick run on
# this machine (no switch), its metrics file whole, and promtool content.
exec_m=$(sed -n 's/^ExecStart=//p' "$R/$M")
mkdir -p "$OUT/metrics/textfile"
line=$(printf '%s' "$exec_m" | sed -e "s|/var/lib/tickprobe/|$OUT/metrics/|" \
	-e "s|/var/lib/prometheus/node-exporter/|$OUT/metrics/textfile/|" -e "s|^/usr/bin/tickprobe|$R/usr/bin/tickprobe|")
# shellcheck disable=SC2086
timeout 120 $line >"$OUT/metrics/run.out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -qx 'Type=oneshot' "$R/$M" && grep -q '^OnUnitActiveSec=15min$' "$R/$MT" &&
	grep -q '^tickprobe_clock_gettime_seconds{' "$OUT/metrics/textfile/tickprobe.prom" &&
	promtool check metrics <"$OUT/metrics/textfile/tickprobe.prom" >"$OUT/metrics/promtool.out" 2>&1 &&
	[ "$(ls "$OUT/metrics/textfile")" = tickprobe.prom ]; then
	pass "/$M (every 15 min by its timer): its command line writes tickprobe.prom whole, promtool passes it"
else
	fail "/$M: exit $rc: $(head -c 300 "$OUT/metrics/run.out") $(head -c 200 "$OUT/metrics/promtool.out" 2>/dev/null)"
fi

# --- systemd-analyze -----------------------------------------------------------------
# verify: in a root holding this system's units (the targets the units name)
# and the package's files (its /usr/bin/tickprobe), no man lookup.  An
# unknown key is only a warning to it: any output at all fails.
V=$OUT/verify-root
rm -rf "$V" && mkdir -p "$V/lib/systemd" "$V/usr/bin" && cp -a /lib/systemd/system "$V/lib/systemd/" &&
	cp "$R/$A" "$R/$C" "$R/$M" "$R/$MT" "$V/lib/systemd/system/" && cp "$R/usr/bin/tickprobe" "$V/usr/bin/" ||
	{ fail "setup: the root for systemd-analyze verify"; exit 1; }
if systemd-analyze verify --root="$V" --man=no "/$A" "/$C" "/$M" "/$MT" >"$OUT/verify.out" 2>&1 && [ ! -s "$OUT/verify.out" ]; then
	pass "systemd-analyze verify: the four units, no complaint"
else
	fail "systemd-analyze verify: $(head -n 3 "$OUT/verify.out" | tr '\n' ' ')"
fi
# security: the score as systemd-analyze prints it, and its own threshold check.
security() { # UNIT MAX
	systemd-analyze security --offline=true --threshold="$2" "$R/$1" >"$OUT/security-${1##*/}.out" 2>&1
	src=$?
	score=$(sed -n 's/^→ Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p' "$OUT/security-${1##*/}.out")
	echo "systemd-analyze security --offline=true ${1##*/}: exposure $score (threshold $(echo "$2" | sed 's/\(.\)$/.\1/'))"
	[ $src = 0 ] && [ -n "$score" ]
}
security "$C" $COLLECT_MAX
ok "systemd-analyze security: the collector's exposure is at most $COLLECT_MAX/10" $? "$(tail -n 1 "$OUT/security-tickprobe-collect.service.out")"
security "$A" $AFTER_MAX
ok "systemd-analyze security: the after-boot unit's exposure is at most $AFTER_MAX/10" $? "$(tail -n 1 "$OUT/security-tickprobe-after-boot.service.out")"
security "$M" $AFTER_MAX
ok "systemd-analyze security: the metrics unit's exposure is at most $AFTER_MAX/10" $? "$(tail -n 1 "$OUT/security-tickprobe-metrics.service.out")"

# --- the maintainer scripts, as dpkg runs them, in DPKG_ROOT trees --------------------
WANTS=etc/systemd/system/multi-user.target.wants
enabled() { [ -L "$1/$WANTS/$2" ]; }

# A new installation: the after-boot unit enabled, the collector not.
DPKG_ROOT=$R maint postinst configure >"$OUT/install.out" 2>&1; rc=$?
if [ $rc = 0 ] && enabled "$R" tickprobe-after-boot.service && ! enabled "$R" tickprobe-collect.service &&
	[ ! -e "$R/etc/systemd/system/timers.target.wants/tickprobe-metrics.timer" ]; then
	pass "postinst configure (new installation): tickprobe-after-boot.service enabled, the collector and the metrics timer not"
else
	fail "postinst (new): exit $rc; wants: $(ls "$R/$WANTS" 2>&1 | tr '\n' ' ')"
fi

# An upgrade from the package whose tickprobe-collect.service ran --after-boot:
# that unit as it was, enabled by deb-systemd-helper as its postinst did.
OLD_UNIT='[Unit]
Description=tickprobe: compare the probe'"'"'s new log with this kernel
After=local-fs.target

[Service]
Type=oneshot
ExecStart=/usr/bin/tickprobe schedule --after-boot
TimeoutStartSec=300

[Install]
WantedBy=multi-user.target'
old_install() { # DIR: the old package's unit, enabled
	rm -rf "$1" && mkdir -p "$1/lib/systemd/system"
	printf '%s\n' "$OLD_UNIT" >"$1/$C"
	DPKG_ROOT=$(cd "$1" && pwd) DPKG_MAINTSCRIPT_PACKAGE=tickprobe deb-systemd-helper enable tickprobe-collect.service
	dpkg-deb -x "$DEB" "$1" # the new package's files over the old
	mkdir -p "$1/boot/grub" && : >"$1/boot/grub/grub.cfg"
}
U1=$OUT/upgrade
old_install "$U1"
was=$(enabled "$U1" tickprobe-collect.service && echo enabled)
DPKG_ROOT=$U1 maint postinst configure 0.1.0 >"$OUT/upgrade.out" 2>&1; rc=$?
if [ "$was" = enabled ] && [ $rc = 0 ] && enabled "$U1" tickprobe-after-boot.service && ! enabled "$U1" tickprobe-collect.service; then
	pass "upgrade from the old unit name (enabled): tickprobe-after-boot.service enabled; the collector, which now has the old name, left off"
else
	fail "upgrade (enabled): before '$was', exit $rc; wants: $(ls "$U1/$WANTS" 2>&1 | tr '\n' ' ')"
fi
U2=$OUT/upgrade-disabled
old_install "$U2"
rm -f "$U2/$WANTS/tickprobe-collect.service" # systemctl disable, by the administrator
DPKG_ROOT=$U2 maint postinst configure 0.1.0 >"$OUT/upgrade2.out" 2>&1; rc=$?
if [ $rc = 0 ] && ! enabled "$U2" tickprobe-after-boot.service && ! enabled "$U2" tickprobe-collect.service; then
	pass "upgrade from the old unit name, disabled by the administrator: the after-boot unit stays disabled, the collector off"
else
	fail "upgrade (disabled): exit $rc; wants: $(ls "$U2/$WANTS" 2>&1 | tr '\n' ' ')"
fi
DPKG_ROOT=$U1 maint postinst configure 0.1.0 >"$OUT/upgrade3.out" 2>&1; rc=$?
if [ $rc = 0 ] && enabled "$U1" tickprobe-after-boot.service && ! enabled "$U1" tickprobe-collect.service; then
	pass "a later upgrade: the after-boot unit stays enabled, the collector off"
else
	fail "later upgrade: exit $rc; wants: $(ls "$U1/$WANTS" 2>&1 | tr '\n' ' ')"
fi

# --- postrm purge: the package's state, and only that --------------------------------
P=$OUT/purge
rm -rf "$P" && mkdir -p "$P/var/lib/tickprobe/logs" "$P/var/lib/private/tickprobe-collect/logs/52-54-00-12-34-56" \
	"$P/run/tickprobe" "$P/var/lib/tickprobe-other" "$P/var/lib/private/other" "$P/run/other" "$P/etc/tickprobe" \
	"$P/srv/elsewhere" "$P/boot/grub"
: >"$P/boot/grub/grub.cfg"
echo db >"$P/var/lib/tickprobe/fleet.db"
echo log >"$P/var/lib/tickprobe/logs/os-0001.log"
echo method=efi >"$P/var/lib/tickprobe/schedule.state"
echo log >"$P/var/lib/private/tickprobe-collect/logs/52-54-00-12-34-56/0000.log"
ln -s private/tickprobe-collect "$P/var/lib/tickprobe-collect"
echo 1 >"$P/run/tickprobe/clocksource.lock"
for keep in var/lib/tickprobe-other/keep var/lib/private/other/keep run/other/keep etc/tickprobe/collect.token srv/elsewhere/keep; do
	echo keep >"$P/$keep"
done
ln -s ../../srv/elsewhere "$P/var/lib/tickprobe/logs/linked" # a link inside: removed, not followed
mkdir -p "$P/var/lib/prometheus/node-exporter"
echo 'node_other 1' >"$P/var/lib/prometheus/node-exporter/other.prom"
echo 'tickprobe_tsc_reliable 1' >"$P/var/lib/prometheus/node-exporter/tickprobe.prom"
(cd "$P" && find . | LC_ALL=C sort) >"$OUT/purge.before"
DPKG_ROOT=$P maint postrm remove >"$OUT/remove.out" 2>&1; rc1=$?
(cd "$P" && find . | LC_ALL=C sort) >"$OUT/remove.after"
DPKG_ROOT=$P maint postrm purge >"$OUT/purge.out" 2>&1; rc2=$?
(cd "$P" && find . | LC_ALL=C sort) >"$OUT/purge.after"
grep -v '^\./var/lib/tickprobe\(/\|$\)\|^\./var/lib/tickprobe-collect$\|^\./var/lib/private/tickprobe-collect\(/\|$\)\|^\./run/tickprobe\(/\|$\)' \
	"$OUT/purge.before" | grep -vx '\./var/lib/prometheus/node-exporter/tickprobe\.prom' >"$OUT/purge.want"
grep -vx '\./var/lib/prometheus/node-exporter/tickprobe\.prom' "$OUT/purge.before" >"$OUT/remove.want"
if [ $rc1 = 0 ] && cmp -s "$OUT/remove.want" "$OUT/remove.after"; then
	pass "postrm remove: the metrics file for node_exporter goes, the state stays (only purge removes it)"
else
	fail "postrm remove: exit $rc1: $(diff "$OUT/remove.want" "$OUT/remove.after" | grep '^[<>]' | head -3 | tr '\n' ' ')"
fi
if [ $rc2 = 0 ] && cmp -s "$OUT/purge.want" "$OUT/purge.after" && [ "$(cat "$P/srv/elsewhere/keep")" = keep ]; then
	pass "postrm purge: /var/lib/tickprobe, /var/lib/tickprobe-collect (the link and its private/ directory), /run/tickprobe gone; the rest, the token in /etc/tickprobe and a link's target kept"
else
	fail "postrm purge: exit $rc2: $(diff "$OUT/purge.want" "$OUT/purge.after" | grep '^[<>]' | head -4 | tr '\n' ' ')"
fi
echo "test_deb_units: $(( ($(now_ms) - T0) / 1000 )) s"
