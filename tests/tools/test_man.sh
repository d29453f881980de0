#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The manual pages in man/, held to the code they describe:
#   - every command `tickprobe --help` lists has its page, and tickprobe(1)
#     names it; no page is left for a command that is gone;
#   - every option a command's --help names, and every option its code's
#     option table holds, is in the command's page;
#   - every boot option the probe parses (probe/options.c,
#     probe/options_net.c) with the values it knows, every counter, every
#     preset of image/presets.cfg with its words, and the probe's exit codes
#     (probe/exit_status.h) are in tickprobe-boot(7); the host's exit codes
#     (tools/lib/exit_codes.h) in tickprobe(1);
#   - `make man-lint` (mandoc -Tlint -Wwarning) passes, and groff and
#     lexgrog read every page without a word, as lintian runs them;
#   - docs/boot-options.md is `make man-markdown`'s output, as checked in;
#   - `make install` puts the pages in share/man/man1 and man7, and man(1)
#     renders them from there.
# The option and lint checks are first shown to catch a planted fault.
. tests/lib/check.sh
BUILD=${BUILD:-build}
TP=$BUILD/tickprobe
OUT=$BUILD/test-man
rm -rf "$OUT" && mkdir -p "$OUT"
for t in mandoc man lexgrog; do
	command -v $t >/dev/null 2>&1 || { fail "setup: $t not installed (make deps)"; exit 1; }
done
if [ ! -x "$TP" ] || [ ! -x "$BUILD/tickprobe-collect" ]; then
	fail "setup: no $TP or $BUILD/tickprobe-collect (make tool)"
	exit 1
fi

# A page as plain text, each paragraph on one line (so that no option is
# broken across two: mandoc's widest), without the overstrike of bold and
# underline.  A paragraph longer than that fails its checks.
render() {
	mandoc -Tascii -Owidth=1000 "$1" | sed 's/.\x08//g'
}

# The options a help text names: each -x or --word that starts a word.
help_options() {
	grep -oE "(^|[][[:space:](|,\`\"'/{])--?[A-Za-z][A-Za-z0-9-]*" | sed -E 's/^[^-]+//' | sort -u
}

# The options a command's code reads: the long options of each option
# table, and the letters of shortopts, in the files whose args_spec names
# the command (`.name = "db import"` is db's).
grep -oE '\.name = "[a-z]+' tools/*/*.c | sed -E 's/:.*"/ /' >"$OUT/spec-files"
code_options() {
	awk -v c="$1" '$2 == c { print $1 }' "$OUT/spec-files" | sort -u | while read -r f; do
		grep -oE '\{ "[a-z][a-z0-9-]*", (no|required|optional)_argument' "$f" | sed -E 's/\{ "([^"]*)".*/--\1/'
		grep -oE 'shortopts = "[^"]*"' "$f" | sed -E 's/.*"(.*)"/\1/' | tr -d ':' | fold -w 1 | sed 's/^/-/'
	done | sort -u
}

# The words of stdin (letters, digits, '_', '-', '=', ':') that the text file
# $1 lacks as a whole word, not inside a longer option or name; and a line
# of $1 as long as render's width, which may have broken a word.
missing_in() {
	awk -v text="$1" '
		BEGIN {
			while ((getline l < text) > 0) {
				t = t "\n" l
				if (length(l) >= 999)
					print "(a paragraph of " text " too long for one line)"
			}
		}
		# A word that ends in "=" is followed by its value.
		NF && t !~ ("(^|[^A-Za-z0-9_-])" $0 (/=$/ ? "" : "([^A-Za-z0-9_-]|$)")) { print }'
}

# --- the commands and their pages -------------------------------------------
"$TP" --help >"$OUT/help" 2>&1 || { fail "setup: tickprobe --help exits non-zero"; exit 1; }
commands=$(sed -nE 's/^  ([a-z]+)  .*/\1/p' "$OUT/help" | tr '\n' ' ')
[ "$(printf '%s' "$commands" | wc -w)" -ge 10 ] || { fail "setup: tickprobe --help lists no commands: $(head -3 "$OUT/help")"; exit 1; }
render man/tickprobe.1 >"$OUT/tickprobe.txt"
nopage=
unnamed=
for c in $commands; do
	[ -f "man/tickprobe-$c.1" ] || nopage="$nopage $c"
	grep -q "^\.Xr tickprobe-$c 1" man/tickprobe.1 && grep -q "^\.It Cm $c\$" man/tickprobe.1 || unnamed="$unnamed $c"
