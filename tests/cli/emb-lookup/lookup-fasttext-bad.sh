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
# n-gram lengths fastText's options never make are refused: a maxn of
# 2^31-1 made one 50,000-byte token cost seconds (its length times maxn),
# a negative maxn or minn reads otherwise in fastText (compared unsigned:
# no limit, no n-grams), and lengths over 32 are out of range.
le32() {
	n=$1
	[ "$n" -lt 0 ] && n=$((n + 4294967296))
	for i in 0 1 2 3; do
		printf "\\$(printf %03o $(((n >> (8 * i)) & 255)))"
	done
}
awk 'BEGIN { while (n++ < 50000) printf "a"; print "" }' >long.txt
for mm in '3 2147483647' '3 -1' '-1 6' '3 33'; do
	set -- $mm
	{ head -c 44 model.bin; le32 $1; le32 $2; tail -c +53 model.bin; } \
	    >ng.bin
	(ulimit -t 10; emb-lookup -q -e ng.bin -o subword long.txt)
	echo "minn $1, maxn $2: exit $?"
done
