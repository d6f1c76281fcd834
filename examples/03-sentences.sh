#!/bin/sh
# 03-sentences.sh - the sentence experiments in miniature, on the bundled
# SentEval sample: TREC question classification (546 training and 100
# test questions) and STS16 headlines (160 pairs, 10 of them unscored),
# sentences composed by BOV and by OSE from word2vec vectors.  The full
# runs are `make -C examples senteval sts`, with the same scripts.
set -eu
vec=data/word2vec-googlenews-300d-13k.vec.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Query lines "id TAB label TAB split TAB tokens" (STS: "id TAB subset TAB
# tokens"), one per sentence.
sh scripts/senteval-prep.sh data/senteval-sample "$tmp/prep"
head -2 "$tmp/prep/TREC.txt"

# Lookup, BOV and OSE, then KNN and logistic regression trained on the
# training questions, tested on the test questions (accuracy in percent).
sh scripts/senteval.sh word2vec "$vec" "$tmp/prep" "$tmp/trec" TREC \
    knn,logreg
cat "$tmp/trec/results.tsv"
# name task lines tokens oov_tokens oov_rate empty_lines
cat "$tmp/trec/oov.tsv"

# STS: the cosine of the two sentences of each pair against the gold score.
sh scripts/sts.sh word2vec "$vec" "$tmp/prep" "$tmp/sts" STS16
awk -F '\t' -v OFS='\t' '$4 ~ /spearman_mean|pairs|unscored/' \
    "$tmp/sts/results.tsv"
