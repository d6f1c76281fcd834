#!/bin/sh
# 05-contextual.sh - contextual vectors in: token vectors written from
# Python as a NumPy array and a keys file (scripts/contextual.py; its
# comments show where a transformer's hidden states go), read back by
# emb-cat -n as one group a sentence, composed by OSE and BOV, and the
# sentences classified (emb-eval, as the paper does with BERT).  Needs
# NumPy (Debian: python3-numpy).
set -eu
py=/usr/bin/python3
[ -x $py ] || py=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\t%s\t%s\n' \
    1 animal 'the cat sat on the mat' \
    2 animal 'a dog ran in the park' \
    3 money 'the bank raised its interest rate' \
    4 money 'stocks fell as the market closed' \
    5 animal 'the horse ate grass in the field' \
    6 animal 'birds flew over the river' \
    7 money 'the company paid its debt' \
    8 money 'prices rose and the dollar fell' >"$tmp/sentences.txt"
$py scripts/contextual.py data/glove-6B-100d-2.6k.txt.gz \
    "$tmp/sentences.txt" "$tmp/tokens"
head -3 "$tmp/tokens.keys"
# One group a sentence, keyed "id TAB label"; members keyed by token.
emb-cat -n "$tmp/tokens.npy" -K "$tmp/tokens.keys" -g 1 -G 1,2 \
    >"$tmp/groups.emb"
emb-cat -k "$tmp/groups.emb" | grep '#'
emb-cat -n "$tmp/tokens.npy" -K "$tmp/tokens.keys" -g 1 -G 1,2 |
    emb-ose -q >"$tmp/ose.emb"
emb-bov -q "$tmp/groups.emb" >"$tmp/bov.emb"
# The composed sentences: key and dimension.
for m in ose bov; do
	emb-cat "$tmp/$m.emb" | awk -F '\t' -v m=$m \
	    '{ print m "\t" $1 "\t" $2 "\t" split($NF, c, " ") }'
done
# Each composition classified: 2-fold cross-validation on the label.
for m in ose bov; do
	emb-eval -l 2 -k 2 -c knn,centroid --neighbours 1 -T $m \
	    "$tmp/$m.emb" | grep -w accuracy
done
