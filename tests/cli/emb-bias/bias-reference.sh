# emb-bias against the independent reference tests/data/bias-ref.py
# (numpy and scipy, written from the papers' formulas): every figure of
# WEAT (exact and sampled p-values, both standard deviations, bootstrap
# intervals), RND, RIPA, MAC and ECT on the bundled GloVe and word2vec
# vectors, to within 1e-9; the exact p-values against an enumeration of
# all partitions, the sampled ones against the same draws.
py=/usr/bin/python3
$py -c 'import numpy, scipy' 2>/dev/null ||
    { echo "no numpy or scipy for $py" >&2; exit 77; }
S=$EXDATA/bias
ref=$TESTDATA/bias-ref.py
emb-lookup -q -D -e "$EXDATA/glove-6B-300d-1k.txt.gz" >glove.emb || exit 1
emb-lookup -q -D -e "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" \
    >w2v.emb || exit 1
emb-cat glove.emb >glove.txt && emb-cat w2v.emb >w2v.txt || exit 1
# check VECTORS SETS PAIRS REF-OPTIONS -- EMB-BIAS-OPTIONS
check() {
	v=$1 s=$2 p=$3 o=$4
	shift 5
	emb-bias "$@" -w "$S/$s" $v.emb >got.tsv || { echo "exit $?"; return; }
	$py "$ref" $v.txt "$S/$s" "$p" got.tsv $o
}
for t in 6 7 8; do
	check glove weat$t.txt - "l=1 b=100" -- -l -b 100
done
check glove weat1.txt - "l=1 b=100 n=3000 S=population" -- \
    -l -b 100 -n 3000 -S population
check glove weat2.txt - "l=1 b=50 n=2000 tests=weat,rnd,mac,ect" -- \
    -l -b 50 -n 2000 -t weat,rnd,mac,ect
check w2v weat7.txt "$S/gender-definitional.txt" \
    "b=100 tests=weat,rnd,ripa,mac,ect" -- -t all -b 100 \
    -p "$S/gender-definitional.txt"
# Sampled where the exact test would do, so that p is not 0: another seed,
# level and standard deviation.
check w2v weat7.txt - "b=80 E=100 n=5000 s=7 c=0.9 S=population" -- \
    -b 80 -E 100 -n 5000 -s 7 -c 0.9 -S population
# RND and ECT on the vectors as they are (-U), MAC with X and A alone.
check w2v garg-occupations.txt - "b=0 U=1 tests=rnd,mac,ect" -- \
    -b 0 -U -t rnd,mac,ect
awk '$1 == "X" { $1 = "A" } $1 == "A" && $2 == "occupations" { $1 = "X" }
    $1 != "Y"' "$S/garg-occupations.txt" >mac.txt
emb-bias -b 0 -t mac -w mac.txt w2v.emb >got.tsv &&
    $py "$ref" w2v.txt mac.txt - got.tsv b=0 tests=mac
