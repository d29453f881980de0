#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# build/mkgrubcfg, the GRUB menu and options.c's table from presets.cfg.
#
# tests/data/presets/*.awk-menu are the menus the first generator (awk, in
# image/mkimage.sh) wrote for the .cfg beside them: the new one must write
# the same bytes, but for the multiboot lines of presets whose options are
# not "preset=NAME", which now boot "preset=NAME" (options.c holds their words).
. tests/lib/check.sh
BUILD=${BUILD:-build}
M=$BUILD/mkgrubcfg
D=tests/data/presets
OUT=$BUILD/test-image/mkgrubcfg
rm -rf "$OUT" && mkdir -p "$OUT"
if [ ! -x "$M" ]; then
	fail "setup: $M missing (make $M)"
	exit 1
fi

# The first format ("quick: preset=quick"): byte for byte the awk's menu.
if "$M" $D/first-format.cfg >"$OUT/first.menu" 2>"$OUT/first.err" && cmp -s "$OUT/first.menu" $D/first-format.awk-menu; then
	pass "mkgrubcfg: the first presets.cfg gives the awk generator's menu, byte for byte"
else
	fail "mkgrubcfg: the first presets.cfg: $(diff $D/first-format.awk-menu "$OUT/first.menu" | head -3 | tr '\n' ' ')$(head -1 "$OUT/first.err")"
fi

# CRLF, comments, blanks around names and options, 12 presets, a 23-character
# name, empty options, timeout 0.
if "$M" $D/every-feature.cfg >"$OUT/every.menu" 2>"$OUT/every.err"; then
	grep -v '^	multiboot ' $D/every-feature.awk-menu >"$OUT/every.awk-rest"
	grep -v '^	multiboot ' "$OUT/every.menu" >"$OUT/every.rest"
	if cmp -s "$OUT/every.awk-rest" "$OUT/every.rest"; then
		pass "mkgrubcfg: every feature of the format: titles, ids, timeout and GRUB script as the awk wrote them"
	else
		fail "mkgrubcfg: every feature: $(diff "$OUT/every.awk-rest" "$OUT/every.rest" | head -3 | tr '\n' ' ')"
	fi
	# Each entry boots preset=<its id>, in order.
	awk '/^menuentry/ { id = $(NF - 1) } /^\tmultiboot/ { print id, $3 }' "$OUT/every.menu" >"$OUT/every.boots"
	n=$(wc -l <"$OUT/every.boots")
	bad=$(awk '$2 != "preset=" $1' "$OUT/every.boots" | head -1)
	if [ "$n" -eq 12 ] && [ -z "$bad" ] && ! grep -q "$(printf '\r')" "$OUT/every.menu"; then
		pass "mkgrubcfg: all 12 entries boot preset=<their id>, no CR left"
	else
		fail "mkgrubcfg: entries: $n, first wrong: '$bad'"
	fi
else
	fail "mkgrubcfg: every-feature.cfg refused: $(head -1 "$OUT/every.err")"
fi

