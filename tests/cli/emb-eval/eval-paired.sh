# emb-eval --versus: two representations of the same items compared, each
# figure checked against an independent computation in Python
# (eval-paired-check.py): McNemar against scipy's exact binomial test, the
# macro-F1 permutation test against an enumeration of every swap (exact
# case) and against the documented draws redone (random case), the
# bootstrap intervals and p-values of accuracy, macro-F1 and of the STS
# and word-similarity correlations (pooled, mean, wmean) redone with
# scipy's pearsonr and spearmanr, Williams' test with scipy's t.
py=/usr/bin/python3
$py -c 'import numpy, scipy' 2>/dev/null || {
	echo "no numpy and scipy for $py (python3-scipy)" >&2
	exit 77
}
check=$(dirname "$0")/eval-paired-check.py
# The second representation: every component moved by a fixed amount.
move() {
	awk -F '\t' -v OFS='\t' '{ n = split($NF, v, " "); s = ""
	    for (i = 1; i <= n; i++)
		s = s (i > 1 ? " " : "") v[i] + 0.8 * sin(7 * NR + 3 * i)
	    $NF = s; print }' "$1"
}
emb-cat -r "$TESTDATA/eval-train.txt" >a.emb || exit 1
move "$TESTDATA/eval-train.txt" >b.txt
emb-cat -r b.txt >b.emb || exit 1
# Cross-validation: the pooled out-of-fold predictions; 300 random
# permutations and bootstrap samples.
emb-eval -k 3 -c centroid,knn --versus b.emb --resamples 300 \
    --predictions pred.txt -T t a.emb >out.txt || exit 1
$py "$check" clf out.txt pred.txt "$TESTDATA/eval-train.txt" 300
# Few enough discordant rows for every swap to be counted.
emb-eval -k 3 -c centroid,knn --versus b.emb --resamples 100000 \
    --predictions pred2.txt -T t a.emb >out2.txt || exit 1
$py "$check" exact out2.txt pred2.txt "$TESTDATA/eval-train.txt"
# The figures of each representation are those of its own run.
emb-eval -k 3 -c knn -T t b.emb | sed 's,^t,t/b,' >b.out
grep -F -f b.out out.txt | wc -l
wc -l <b.out
# STS: two streams per representation, subsets in key field 1.
for s in a b; do
	emb-cat -r "$TESTDATA/sts-$s.txt" >s$s.emb || exit 1
	move "$TESTDATA/sts-$s.txt" >s2$s.txt
	emb-cat -r s2$s.txt >s2$s.emb || exit 1
done
emb-eval -u 1 -p sb.emb -g "$TESTDATA/sts-gold.txt" --versus s2a.emb \
    --versus-second s2b.emb --resamples 200 -T sts sa.emb >sts.txt || exit 1
$py "$check" corr sts.txt "$TESTDATA/sts-a.txt" "$TESTDATA/sts-b.txt" \
    s2a.txt s2b.txt "$TESTDATA/sts-gold.txt" 1 200
# Word similarity: on the pairs both vocabularies know.
move "$TESTDATA/ws-words.txt" >w2.txt
emb-cat -r "$TESTDATA/ws-words.txt" >w.emb || exit 1
emb-cat -r w2.txt >w2.emb || exit 1
emb-eval -w "$TESTDATA/ws-pairs.txt" --versus w2.emb --resamples 200 \
    -T ws w.emb >ws.txt || exit 1
$py "$check" words ws.txt "$TESTDATA/ws-words.txt" w2.txt \
    "$TESTDATA/ws-pairs.txt" 200