done
check "every command of tickprobe --help has its page man/tickprobe-COMMAND.1: $commands" '[ -z "$nopage" ]' "no page for:$nopage"
check "tickprobe(1) lists every command with its page (.It Cm NAME, .Xr tickprobe-NAME 1)" '[ -z "$unnamed" ]' "not listed:$unnamed"
stale=
for p in man/tickprobe-*.1; do
	c=${p#man/tickprobe-}
	c=${c%.1}
	case " $commands " in *" $c "*) ;; *) stale="$stale $p" ;; esac
done
check "every man/tickprobe-*.1 is a command's page" '[ -z "$stale" ]' "no such command:$stale"

# --- every option of each command is in its page -------------------------------
# A page that lost an option must fail: a copy of show's page without
# --latest first, where exactly that one must be missing.
sed 's/latest/newest/g' man/tickprobe-show.1 >"$OUT/planted.1"
render "$OUT/planted.1" >"$OUT/planted.txt"
"$TP" show --help | help_options | missing_in "$OUT/planted.txt" >"$OUT/planted.missing"
check "planted: show's page without --latest is caught by the help check, and only that" \
	'[ "$(cat "$OUT/planted.missing")" = --latest ]' "missing: $(tr '\n' ' ' <"$OUT/planted.missing")"
code_options show | missing_in "$OUT/planted.txt" >"$OUT/planted.code"
check "planted: show's page without --latest is caught by the code check, and only that" \
	'[ "$(cat "$OUT/planted.code")" = --latest ]' "missing: $(tr '\n' ' ' <"$OUT/planted.code")"

for c in $commands; do
	page=man/tickprobe-$c.1
	[ -f "$page" ] || continue
	render "$page" >"$OUT/$c.txt"
	{
		"$TP" "$c" --help
		[ "$c" = db ] && for s in import summary compare; do "$TP" db $s --help; done
		[ "$c" = collect ] && "$BUILD/tickprobe-collect" --help
	} >"$OUT/$c.help" 2>&1
	# --help and -h are every command's, documented once in tickprobe(1).
	help_options <"$OUT/$c.help" | grep -vx -e --help -e -h >"$OUT/$c.opts"
	miss=$(missing_in "$OUT/$c.txt" <"$OUT/$c.opts" | tr '\n' ' ')
	check "$c: the $(wc -l <"$OUT/$c.opts") options its --help names are in $page" '[ -z "$miss" ]' "missing: $miss"
	code_options "$c" >"$OUT/$c.code"
	miss=$(missing_in "$OUT/$c.txt" <"$OUT/$c.code" | tr '\n' ' ')
	check "$c: the $(wc -l <"$OUT/$c.code") options its code reads are in $page" '[ -s "$OUT/$c.code" ] && [ -z "$miss" ]' \
		"missing: $miss$([ -s "$OUT/$c.code" ] || echo "no option table found for $c")"
done
help_options <"$OUT/help" | missing_in "$OUT/tickprobe.txt" >"$OUT/tickprobe.missing"
check "tickprobe: the options of tickprobe --help are in man/tickprobe.1" '[ ! -s "$OUT/tickprobe.missing" ]' \
	"missing: $(tr '\n' ' ' <"$OUT/tickprobe.missing")"
# shellcheck disable=SC2013 # one number a line, each one word
for v in $(sed -nE 's/^#define EXIT_[A-Z_]+ ([0-9]+)$/\1/p' tools/lib/exit_codes.h); do
	sed -n '/^EXIT STATUS/,/^[A-Z]/p' "$OUT/tickprobe.txt" | grep -qE "^ +$v +[a-z]" || echo "$v"
