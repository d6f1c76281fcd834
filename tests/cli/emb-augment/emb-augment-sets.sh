# emb-augment: every group holds k distinct words of one class, with their
# vectors; no k-set comes twice; K groups per class; the same seed gives
# the same stream, another seed other sets; K at and around the number of
# distinct sets (baseball has 6 words: C(6, 3) = 20 sets).
emb-cat -r "$TESTDATA/augment-words.txt" >w.emb || exit 1
emb-cat w.emb | sort -u >words.txt
# One line per group: its label then its sorted member words.
sets() {
	emb-cat "$1" | awk -F '\t' '
	    /\t#[0-9]+$/ { if (s != "") print s; n = substr($NF, 2); m = 0
		lab = $2; s = ""; w = ""; next }
	    { if ($2 != lab) print "WRONG CLASS", $1, $2
		m++; s = s == "" ? lab : s; s = s " " $1 }
	    END { if (s != "") print s }' |
	    awk '{ split($0, a, " "); n = 0
		for (i = 2; i in a; i++) b[++n] = a[i]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		    if (b[j] < b[i]) { t = b[i]; b[i] = b[j]; b[j] = t }
		s = a[1]; for (i = 1; i <= n; i++) s = s " " b[i]
		for (i = 1; i <= n; i++) if (i > 1 && b[i] == b[i-1])
		    s = s " REPEATED"
		print s; delete b }'
}
for K in 19 20 21; do
	emb-augment -k 3 -K $K -s 11 w.emb >a$K.emb 2>a$K.err || exit 1
	sets a$K.emb >s$K.txt
	echo "K=$K: $(wc -l <s$K.txt) groups," \
	    "$(sort -u s$K.txt | wc -l) distinct," \
	    "$(grep -c '^baseball' s$K.txt) baseball," \
	    "$(grep -c '^animal' s$K.txt) animal," \
	    "$(grep -c '^art' s$K.txt) art, $(grep -c '^beach' s$K.txt) beach," \
	    "$(grep -c 'REPEATED\|WRONG' s$K.txt) bad"
	cat a$K.err
done
# Members carry their own records unchanged.
emb-cat a19.emb | grep -v '#' | sort -u | comm -23 - words.txt
emb-augment -k 3 -K 19 -s 11 w.emb 2>/dev/null | cmp - a19.emb && echo "same seed: same"
emb-augment -k 3 -K 19 -s 12 w.emb 2>/dev/null | cmp -s - a19.emb || echo "seed 12: other"
emb-augment -k 3 -K 19 w.emb 2>/dev/null | cmp -s - a19.emb || echo "default seed: other"
# A large K on a large class: all groups distinct (animal, C(20,5)=15504).
emb-augment -k 5 -K 15000 w.emb 2>/dev/null >big.emb
sets big.emb | grep '^animal' | sort | uniq -d | wc -l
sets big.emb | grep -c '^animal'
