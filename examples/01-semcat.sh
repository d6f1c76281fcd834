#!/bin/sh
# 01-semcat.sh - Table 1 in miniature: SEMCAT word classification with the
# word2vec vectors, without augmentation and with OSE or BOV augmentation
# (10 new examples per category, each composed from k = 5 random training
# words), on five categories.  The full table is `make -C examples semcat`
# (scripts/semcat.sh), for all categories, every k and four embeddings.
set -eu
vec=data/word2vec-googlenews-300d-13k.vec.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/semcat/Categories"
for c in computer food military money weather; do
	cp data/semcat/Categories/$c-*.txt "$tmp/semcat/Categories/"
done

# "word TAB category" lines; the words the vectors cover, 50/50 per category.
sh scripts/semcat-words.sh "$tmp/semcat" |
    emb-lookup -q -e "$vec" -w | emb-cat -k |
    awk -v min=50 -v seed=1 -f scripts/semcat-split.awk >"$tmp/split.txt"
cut -f 2,3 "$tmp/split.txt" | sort | uniq -c |
    awk '{ n[$2] = n[$2] " " $3 " " $1 } END { for (c in n) print c n[c] }' |
    sort

# Word vectors keyed "word TAB category TAB split"; the training words alone.
emb-lookup -q -e "$vec" -w "$tmp/split.txt" >"$tmp/words.emb"
awk -F '\t' '$3 == "train"' "$tmp/split.txt" |
    emb-lookup -q -e "$vec" -w >"$tmp/train.emb"

# 10 sets of 5 training words per category, composed two ways; the
# augmented examples keep the category and the split "train".
emb-augment -k 5 -K 10 -s 1 "$tmp/train.emb" >"$tmp/sets.emb"
emb-cat "$tmp/sets.emb" | grep '#' | head -2
emb-ose -q "$tmp/sets.emb" >"$tmp/ose.emb"
emb-bov -q "$tmp/sets.emb" >"$tmp/bov.emb"

# Train on the training words (and the augmented examples), test on the
# test words: label field 2, split field 3.  LDA with Ledoit-Wolf
# shrinkage: 218 training words are fewer than the 300 dimensions.
printf 'method\tKNN\tLDA\tNC\tRidge\n'
for m in none bov ose; do
	aug=
	[ $m = none ] || aug=$tmp/$m.emb
	cat "$tmp/words.emb" $aug |
	    emb-eval -c knn,lda,centroid,ridge --shrinkage auto -l 2 -s 3 |
	    awk -F '\t' -v m=$m '$3 == "accuracy" { a[$2] = $4 }
		END { printf "%s\t%.3f\t%.3f\t%.3f\t%.3f\n", m, a["knn"],
		    a["lda"], a["centroid"], a["ridge"] }'
done
