#!/bin/sh
# 06-map.sh - a 2-D map of word sets, their OSE and their BOV: every
# vector at unit length, projected onto the top two principal components
# of them all (emb-normalize -F, then -P), drawn by gnuplot.  Prints the
# points (label, set, kind, x, y); `make -C examples map` writes the
# picture the README shows, word-map.png.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh scripts/map.sh data/word2vec-googlenews-300d-13k.vec.gz "$tmp/map.png"
[ "$(head -c 4 "$tmp/map.png" | tail -c 3)" = PNG ] && echo "map: a PNG image"
