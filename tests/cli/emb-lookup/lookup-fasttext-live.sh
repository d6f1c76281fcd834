# With the fasttext program at hand: a model trained now, with other
# settings than the fixture's (n-grams of 2 to 4 characters, 300 buckets,
# dimension 5, a cbow model), gives every word and unknown words the
# vectors "fasttext print-word-vectors" prints, plain and through a store.
command -v fasttext >/dev/null 2>&1 ||
    { echo "fasttext not installed" >&2; exit 77; }
d=$TESTDATA/fasttext
fasttext cbow -input "$d/train.txt" -output m -dim 5 -epoch 2 -minCount 1 \
    -bucket 300 -minn 2 -maxn 4 -thread 1 -verbose 0 || exit 1
{ sed 1d m.vec | cut -d' ' -f1; cat "$d/words.txt"; echo zq; } >w.txt
fasttext print-word-vectors m.bin <w.txt >expected.txt
emb-lookup -q -e m.bin -o subword -w <w.txt | emb-cat |
    python3 "$d/p5.py" | cmp - expected.txt && echo model ok
emb-lookup -q -e m.bin -B m.store
emb-lookup -q -e m.store -w <w.txt | emb-cat | python3 "$d/p5.py" >got.txt
grep -F -x -f got.txt expected.txt | cmp - got.txt && echo store ok
