# One limit on key field numbers (and counts of fields) in every program:
# 1000000 is taken, 1000001 is a usage error.
for o in "emb-augment -k 1 -K 1 -l" "emb-augment -k 1 -K 1 -w" "emb-bov -k" \
    "emb-cat -g" "emb-cat -g 1 -G" "emb-cat -w" \
    "emb-eval -f" "emb-eval -i" "emb-eval -l" "emb-eval -s" "emb-eval -u" \
    "emb-knn -c" "emb-knn -A -e" "emb-knn -A -g" "emb-knn -q" "emb-knn -w" \
    "emb-knn -x" "emb-knnmerge -f" "emb-lookup -e v -f" "emb-ose -D" \
    "emb-pair -i" "emb-split -n 2 -k"; do
	$o 1000001 </dev/null >/dev/null
	echo "$o 1000001: exit $?"
done
# The largest is taken: the field is missing, not out of range.
printf 'a\t1\n' | emb-cat -r >a.emb || exit 1
emb-split -n 2 -k 1000000 -o p%d a.emb
echo "emb-split -k 1000000: exit $?"
printf 'a\tx\t1\n' | emb-cat -r | emb-augment -k 1 -K 1 -w 1000000 >/dev/null
echo "emb-augment -w 1000000: exit $?"
