# A key the program makes from its input (a field appended, a group key
# joined to a member's, a word escaped) that would pass the 1 MiB limit
# is the input's fault: the message names the input and its record or
# line, not the output.  So is a model that makes a component non-finite.
# long N: N k's.
long() {
	awk -v n="$1" 'BEGIN { s = "k"; while (length(s) < n) s = s s
		printf "%s", substr(s, 1, n) }'
}
printf '%s\t1 0\n' "$(long 1048576)" | emb-cat -r >full.emb || exit 1
emb-ose -q -s full.emb >/dev/null;		echo "emb-ose -s: $?"
emb-ose -q -a full.emb >/dev/null;		echo "emb-ose -a: $?"
emb-bov -q -s full.emb >/dev/null;		echo "emb-bov -s: $?"
printf 'r\t1 0\n' | emb-cat -r >ref.emb
printf '%s\t#1\nx\t1 0\n' "$(long 1048575)" | emb-cat -r >grp.emb || exit 1
emb-knn -b -k 1 ref.emb <grp.emb >/dev/null;	echo "emb-knn -b: $?"
printf 'w\t%s\t1 0\nv\t%s\t1 0\n' "$(long 1048574)" "$(long 1048574)" |
    emb-cat -r >lab.emb || exit 1
emb-augment -k 2 -K 1 lab.emb >/dev/null;	echo "emb-augment: $?"
cp "$TESTDATA/lookup/tiny.vec" .
# Backslashes double when escaped into a key.
bs=$(long 600000 | tr k '\\')
printf 'the %s\n' "$bs" | emb-lookup -q -e tiny.vec -o zero >/dev/null
echo "emb-lookup -o zero: $?"
printf '%s\tthe\n' "$bs" | emb-lookup -q -e tiny.vec -f 1 >/dev/null
echo "emb-lookup -f 1: $?"
printf 'a\t1 2\n' | emb-cat -r >a.emb
printf 'emb-pca 1\ndim 2\ncenter 1\ncount 1\nncomp 0\nmean -1e308 1e308\n' \
    >huge.pca
emb-normalize -q -M huge.pca a.emb >/dev/null;	echo "emb-normalize -M: $?"
