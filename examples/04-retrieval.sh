#!/bin/sh
# 04-retrieval.sh - the paper's word-finding and "melting pot" problems:
# the vocabulary words nearest to the OSE and to the BOV (mean) of a word
# set, the set's own words excluded; then Problem 2 on a group: the range
# of common distances it admits, and a vector at a chosen distance from
# every member, checked by measuring those distances.  VEC may name other
# vectors (the full GoogleNews file): `make -C examples retrieval`.
set -eu
vec=${VEC:-data/word2vec-googlenews-300d-13k.vec.gz}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The whole vocabulary is the reference set.
emb-lookup -e "$vec" -D >"$tmp/vocab.emb"

# Lines "id TAB words TAB words": the key keeps the words (field 2) so
# that emb-knn -x 2 can leave them out of the answers.
printf '%s\t%s\t%s\n' \
    pot1 'king woman' 'king woman' \
    pot2 'coffee milk' 'coffee milk' \
    pot3 'doctor hospital' 'doctor hospital' \
    pot4 'france germany italy spain' 'france germany italy spain' |
    emb-lookup -q -e "$vec" -f 2 >"$tmp/sets.emb"

# OSE with its common distance alpha appended (-a), BOV; 5 nearest words.
emb-ose -q -a "$tmp/sets.emb" >"$tmp/ose.emb"
emb-bov -q "$tmp/sets.emb" >"$tmp/bov.emb"
echo "== OSE: id, words, alpha, rank, nearest word, distance"
emb-knn -k 5 -x 2 "$tmp/vocab.emb" "$tmp/ose.emb"
echo "== BOV: id, words, rank, nearest word, distance"
emb-knn -k 5 -x 2 "$tmp/vocab.emb" "$tmp/bov.emb"

# Problem 2 on the group "doctor nurse hospital": the common distances it
# admits (alpha_lo is the OSE's), then a vector at distance alpha_lo + 0.1
# from each of the three words, and its distances to them.
printf 'p2\tdoctor nurse hospital\n' |
    emb-lookup -q -e "$vec" -f 1 >"$tmp/group.emb"
echo "== Problem 2: group, alpha_lo, alpha_hi, kind"
emb-ose -q -i "$tmp/group.emb" >"$tmp/interval.txt"
cat "$tmp/interval.txt"
alpha=$(awk -F '\t' '{ printf "%.6f", $2 + 0.1 }' "$tmp/interval.txt")
emb-ose -q -p -c "$alpha" "$tmp/group.emb" >"$tmp/p2.emb"
printf 'doctor\nnurse\nhospital\n' |
    emb-lookup -q -e "$vec" -w >"$tmp/members.emb"
echo "== distances to the members of the vector at alpha = $alpha"
emb-knn -k 3 "$tmp/members.emb" "$tmp/p2.emb" |
    awk -F '\t' '{ printf "%s\t%.6f\n", $3, $4 }' | sort
