#!/bin/sh
# 02-figure.sh - the paper's figure in miniature: accuracy against the set
# size k for OSE and BOV augmentation, drawn by gnuplot.  Five SEMCAT
# categories, word2vec, k = 2, 5, 10, one seed; scripts/semcat.sh is the
# script `make -C examples figure` runs on everything.
set -eu
vec=data/word2vec-googlenews-300d-13k.vec.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/semcat/Categories"
for c in computer food military money weather; do
	cp data/semcat/Categories/$c-*.txt "$tmp/semcat/Categories/"
done

# name vectors semcat out min splitseed K seeds ks classifiers
sh scripts/semcat.sh word2vec "$vec" "$tmp/semcat" "$tmp/out" 50 1 10 1 \
    "2 5 10" knn,centroid
# Lines: embedding, method, k, seed, classifier, accuracy.
awk -F '\t' -v OFS='\t' '{ $6 = sprintf("%.3f", $6); print }' \
    "$tmp/out/results.tsv"
cut -f 1-3,5,6 "$tmp/out/results.tsv" >"$tmp/points.tsv"
sh scripts/figure.sh "$tmp/points.tsv" "$tmp/figure.png"
[ "$(head -c 4 "$tmp/figure.png" | tail -c 3)" = PNG ] && echo "figure: a PNG image"
