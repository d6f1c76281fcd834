# fastText models refused: quantized (.ftz), cut short (plain, gzip,
# through a pipe), a byte too long, another version; -o subword without a
# model or a store built from one; each exits 1 naming the file.
d=$TESTDATA/fasttext
cp "$d/model.ftz" "$d/model.bin" .
emb-lookup -e model.ftz -D; echo "exit $?"
head -c 5000 model.bin >cut.bin
emb-lookup -e cut.bin -D; echo "exit $?"
head -c 5000 model.bin | emb-lookup -e - -D; echo "exit $?"
head -c 300 model.bin | emb-lookup -e - -D; echo "exit $?"
head -c 20000 model.bin | gzip >cut.bin.gz
emb-lookup -e cut.bin.gz -D; echo "exit $?"
head -c 4000 "$d/model.bin.gz" >cutz.bin.gz
emb-lookup -e cutz.bin.gz -D; echo "exit $?"
{ cat model.bin; printf x; } >long.bin
emb-lookup -e long.bin -D; echo "exit $?"
{ head -c 4 model.bin; printf '\013\0\0\0'; tail -c +9 model.bin; } >v11.bin
emb-lookup -e v11.bin -D; echo "exit $?"
cp "$TESTDATA/lookup/tiny.vec" .
emb-lookup -q -e tiny.vec -B m.store
echo the | emb-lookup -e m.store -o subword; echo "exit $?"
echo the | emb-lookup -e tiny.vec -o subword; echo "exit $?"