done >"$OUT/exit.missing"
check "tickprobe(1)'s EXIT STATUS gives each status of tools/lib/exit_codes.h" '[ ! -s "$OUT/exit.missing" ]' \
	"missing: $(tr '\n' ' ' <"$OUT/exit.missing")"

# --- tickprobe-boot(7): every boot option, value, counter and preset -------------
boot_words() { # what the probe's code and presets.cfg say the page must hold, one a line
	grep -ohE 'tp_streq\((w|key), "[a-z_]+"\)' probe/options.c probe/options_net.c | sed -E 's/.*"(.*)".*/\1=/'
	grep -ohE 'tp_memcmp\(w, "[a-z_]+=", ' probe/options.c | sed -E 's/.*"(.*)".*/\1/'
	grep -ohE 'tp_streq\(val, "[a-z-]+"\)' probe/options.c probe/options_net.c | sed -E 's/.*"(.*)".*/\1/'
	grep -ohE '\{ \.name = "[a-z0-9-]+", \.read' drivers/*.c | sed -E 's/.*"(.*)".*/\1/'
	sed -nE 's/^([A-Za-z0-9_-]+):.*/\1/p' image/presets.cfg | grep -vx timeout
}
boot_missing() { # PAGE: the words and preset lines it lacks
	render "$1" >"$OUT/boot.txt"
	boot_words | sort -u | missing_in "$OUT/boot.txt"
	# A preset's words, whole and in quotes, exactly as presets.cfg gives
	# them; the menus' wait.
	sed -nE 's/^[A-Za-z0-9_-]+:[ \t]*(.*[^ \t])[ \t]*$/\1/p' image/presets.cfg | grep -v '^[0-9]*$' |
		while IFS= read -r words; do grep -qF -- "\"$words\"" "$OUT/boot.txt" || printf '%s\n' "$words"; done
	t=$(sed -nE 's/^timeout:[ \t]*([0-9]+).*/\1/p' image/presets.cfg)
	grep -qE "menus wait ${t:-5} seconds" "$OUT/boot.txt" || echo "timeout: ${t:-5}"
	# shellcheck disable=SC2013 # one number a line, each one word
	for v in $(sed -nE 's/^#define EXIT_CODE_[A-Z_]+ (0x[0-9a-f]+)$/\1/p' probe/exit_status.h); do
		grep -qE "^ +$v +$(( (v << 1) | 1 )) " "$OUT/boot.txt" || echo "exit code $v"
	done
}
n=$(boot_words | sort -u | wc -l)
sed -e 's/after_s/after_x/g' -e 's/^\.Dq Li samples=10000 rounds=10 calib_ms=20 :$/.Dq Li samples=10000 rounds=10 :/' \
	man/tickprobe-boot.7 >"$OUT/planted.7"
boot_missing "$OUT/planted.7" >"$OUT/planted7.missing"
check "planted: tickprobe-boot(7) without after_s= and with quick's words cut is caught, and only that" \
	'[ "$(tr "\n" " " <"$OUT/planted7.missing")" = "after_s= samples=10000 rounds=10 calib_ms=20 " ]' \
	"missing: $(tr '\n' ' ' <"$OUT/planted7.missing")"
boot_missing man/tickprobe-boot.7 >"$OUT/boot.missing"
check "tickprobe-boot(7) holds the $n boot options, values, counters and presets of the code, each preset's words, the menus' wait and the exit codes" \
	'[ "$n" -ge 40 ] && [ ! -s "$OUT/boot.missing" ]' "missing: $(tr '\n' ' ' <"$OUT/boot.missing")"

# --- lint: mandoc, then groff and lexgrog as lintian runs them ----------------------
printf '.Dd December 4, 2026\n.Dt BAD 1\n.Os tickprobe\n.Sh NAME\n.Nm bad\n.Nd a page\n.Sh DESCRIPTION\n.Bl -tag\n.It x\ny\n' >"$OUT/bad.1"
make -s --no-print-directory man-lint MAN_PAGES="$OUT/bad.1" >"$OUT/lint-bad.out" 2>&1
rc=$?
check "planted: make man-lint fails on a page with an unclosed list" '[ $rc -ne 0 ] && grep -q "bad.1" "$OUT/lint-bad.out"' \
	"exit $rc: $(head -2 "$OUT/lint-bad.out" | tr '\n' ' ')"
