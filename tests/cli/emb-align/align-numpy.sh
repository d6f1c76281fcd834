# The fastText sample mapped onto the word2vec sample (examples/scripts/
# align.sh: 80 % of the shared words fit, 20 % test) against an
# independent NumPy Procrustes (tests/data/align-ref.py, which reads the
# .vec.gz files itself): the map to 1e-6, the 10 words retrieved for
# each test word by cosine and by CSLS exactly (emb-eval -L and emb-knn
# --csls), the P@k figures, and the mutual nearest neighbours
# (emb-knn --mutual).
py=/usr/bin/python3
$py -c 'import numpy' 2>/dev/null || {
	echo "python3 with numpy is not installed" >&2; exit 77; }
top=$TESTDATA/../..
src=$EXDATA/fasttext-en-300d-2k.vec.gz
tgt=$EXDATA/word2vec-googlenews-300d-13k.vec.gz
sh "$top/examples/scripts/align.sh" "$src" "$tgt" 1 o || exit 1
cat o/split.tsv
for cfg in unit,center,unit; do
	echo "-- $cfg"
	emb-eval -T "$cfg" -L o/test.txt -R "o/$cfg.tgt.emb" \
	    --predictions "$cfg.pred" "o/$cfg.src.emb" >/dev/null || exit 1
	$py "$TESTDATA/align-ref.py" "$src" "$tgt" o/train.txt o/test.txt \
	    "o/$cfg.model" "$cfg" >ref.txt || exit 1
	head -n 1 ref.txt
	grep -v '	P@' ref.txt | grep -v '^mutual' | sed 1d >ref.pred
	cmp -s ref.pred "$cfg.pred" && echo "retrieved words: equal"
	wc -l <ref.pred
	grep '	P@' ref.txt >ref.p
	awk -F '\t' -v c="$cfg" '$1 == c && $3 !~ /all/ && $2 != "bli" {
	    print $2 "\t" $3 "\t" $4 }' o/results.tsv | cmp -s - ref.p &&
	    echo "P@k: equal"
	# emb-knn --csls on the whole mapped source, the test words kept.
	emb-knn --csls 10 -k 10 "o/$cfg.tgt.emb" "o/$cfg.src.emb" |
	    awk -F '\t' 'NR == FNR { split($0, f, " "); t[++n] = f[1]; next }
		{ l[$1] = l[$1] ($2 > 1 ? " " : "") $3 }
		END { for (i = 1; i <= n; i++) print "csls\t" t[i] "\t" l[t[i]] }' \
	    o/test.txt - >knn.csls
	grep '^csls' ref.pred | cmp -s - knn.csls &&
	    echo "emb-knn --csls: equal"
	emb-knn --mutual -k 1 "o/$cfg.tgt.emb" "o/$cfg.src.emb" |
	    awk -F '\t' '{ print "mutual\t" $1 "\t" $3 }' >knn.mutual
	grep '^mutual' ref.txt | cmp -s - knn.mutual &&
	    echo "emb-knn --mutual: equal"
	wc -l <knn.mutual
done
