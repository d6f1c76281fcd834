# emb-eval: -j changes who computes, never what.  Rows are cut into lanes
# by the row count alone and partial sums are added in lane order, so one,
# two and three threads give the same figures and predictions, byte for
# byte, on real data (SEMCAT x word2vec, about 1,500 training rows), with a
# test stream and with cross-validation.  At this size only kNN's
# similarities are worth threads; test_classify.c forces them on every
# step.
zcat "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" |
    awk -v min=50 -f "$TESTDATA/semcat.awk" "$EXDATA"/semcat/Categories/*.txt - \
    >semcat.txt || exit 1
awk -F '\t' '$2 == "train"' semcat.txt | emb-cat -r >train.emb || exit 1
awk -F '\t' '$2 == "test"' semcat.txt | emb-cat -r >test.emb || exit 1
emb-cat -r semcat.txt >all.emb || exit 1
for j in 1 2 3; do
	emb-eval -j $j --predictions pred$j.txt -t test.emb train.emb \
	    >out$j.txt || exit 1
	emb-eval -j $j -k 3 -c ridge,logreg all.emb >cv$j.txt || exit 1
done
for j in 2 3; do
	cmp out1.txt out$j.txt && cmp pred1.txt pred$j.txt &&
	    cmp cv1.txt cv$j.txt && echo "-j $j: same as -j 1"
done
grep accuracy out1.txt
