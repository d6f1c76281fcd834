# A store built from a fastText model keeps its n-gram buckets: -o subword
# through the store (plain and gzip model) writes the very bytes the model
# itself gives, known and unknown words alike; -C checks the bucket rows
# and refuses the store with one of their bytes flipped, which still
# opens; a store of the first format (model-v1.store, without the
# buckets) opens and looks words up, and -o subword on it says why not.
d=$TESTDATA/fasttext
p5() { emb-cat | python3 "$d/p5.py"; }
cp "$d/model.bin" "$d/model.bin.gz" "$d/model-v1.store" .
emb-lookup -q -e model.bin -B m.store
emb-lookup -q -e model.bin.gz -B mz.store
cmp m.store mz.store && echo gzip store same
emb-lookup -C -e m.store
emb-lookup -q -e model.bin -o subword -w <"$d/words.txt" >bin.out
emb-lookup -q -e m.store -o subword -w <"$d/words.txt" >store.out
cmp bin.out store.out && echo words same
p5 <store.out | cmp - "$d/expected.txt" && echo words ok
printf 'the xyzzy cafe\314\201 stream\n\nq\n' >q.txt
emb-lookup -q -e model.bin -o subword q.txt >bin.out
emb-lookup -q -e mz.store -o subword q.txt >store.out
cmp bin.out store.out && echo lines same
emb-lookup -q -e m.store -D | p5 | cmp - "$d/vocab.txt" && echo vocabulary ok
# A byte of the last bucket row's first float: past the two headers, 101
# word rows and 499 bucket rows of 16 floats.
off=$((128 + 101 * 64 + 499 * 64 + 2))
dd if=m.store bs=1 count="$off" 2>/dev/null >bad.store
printf '\177' >>bad.store
tail -c +$((off + 2)) m.store >>bad.store
cmp -s m.store bad.store || echo flipped
emb-lookup -C -e bad.store; echo "exit $?"
echo the | emb-lookup -q -e bad.store | emb-cat | cut -f1
emb-lookup -C -e model-v1.store
emb-lookup -q -e model-v1.store -D | p5 | cmp - "$d/vocab.txt" && echo v1 ok
echo the | emb-lookup -e model-v1.store -o subword; echo "exit $?"