# The table for options.c: one row per preset, words as the menu titles show them.
if "$M" --table $D/every-feature.cfg >"$OUT/every.table" 2>"$OUT/every.terr" &&
	[ "$(grep -c '^{ "' "$OUT/every.table")" -eq 12 ] &&
	grep -qx '{ "default", "samples=100000 rounds=10 calib_ms=100" },' "$OUT/every.table" &&
	grep -qx '{ "empty", "" },' "$OUT/every.table" &&
	grep -qx '{ "p12", "fault=gp" },' "$OUT/every.table"; then
	pass "mkgrubcfg --table: 12 rows, trimmed words, empty options as \"\""
else
	fail "mkgrubcfg --table: $(head -3 "$OUT/every.table" | tr '\n' ' ')$(head -1 "$OUT/every.terr")"
fi
if ! "$M" --table $D/first-format.cfg >"$OUT/first.table" 2>"$OUT/first.terr" && [ ! -s "$OUT/first.table" ] &&
	[ "$(grep -c "no preset= inside" "$OUT/first.terr")" -eq 3 ] && grep -q "first-format.cfg:11: preset 'quick'" "$OUT/first.terr"; then
	pass "mkgrubcfg --table: presets made of preset= words are refused, each named by its line"
else
	fail "mkgrubcfg --table on the first format: $(head -2 "$OUT/first.terr" | tr '\n' ' ')"
fi

# The shipped file: an entry per preset, and a table row per preset.
if "$M" image/presets.cfg >"$OUT/shipped.menu" 2>"$OUT/shipped.err" && "$M" --table image/presets.cfg >"$OUT/shipped.table"; then
	names=$(sed -n 's/^\([A-Za-z0-9_-]*\):.*/\1/p' image/presets.cfg | grep -vx timeout | tr '\n' ' ')
	ids=$(sed -n 's/^menuentry .* --id \([^ ]*\) {$/\1/p' "$OUT/shipped.menu" | tr '\n' ' ')
	rows=$(sed -n 's/^{ "\([^"]*\)".*/\1/p' "$OUT/shipped.table" | tr '\n' ' ')
	if [ -n "$names" ] && [ "$names" = "$ids" ] && [ "$names" = "$rows" ]; then
		pass "mkgrubcfg: image/presets.cfg gives a menu entry and a table row for each of: $names"
	else
		fail "mkgrubcfg: image/presets.cfg: presets '$names', entries '$ids', rows '$rows'"
	fi
else
	fail "mkgrubcfg: image/presets.cfg refused: $(head -1 "$OUT/shipped.err")"
fi

# Bad files: exit 1, nothing on stdout, each problem as FILE:LINE: why.
bad() { # name, expected stderr text, file contents
	printf '%b' "$3" >"$OUT/$1.cfg"
	"$M" "$OUT/$1.cfg" >"$OUT/$1.out" 2>"$OUT/$1.err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s "$OUT/$1.out" ] && grep -qF -- "$2" "$OUT/$1.err"; then
		pass "mkgrubcfg: $1: exit 1, no menu: $(head -1 "$OUT/$1.err")"
	else
		fail "mkgrubcfg: $1: exit $rc, $(wc -c <"$OUT/$1.out") bytes out, wanted '$2' in: $(head -2 "$OUT/$1.err" | tr '\n' ' ')"
	fi
}
bad no-colon "no-colon.cfg:2: no ':'" 'default: a=1\nquick samples=5\n'
bad bad-name "bad-name.cfg:2: preset name 'a b'" 'default: a=1\na b: x=1\n'
bad long-name "long-name.cfg:1: preset name 'abcdefghijklmnopqrstuvwx' is longer than 23" 'abcdefghijklmnopqrstuvwx: x=1\ndefault:\n'
bad bad-char "bad-char.cfg:1: options of 'default': '\$' is not allowed" 'default: a=$x\n'
bad bad-timeout "bad-timeout.cfg:1: timeout 'soon'" 'timeout: soon\ndefault: a=1\n'
bad duplicate "duplicate.cfg:3: preset 'default' again (the first is on line 1)" 'default: a=1\nquick: b=1\ndefault: c=1\n'
bad thirteen "thirteen.cfg:13: more than 12 presets: 'p13' ignored" 'default:\np2:\np3:\np4:\np5:\np6:\np7:\np8:\np9:\np10:\np11:\np12:\np13:\n'
bad no-default "no-default.cfg: no preset named 'default'" 'quick: a=1\n'
bad empty "empty.cfg: no presets" '# nothing\n'
bad several "several.cfg:3: timeout '5s'" 'default: a=1\nx y\ntimeout: 5s\n'
if grep -q "several.cfg:2: no ':'" "$OUT/several.err" && [ "$(wc -l <"$OUT/several.err")" -eq 2 ]; then
	pass "mkgrubcfg: two bad lines: both named, in order"
else
	fail "mkgrubcfg: two bad lines: $(tr '\n' ' ' <"$OUT/several.err")"
fi

head -c 16385 /dev/zero | tr '\0' '#' >"$OUT/big.cfg"
"$M" "$OUT/big.cfg" >"$OUT/big.out" 2>"$OUT/big.err"
rc=$?
[ $rc -eq 1 ] && grep -q "larger than the 16384 bytes" "$OUT/big.err" &&
	pass "mkgrubcfg: a file larger than the UEFI menu reads is refused" ||
	fail "mkgrubcfg: 16385-byte file: exit $rc, $(head -1 "$OUT/big.err")"
"$M" "$OUT/absent.cfg" >/dev/null 2>"$OUT/absent.err"
rc=$?
[ $rc -eq 1 ] && grep -q "absent.cfg: No such file" "$OUT/absent.err" &&
	pass "mkgrubcfg: a missing file: exit 1, named" || fail "mkgrubcfg: missing file: exit $rc"
"$M" >/dev/null 2>"$OUT/usage.err"
rc=$?
"$M" --menu x >/dev/null 2>>"$OUT/usage.err"
rc2=$?
[ $rc -eq 2 ] && [ $rc2 -eq 2 ] && grep -q "^usage: mkgrubcfg" "$OUT/usage.err" &&
	pass "mkgrubcfg: no file or an unknown flag: usage, exit 2" || fail "mkgrubcfg: usage: exit $rc, $rc2"
