# fastText models (.bin): every word of the model, and with -o subword
# unknown words too, get the very floats "fasttext print-word-vectors"
# prints (compared as it prints them, tests/data/fasttext/p5.py); the gzip
# copy reads the same; a store built from the model holds the words'
# vectors; without -o subword unknown words follow the other policies.
d=$TESTDATA/fasttext
p5() { emb-cat | python3 "$d/p5.py"; }
cp "$d/model.bin" .
emb-lookup -q -e "$d/model.bin" -D | p5 | cmp - "$d/vocab.txt" &&
    echo vocabulary ok
emb-lookup -q -e "$d/model.bin.gz" -D | p5 | cmp - "$d/vocab.txt" &&
    echo gzip ok
emb-lookup -e model.bin -o subword -w <"$d/words.txt" | p5 |
    cmp - "$d/expected.txt" && echo words ok
emb-lookup -q -e "$d/model.bin.gz" -o subword -w <"$d/words.txt" | p5 |
    cmp - "$d/expected.txt" && echo gzip words ok
emb-lookup -e model.bin -B m.store
emb-lookup -q -e m.store -D | p5 | cmp - "$d/vocab.txt" && echo store ok
printf 'the xyzzy cafe\314\201 stream\n' >q.txt
emb-lookup -e model.bin -o subword q.txt | emb-cat | cut -f1
emb-lookup -e m.store q.txt | emb-cat | cut -f1
emb-lookup -e model.bin -o zero q.txt | emb-cat | cut -f1
