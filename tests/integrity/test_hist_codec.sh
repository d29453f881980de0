#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The two decoders of the log's histograms agree: strings written by the C
# encoder (probe/hist_codec.c, through build/tests/test_hist_codec --vectors),
# random and extreme, decode in Python (tests/boot/checklog.py: hist_pairs) to
# the bins they were made from, and the malformed ones are refused by both,
# for the same reason.
. tests/lib/check.sh
BUILD=${BUILD:-build}
GEN=$BUILD/tests/test_hist_codec
[ -x "$GEN" ] || { fail "setup: $GEN not built (make unit)"; exit 1; }
OUT=$(mktemp -d /tmp/tickprobe-hist.XXXXXX)
trap 'rm -rf "$OUT"' EXIT INT TERM
"$GEN" --vectors "$OUT/vectors.jsonl" || { fail "setup: $GEN --vectors failed"; exit 1; }
python3 tests/integrity/hist_vectors.py "$OUT/vectors.jsonl"
