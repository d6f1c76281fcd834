# The three-word store of emb-store(5), damaged in its search section:
# one code byte (component 0 of 'man', 127 -> 1), the norm of 'man' (1 ->
# 4) and every error bound set to NaN each gave another neighbour, or
# none, with exit 0.  The search checks the section as it reads it: each
# is refused, naming the store; and a changed vector byte of 'queen' is
# named by its row checksum.  The undamaged store answers 'man'.
printf 'king 0.5 -1\nqueen 2 0.25\nman 1 0\n' >tiny.txt
emb-lookup -q -e tiny.txt -B tiny.store || exit 1
echo man | emb-lookup -q -w -e tiny.store >q.emb || exit 1
emb-knn -k 1 tiny.store q.emb
# Codes at 256 + 64: strip 0, group 0, row l at 4 l; +128 each.
# Norms (f64) at 320 + 64 * 4, scales (f32) after, then errors.
patch() {
	cp tiny.store d.store
	printf "$2" | dd of=d.store bs=1 seek="$1" conv=notrunc 2>/dev/null
	emb-knn -k 1 d.store q.emb
	echo "exit $?"
}
patch $((320 + 8)) '\201'
patch $((576 + 16)) '\000\000\000\000\000\000\020\100'
cp tiny.store d.store
for r in 0 1 2; do
	printf '\377\377\377\177' |
	    dd of=d.store bs=1 seek=$((576 + 512 + 256 + 4 * r)) conv=notrunc \
	    2>/dev/null
done
emb-knn -k 1 d.store q.emb
echo "exit $?"
# The vectors at 64, a row of 64 bytes each: 'queen' is row 1, and with
# -k 3 every row is computed exactly.
cp tiny.store d.store
printf '\377' | dd of=d.store bs=1 seek=$((64 + 64 + 1)) conv=notrunc \
    2>/dev/null
emb-knn -k 3 tiny.store q.emb
emb-knn -k 3 d.store q.emb
echo "exit $?"
