# The hard-debias recipe of emb-bias(1): the gender direction fitted by
# emb-normalize -F on the definitional pairs' differences (emb-bias -D),
# removed from every vector by emb-normalize -M.  Along that direction the
# words project clearly before (RIPA of at least 0.05 for some) and not at
# all after (below 1e-6, float32 rounding), and the direction emb-bias
# fits itself from the pairs is the model's to within float32 rounding.
S=$EXDATA/bias
emb-lookup -q -D -e "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" |
    emb-normalize -q >unit.emb || exit 1
# One pair has a word the 13k words lack: it is dropped, and named.
emb-bias -D -p "$S/gender-definitional.txt" unit.emb >diff.emb \
    2>dropped.txt || exit 1
sed "s|$S/||" dropped.txt
emb-cat diff.emb | cut -f1,2
emb-normalize -q -F gender.model -r 1 diff.emb || exit 1
emb-normalize -q -M gender.model -l unit.emb >debiased.emb || exit 1
# The largest |RIPA| of a sets file's words along the model's direction
# (half of the equalize pairs' words are in the 13k words: -m 0.4).
ripa() {
	emb-bias -q -t ripa -b 0 -m 0.4 -d gender.model -w "$S/$1" "$2" |
	    awk -F '\t' -v what="$1 $3" '$3 ~ /^word:/ {
		n++; a = $4 < 0 ? -$4 : $4; if (a > m) m = a }
	    END { r = m >= 0.05 ? "at least 0.05" : \
		(m < 1e-6 ? "below 1e-6" : m)
		printf "%s: %d words, |RIPA| %s\n", what, n, r }'
}
for s in weat7.txt gender-definitional.txt gender-equalize.txt; do
	ripa $s unit.emb before
	ripa $s debiased.emb after
done
# emb-bias's own direction (double precision, from the pairs) against the
# model's (float32 differences), signed as its largest component: |RIPA|
# of the same words within 1e-5.
emb-bias -q -t ripa -b 0 -p "$S/gender-definitional.txt" \
    -w "$S/weat7.txt" unit.emb | grep word: | cut -f3,4 | sort >own.tsv
emb-bias -q -t ripa -b 0 -d gender.model -w "$S/weat7.txt" unit.emb |
    grep word: | cut -f3,4 | sort >model.tsv
join -t "$(printf '\t')" own.tsv model.tsv |
    awk -F "\t" '{ a = $2 < 0 ? -$2 : $2; b = $3 < 0 ? -$3 : $3
	d = a - b; if (d < 0) d = -d; if (d > m) m = d }
	END { print (NR == 32 && m < 1e-5) ? "same direction" : "differ " m }'
