# fastText reads what emb-cat -f vec writes: the vectors, as pretrained
# vectors of a supervised model trained with learning rate 0, come back
# unchanged from fasttext print-word-vectors.  Skipped where Debian's
# fasttext is not installed.
command -v fasttext >/dev/null 2>&1 ||
    { echo "fasttext is not installed" >&2; exit 77; }
printf 'king\tr\t0.5 -0.25 1 2\nqueen\tr\t0.125 0.75 -1 3\napple\tf\t1.5 0 0.25 -0.5\n' |
    emb-cat -r >w.emb || exit 1
emb-cat -f vec -o w.vec w.emb || exit 1
printf '__label__r king queen\n__label__f apple\n' >t.txt
fasttext supervised -input t.txt -output m -dim 4 -pretrainedVectors w.vec \
    -epoch 1 -lr 0 -minCount 1 -thread 1 -verbose 0 || exit 1
printf 'king\nqueen\napple\n' | fasttext print-word-vectors m.bin
