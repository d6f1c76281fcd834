# semcat.awk - SEMCAT categories and a word2vec text file to the text view
# of emb(5) (emb-cat -r reads it): one line per (category, word) covered by
# the vectors, keyed "category<TAB>split<TAB>word".
#
#   zcat vectors.vec.gz | awk -v min=50 -f semcat.awk Categories/*.txt -
#
# A category is the file name without "-<count>.txt"; a word repeated in a
# category counts once.  Categories with fewer than min covered words are
# dropped.  In each kept category the covered words, in file order, go to
# train and test alternately (first train): the paper's 50/50 split.
FILENAME != "-" {
	cat = FILENAME
	sub(/.*\//, "", cat)
	sub(/-[0-9]+\.txt$/, "", cat)
	if (!(cat in ncat)) {
		order[++ncats] = cat
		ncat[cat] = 0
	}
	w = $1
	if (w == "" || (cat SUBSEP w) in seen)
		next
	seen[cat SUBSEP w] = 1
	word[cat, ++ncat[cat]] = w
	want[w] = 1
	next
}
FNR == 1 && NF == 2 { next }	# the word2vec header
($1 in want) && !($1 in vec) {
	v = $2
	for (i = 3; i <= NF; i++)
		v = v " " $i
	vec[$1] = v
}
END {
	for (c = 1; c <= ncats; c++) {
		cat = order[c]
		n = 0
		for (i = 1; i <= ncat[cat]; i++)
			if (word[cat, i] in vec)
				n++
		if (n < min)
			continue
		k = 0
		for (i = 1; i <= ncat[cat]; i++) {
			w = word[cat, i]
			if (!(w in vec))
				continue
			printf "%s\t%s\t%s\t%s\n", cat, k++ % 2 ? "test" : \
			    "train", w, vec[w]
		}
	}
}
