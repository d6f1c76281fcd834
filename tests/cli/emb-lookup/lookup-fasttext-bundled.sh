# The bundled fastText model (examples/data/fasttext-senteval-16d.bin.gz,
# see examples/data/README.md) is a real one: for the words of a few
# bundled questions, known and unknown, and some misspellings, emb-lookup
# reading it gzip-compressed gives the vectors "fasttext
# print-word-vectors" prints from the model.
command -v fasttext >/dev/null 2>&1 ||
    { echo "fasttext not installed" >&2; exit 77; }
m=$EXDATA/fasttext-senteval-16d.bin.gz
gzip -dc "$m" >m.bin
{ head -20 "$EXDATA/senteval-sample/TREC/TREC_10.label" | cut -d' ' -f2- |
    tr ' ' '\n'; printf '%s\n' colourr questiom Einstien zzqx; } |
    grep . | awk '!seen[$0]++' >w.txt
echo "$(wc -l <w.txt) words"
fasttext print-word-vectors m.bin <w.txt >expected.txt
emb-lookup -e "$m" -o subword -w <w.txt 2>err.txt | emb-cat |
    python3 "$TESTDATA/fasttext/p5.py" | cmp - expected.txt && echo same
sed 's/^emb-lookup: [^:]*: //' err.txt
