# emb-eval -r against an independent transcription of trec_eval's
# measures (tests/data/retrieval-ref.py: cosines by numpy in float64, the
# ranking and P, recall, recip_rank, map_cut and ndcg_cut redone from
# trec_eval's sources), every query's figures to 1e-12, on real data: the
# corpus is the bundled word2vec vocabulary (13,598 words), the queries
# the SEMCAT category names it holds, and a category's words are
# relevant to its name, every third word of its file with grade 2 and the
# others 1 (words the vocabulary lacks stay judged: they count as
# relevant documents never retrieved); three words of the next category
# are judged 0 and one -1, unless the category holds them.  Beside them:
# a query judged but with no relevant document, a zero query vector, a
# judged query without a vector and query records without judgments.
# Cutoffs up to 1000.  The same
# judgments in three columns give the same lines.
py=/usr/bin/python3
$py -c 'import numpy' 2>/dev/null || {
	echo "no numpy for $py (python3-numpy)" >&2
	exit 77
}
emb-lookup -q -e "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" -D \
    >corpus.emb || exit 1
emb-cat -N corpus.npy corpus.emb >corpus.keys || exit 1
awk -v OFS=' ' '
FNR == 1 {
	cat = FILENAME
	sub(/.*\//, "", cat)
	sub(/-[0-9]+\.txt$/, "", cat)
	order[++ncat] = cat
}
$1 != "" && !((cat SUBSEP $1) in has) {
	has[cat, $1] = 1
	w[cat, ++n[cat]] = $1
}
END {
	for (c = 1; c <= ncat; c++) {
		q = order[c]
		nx = order[c % ncat + 1]
		for (i = 1; i <= n[q]; i++)
			print q, 0, w[q, i], i % 3 == 1 ? 2 : 1
		for (i = 1; i <= 4 && i <= n[nx]; i++)
			if (!((q SUBSEP w[nx, i]) in has))
				print q, 0, w[nx, i], i == 4 ? -1 : 0
	}
	print "the", 0, "cat", 0
	print "the", 0, "dog", 0
	print "q:zero", 0, "cat", 1
	print "nosuchquery", 0, "cat", 1
}' "$EXDATA"/semcat/Categories/*.txt >qrels.txt
# The queries: the category names the vocabulary holds, "the" (no
# relevant document), "king" and "queen" (not judged) and a zero vector.
cut -d' ' -f1 qrels.txt | sort -u >judged.txt
emb-cat corpus.emb | awk -F '\t' '
NR == FNR { want[$1] = 1; next }
FNR == 1 { z = $2; gsub(/[^ ]+/, "0", z); print "q:zero\t" z }
($1 in want) || $1 == "king" || $1 == "queen"' judged.txt - |
    emb-cat -r >queries.emb || exit 1
emb-cat -N queries.npy queries.emb >queries.keys || exit 1
cuts=1,5,10,100,1000
emb-eval -r qrels.txt -K $cuts --per-query perq.txt -T semcat corpus.emb \
    queries.emb >out.txt 2>err.txt || echo "emb-eval: exit $?"
$py "$TESTDATA/retrieval-ref.py" -K $cuts qrels.txt corpus.npy corpus.keys \
    queries.npy queries.keys perq.txt out.txt
grep -v '@' out.txt
cat err.txt
# Three columns: the same lines.
awk '{ print $1, $3, $4 }' qrels.txt >qrels3.txt
emb-eval -r qrels3.txt -K $cuts --per-query perq3.txt -T semcat \
    corpus.emb queries.emb >out3.txt 2>/dev/null
cmp -s out.txt out3.txt && cmp -s perq.txt perq3.txt &&
    echo "three columns: the same figures"
