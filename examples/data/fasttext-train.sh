#!/bin/sh
# examples/data/fasttext-train.sh - remake fasttext-senteval-16d.bin.gz, a
# small real fastText model (skipgram, dimension 16, 10,000 n-gram
# buckets, character n-grams of 3 to 6), with Debian's fasttext (0.9.2) on
# the bundled SentEval sentences: those of the seven probing samples whose
# sentences are unchanged (not bigram_shift, odd_man_out,
# coordination_inversion, which alter them), the TREC questions and the
# STS16 headlines, as they stand, in that order.  One thread and a fixed
# seed make the model the same byte for byte on every run.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in past_present subj_number obj_number sentence_length word_content \
    tree_depth top_constituents; do
	cut -f3 "senteval-probing/$t.txt"
done >"$tmp/train.txt"
cut -d' ' -f2- senteval-sample/TREC/train_5500.label \
    senteval-sample/TREC/TREC_10.label >>"$tmp/train.txt"
cut -f1,2 senteval-sample/STS/STS16-en-test/STS.input.headlines.txt |
    tr '\t' '\n' >>"$tmp/train.txt"
fasttext skipgram -input "$tmp/train.txt" -output "$tmp/model" -dim 16 \
    -epoch 25 -minCount 3 -bucket 10000 -minn 3 -maxn 6 -thread 1 -seed 1 \
    -verbose 0
gzip -9n <"$tmp/model.bin" >fasttext-senteval-16d.bin.gz
