# emb-augment draws the same sets as the independent reference
# tests/data/augment-ref.py (written from the man page): the keys of the
# groups and members for a few k, K, fields and seeds.  Vectors are left
# out of the comparison; emb-augment-sets.sh checks that they travel.
emb-cat -r "$TESTDATA/augment-words.txt" >w.emb || exit 1
awk -F '\t' -v OFS='\t' '{ t = $1; $1 = $2; $2 = t; print }' \
    "$TESTDATA/augment-words.txt" | emb-cat -r >swapped.emb || exit 1
keys() {
	sed 's/\t[-0-9.e ]*$//'
}
for a in "2 3" "5 10" "3 7 2 1 99" "1 30" "6 1" "7 2" "3 19 2 1 5"; do
	set -- $a
	echo "== -k $1 -K $2${3:+ -l $3 -w $4 -s $5}"
	emb-augment -k "$1" -K "$2" ${3:+-l $3 -w $4 -s $5} w.emb 2>/dev/null |
	    emb-cat | keys
done
echo "== -k 4 -K 5 -l 1 -w 2 -s 3"
emb-augment -k 4 -K 5 -l 1 -w 2 -s 3 swapped.emb 2>/dev/null | emb-cat | keys
