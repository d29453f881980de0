# SPDX-License-Identifier: BSD-2-Clause
# The one boot helper of the script tests, sourced after tests/lib/check.sh
# (not run).  The caller sets OUT, the directory of its logs.
#
#   boot NAME WANT_RC [tickprobe qemu options...]
#       one boot through `tickprobe qemu` (--timeout 240 unless the options
#       give another): the log in $OUT/NAME.log, the tool's output and
#       QEMU's messages in $OUT/NAME.out and $OUT/NAME.err; sets $rc and
#       $ms, prints the time and one check: the exit status is WANT_RC, or
#       one of a list such as "0|10"
#   checklog NAME [checklog.py options...]
#       validate $OUT/NAME.log (tests/boot/checklog.py)
#   boot_entry NAME
#       boot the entry NAME of tests/boots.cfg and validate its log as the
#       entry says (tests/boot/test_boots.sh runs the whole table); returns
#       1, having failed a check, when the entry cannot be booted
#   boots_get NAME KEY      the entry's value of KEY ("" when it has none)
#   boots_names [GROUP...]  the entries in any of GROUPs (all without), in
#                           the table's order
#   need_tool               fail the setup when tickprobe or QEMU is missing
#   now_ms                  the time in milliseconds
#   QEMU_EXIT_DEVICE        the exit device's -device argument, for the few
#                           tests that must run QEMU themselves: status S
#                           ends QEMU with exit (S << 1) | 1 (probe/exit_status.h)
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
CHECK="python3 tests/boot/checklog.py"
BOOTS_CFG=${BOOTS_CFG:-tests/boots.cfg}
# shellcheck disable=SC2034 # for the tests that source this
QEMU_EXIT_DEVICE="isa-debug-exit,iobase=0xf4,iosize=0x04"

now_ms() { date +%s%3N; }

# want_rc RC WANT: RC is WANT or one of its "|"-separated list.
want_rc() {
	case "|$2|" in
	*"|$1|"*) return 0 ;;
	*) return 1 ;;
	esac
}

boot() {
	name=$1
	want=$2
	shift 2
	t0=$(now_ms)
	"$TP" qemu --timeout 240 -q -o "$OUT/$name.log" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
	rc=$?
	ms=$(($(now_ms) - t0))
	echo "boot $name: exit $rc in $ms ms ($(wc -c <"$OUT/$name.log" 2>/dev/null || echo 0) serial bytes)"
	if want_rc "$rc" "$want"; then
		pass "$name: tickprobe qemu exits $want"
	else
		fail "$name: tickprobe qemu exits $rc, not $want: $(tail -n 2 "$OUT/$name.err" | tr '\n' ' ')"
	fi
}

checklog() {
	name=$1
	shift
	$CHECK "$OUT/$name.log" --label "$name" "$@"
}

need_tool() {
	if [ ! -x "$TP" ]; then
		fail "setup: $TP is not built (make tool)"
		exit 1
	fi
	for t in qemu-system-x86_64 python3; do
		command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (sh tests/deps.sh)"; exit 1; }
	done
}

# The table's format is described at the top of tests/boots.cfg.
boots_get() {
	awk -v want="$1" -v key="$2" '
		/^[ \t]*(#|$)/ { next }
		/^\[/ { name = $0; gsub(/[][ \t]/, "", name); next }
		name == want {
			k = $0; sub(/[ \t]*=.*/, "", k); gsub(/[ \t]/, "", k)
			if (k != key) next
			v = $0; sub(/^[^=]*=[ \t]*/, "", v)
			# A value goes on over lines that end in a backslash.
			while (v ~ /\\$/ && (getline more) > 0) { sub(/\\$/, "", v); sub(/^[ \t]*/, "", more); v = v " " more }
			print v; exit
		}' "$BOOTS_CFG"
}

boots_names() {
	awk -v groups=" $* " '
		/^\[/ { name = $0; gsub(/[][ \t]/, "", name); order[++n] = name; next }
		/^[ \t]*groups[ \t]*=/ { g = $0; sub(/^[^=]*=/, "", g); grp[name] = " " g " " }
		END {
			for (i = 1; i <= n; i++) {
				hit = groups == "  "
				split(grp[order[i]], gs, /[ \t]+/)
				for (j in gs) if (gs[j] != "" && index(groups, " " gs[j] " ")) hit = 1
				if (hit) print order[i]
			}
		}' "$BOOTS_CFG"
}

# boots_keys NAME: the keys the entry gives, one a line.
boots_keys() {
	awk -v want="$1" '
		/^[ \t]*(#|$)/ { next }
		/^\[/ { name = $0; gsub(/[][ \t]/, "", name); next }
		name == want && !cont { k = $0; sub(/[ \t]*=.*/, "", k); gsub(/[ \t]/, "", k); print k }
		name == want { cont = /\\$/ }' "$BOOTS_CFG"
}

# boot_args NAME: the entry's `tickprobe qemu` options, as shell words.
boot_args() {
	case $(boots_get "$1" media) in
	cd) printf -- '--image %s --cdrom ' "$BUILD/tickprobe.img" ;;
	disk) printf -- '--image %s ' "$BUILD/tickprobe.img" ;;
	kernel | '') printf -- '--kernel=%s ' "$BUILD/tickprobe.elf32" ;;
	*) return 1 ;;
	esac
	for key in firmware machine smp preset timeout; do
		v=$(boots_get "$1" $key)
		[ -n "$v" ] && printf -- '--%s %s ' $key "$v"
	done
	v=$(boots_get "$1" options)
	[ -n "$v" ] && printf -- "--options '%s' " "$v"
	printf '%s -- %s' "$(boots_get "$1" extra)" "$(boots_get "$1" qemu)"
}

boot_entry() {
	if [ -z "$(boots_get "$1" groups)" ]; then
		fail "$1: no such entry in $BOOTS_CFG (or it has no groups)"
		return 1
	fi
	bad=$(boots_keys "$1" | grep -v -x -E 'media|firmware|machine|smp|preset|options|extra|qemu|exit|timeout|check|groups')
	if [ -n "$bad" ]; then
		fail "$1: $BOOTS_CFG: unknown key(s): $(echo "$bad" | tr '\n' ' ')"
		return 1
	fi
	if ! args=$(boot_args "$1"); then
		fail "$1: $BOOTS_CFG: media is '$(boots_get "$1" media)', not kernel, disk or cd"
		return 1
	fi
	eval "set -- '$1' $args"
	entry=$1
	shift
	boot "$entry" "$(boots_get "$entry" exit | grep . || echo 0)" "$@"
	eval "set -- $(boots_get "$entry" check)"
	checklog "$entry" "$@"
	return 0
}