make -s --no-print-directory man-lint >"$OUT/lint.out" 2>&1
ok "make man-lint: mandoc -Tlint -Wwarning finds nothing in the pages of man/" $? "$(head -3 "$OUT/lint.out" | tr '\n' ' ')"
bad=
for p in man/*.[17]; do
	LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=120 man --warnings -E UTF-8 -l -Tutf8 -Z "$p" 2>"$OUT/groff.err" >/dev/null
	[ -s "$OUT/groff.err" ] && bad="$bad $p: $(head -1 "$OUT/groff.err")"
	LC_ALL=C.UTF-8 lexgrog "$p" >/dev/null 2>&1 || bad="$bad $p: lexgrog finds no NAME line"
done
check "groff (man --warnings) and lexgrog read every page without a word" '[ -z "$bad" ]' "$bad"

# --- docs/boot-options.md is the page's Markdown ------------------------------------
make -s --no-print-directory man-markdown MAN_MD="$OUT/boot-options.md" >"$OUT/md.out" 2>&1
if cmp -s "$OUT/boot-options.md" docs/boot-options.md; then
	pass "docs/boot-options.md is make man-markdown's output of man/tickprobe-boot.7"
else
	fail "docs/boot-options.md differs from man/tickprobe-boot.7's Markdown: run make man-markdown" \
		"$(diff docs/boot-options.md "$OUT/boot-options.md" 2>&1 | head -4 | tr '\n' ' ')"
fi

# --- make install, and man(1) on what it installed ------------------------------------
R=$OUT/root
make -s --no-print-directory install BUILD="$BUILD" DESTDIR="$R" PREFIX=/usr \
	-o "$BUILD/tickprobe" -o "$BUILD/tickprobe-collect" >"$OUT/install.out" 2>&1
rc=$?
M=$R/usr/share/man
(cd "$M" 2>/dev/null && find . -type f | LC_ALL=C sort) >"$OUT/installed"
changed=
: >"$OUT/wanted"
for p in man/*.[17]; do
	printf './man%s/%s\n' "${p##*.}" "${p#man/}" >>"$OUT/wanted"
	cmp -s "$p" "$M/man${p##*.}/${p#man/}" || changed="$changed $p"
done
LC_ALL=C sort -o "$OUT/wanted" "$OUT/wanted"
check "make install DESTDIR PREFIX=/usr: the $(wc -l <"$OUT/wanted") pages, unchanged, in share/man/man1 and man7" \
	'[ $rc -eq 0 ] && cmp -s "$OUT/installed" "$OUT/wanted" && [ -z "$changed" ]' \
	"exit $rc; $(diff "$OUT/wanted" "$OUT/installed" | grep '^[<>]' | head -3 | tr '\n' ' ')${changed:+ differ:$changed} $(tail -2 "$OUT/install.out")"
LC_ALL=C.UTF-8 MANPATH=$M MANWIDTH=80 man -P cat tickprobe-show >"$OUT/man-show.txt" 2>"$OUT/man-show.err"
check "MANPATH=…/share/man man tickprobe-show renders the installed page" \
	'grep -q "tickprobe-show.*one machine" "$OUT/man-show.txt" && grep -q -- "--latest" "$OUT/man-show.txt"' \
	"$(head -2 "$OUT/man-show.err") $(head -2 "$OUT/man-show.txt")"
LC_ALL=C.UTF-8 MANWIDTH=80 man -P cat -l "$M/man7/tickprobe-boot.7" >"$OUT/man-boot.txt" 2>&1
check "man -l renders the installed tickprobe-boot(7)" 'grep -q "TICKPROBE-BOOT(7)" "$OUT/man-boot.txt" && grep -q "after_s=N" "$OUT/man-boot.txt"' \
	"$(head -2 "$OUT/man-boot.txt")"
