#!/bin/sh
# semcat.sh - the paper's data augmentation experiment (its Table 1 and
# figure) for one embedding: SEMCAT word classification without
# augmentation, and with K augmented examples per category made by OSE or
# by BOV from k random training words, for each k.
#
#   semcat.sh NAME VECTORS SEMCAT OUT [MIN [SPLITSEED [AUGK [SEEDS [KS [CLFS
#       [EVALOPTS]]]]]]]
#
# NAME       the embedding's name in the results (word2vec, ...)
# VECTORS    an embedding file emb-lookup reads
# SEMCAT     the SEMCAT directory (holding Categories/)
# OUT        directory for the intermediate streams and the results
# MIN        keep categories with at least MIN covered words (50)
# SPLITSEED  seed of the 50/50 train/test split (1)
# AUGK       augmented examples per category, emb-augment -K (25)
# SEEDS      augmentation seeds, one run each, results averaged ("1")
# KS         set sizes k ("2 5 10 15 20")
# CLFS       emb-eval classifiers ("knn,lda,centroid,ridge")
# EVALOPTS   more emb-eval options ("--shrinkage auto": LDA with Ledoit-Wolf
#            shrinkage; without it LDA fails when a category set has fewer
#            training words than dimensions)
#
# Writes OUT/results.tsv, lines "name method k seed classifier accuracy"
# (method none, bov or ose; k and seed 0 for none), and OUT/meta.tsv
# (words, coverage, categories kept, training and test sizes).
set -eu
name=$1 vec=$2 semcat=$3 out=$4
min=${5:-50} splitseed=${6:-1} augk=${7:-25} seeds=${8:-1}
ks=${9:-2 5 10 15 20} clfs=${10:-knn,lda,centroid,ridge}
evalopts=${11---shrinkage auto}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"

# Every (word, category) of SEMCAT, then the ones the embedding covers
# (emb-lookup's word mode skips the others and counts them).
: >"$out/compose.log"
sh "$here/semcat-words.sh" "$semcat" >"$out/semcat.txt"
emb-lookup -e "$vec" -w "$out/semcat.txt" >"$out/covered.emb" \
    2>"$out/lookup.log"
emb-cat -k "$out/covered.emb" >"$out/covered.txt"

# Categories with at least MIN covered words, split in halves.
awk -v min="$min" -v seed="$splitseed" -f "$here/semcat-split.awk" \
    "$out/covered.txt" >"$out/split.txt"
[ -s "$out/split.txt" ] || {
	echo "semcat.sh: $name: no category has $min covered words" >&2
	exit 1
}
# Keys: word TAB category TAB split.
emb-lookup -q -e "$vec" -w "$out/split.txt" >"$out/words.emb"
awk -F '\t' '$3 == "train"' "$out/split.txt" |
    emb-lookup -q -e "$vec" -w >"$out/train.emb"

awk -F '\t' -v name="$name" -v min="$min" -v augk="$augk" '
    FILENAME == ARGV[1] { words++; if (!($2 in c)) ncat++; c[$2]; next }
    FILENAME == ARGV[2] { cov++; next }
    { kept++; if (!($2 in k)) nkept++; k[$2]; n[$3]++ }
    END {
	printf "%s\tsemcat_entries\t%d\n", name, words
	printf "%s\tsemcat_categories\t%d\n", name, ncat
	printf "%s\tcovered_entries\t%d\n", name, cov
	printf "%s\tcoverage\t%.4f\n", name, cov / words
	printf "%s\tmin_words\t%d\n", name, min
	printf "%s\tcategories_kept\t%d\n", name, nkept
	printf "%s\ttrain_words\t%d\n", name, n["train"]
	printf "%s\ttest_words\t%d\n", name, n["test"]
	printf "%s\taugmented_per_category\t%d\n", name, augk
    }' "$out/semcat.txt" "$out/covered.txt" "$out/split.txt" \
    >"$out/meta.tsv"

# One evaluation: label field 2, split field 3; accuracy lines out.
evaluate() {	# method k seed stream...
	m=$1 k=$2 s=$3
	shift 3
	cat "$@" | emb-eval -c "$clfs" $evalopts -l 2 -s 3 \
	    -T "semcat-$name-$m-$k" |
	    awk -F '\t' -v OFS='\t' -v n="$name" -v m="$m" -v k="$k" \
		-v s="$s" '
		BEGIN { c["knn"] = "KNN"; c["lda"] = "LDA"
			c["centroid"] = "NC"; c["ridge"] = "Ridge"
			c["logreg"] = "LogReg"; c["mlp"] = "MLP" }
		$3 == "accuracy" { print n, m, k, s, c[$2], $4 }'
}

{
	evaluate none 0 0 "$out/words.emb"
	for k in $ks; do
		for s in $seeds; do
			emb-augment -k "$k" -K "$augk" -s "$s" "$out/train.emb" \
			    >"$out/sets.emb" 2>"$out/augment-$k.log"
			for m in bov ose; do
				emb-$m <"$out/sets.emb" >"$out/aug.emb" \
				    2>>"$out/compose.log"
				evaluate $m "$k" "$s" "$out/words.emb" \
				    "$out/aug.emb"
			done
		done
	done
} >"$out/results.tsv"
rm -f "$out/sets.emb" "$out/aug.emb"
