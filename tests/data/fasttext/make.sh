#!/bin/sh
# tests/data/fasttext/make.sh - remake the fastText fixtures with Debian's
# fasttext (0.9.2): model.bin, a skipgram model of train.txt (an excerpt
# of README.md, lower-cased, and a line of accented words): 101 words,
# dimension 8, 500 buckets, n-grams of 3 to 5 characters; model.bin.gz,
# its gzip copy; what "fasttext print-word-vectors" prints for every word
# of the model (vocab.txt) and for words.txt, known and unknown words
# (expected.txt); and model.ftz, a quantized supervised model of the same
# text, which emb-lookup refuses.  tests/cli/emb-lookup/lookup-fasttext*.sh use them.
# model-v1.store is not remade here: it is the store "emb-lookup -B" built
# from model.bin before stores kept n-gram buckets (the first layout, flags
# 0), kept to show that such a store still opens.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fasttext skipgram -input train.txt -output model -dim 8 -epoch 1 \
    -minCount 2 -bucket 500 -minn 3 -maxn 5 -thread 1 -verbose 0
sed 1d model.vec | cut -d' ' -f1 | fasttext print-word-vectors model.bin \
    >vocab.txt
rm -f model.vec
gzip -9n <model.bin >model.bin.gz
fasttext print-word-vectors model.bin <words.txt >expected.txt
awk 'NF { print "__label__" (NR % 2 ? "a" : "b"), $0 }' train.txt \
    >"$tmp/sup.txt"
fasttext supervised -input "$tmp/sup.txt" -output "$tmp/sup" -dim 4 \
    -epoch 1 -bucket 100 -minn 3 -maxn 4 -thread 1 -verbose 0
fasttext quantize -input "$tmp/sup.txt" -output "$tmp/sup" -dsub 2 \
    -verbose 0
cp "$tmp/sup.ftz" model.ftz
