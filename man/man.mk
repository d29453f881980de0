# SPDX-License-Identifier: BSD-2-Clause
# The manual pages (included by the Makefile): man/*.1 and man/*.7, mdoc
# written by hand.
#
#   make man-lint       mandoc -Tlint -Wwarning over every page; fails on any
#                       warning (MAN_PAGES=FILE... checks other pages)
#   make man-markdown   docs/boot-options.md from man/tickprobe-boot.7 with
#                       mandoc -Tmarkdown: the page is the one source of that
#                       guide (MAN_MD=FILE writes FILE instead)
#
# `make install` puts the pages in MANDIR/man1 and MANDIR/man7.

MAN1_PAGES := $(wildcard man/*.1)
MAN7_PAGES := $(wildcard man/*.7)
MAN_PAGES  := $(MAN1_PAGES) $(MAN7_PAGES)
MANDIR      = $(PREFIX)/share/man
MAN_MD     := docs/boot-options.md

.PHONY: man-lint man-markdown
man-lint:
	@command -v mandoc >/dev/null 2>&1 || { echo "man-lint: mandoc not found (make deps)" >&2; exit 1; }
	mandoc -Tlint -Wwarning $(MAN_PAGES)

man-markdown:
	mandoc -Tmarkdown man/tickprobe-boot.7 >$(MAN_MD).tmp && mv $(MAN_MD).tmp $(MAN_MD)
