# The three-word store of emb-store(5), damaged in its search section:
# one code byte (component 0 of 'man', 127 -> 1), the norm of 'man' (1 ->
# 4) and every error bound set to NaN each gave another neighbour, or
# none, with exit 0.  The search checks the codes, scales and errors as it
# reads them: the first and the last are refused, naming the store.  It
# never reads the norms (it computes each one it needs from its checked
# row): the changed norm gives the undamaged answer, and emb-lookup -C
# names it.  In a store whose row checksums are of kind 1 (no crc32 of
# the scales and errors alone) the search reads the norms and checks them:
# there the changed norm is refused.  A changed vector byte of 'queen' is
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
emb-lookup -C -e d.store
echo "exit $?"
# Kind 1 row checksums at 1600: kind 1, bytes 20 to 23 zero, the header's
# crc32 again; undamaged, then with the norm changed.
kind1() {
	python3 -c '
import sys, zlib
b = bytearray(open(sys.argv[1], "rb").read())
h = 1600
b[h:h + 4] = (1).to_bytes(4, "little")
b[h + 20:h + 24] = bytes(4)
b[h + 60:h + 64] = zlib.crc32(bytes(b[h:h + 60])).to_bytes(4, "little")
open(sys.argv[1], "wb").write(b)' "$1" || exit 1
}
cp tiny.store k1.store
kind1 k1.store
emb-knn -k 1 k1.store q.emb
echo "exit $?"
kind1 d.store
emb-knn -k 1 d.store q.emb
echo "exit $?"
# Every error bound NaN.
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
