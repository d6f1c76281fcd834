# 3CosMul analogies (emb-knn -A --cosmul) against gensim's
# most_similar_cosmul(positive=[b, c], negative=[a]) on the bundled
# word2vec vectors: the same five words for every question, in the same
# order, and the same scores (gensim's float32 arithmetic, to 1e-5).
py=/usr/bin/python3
$py -c 'import gensim' 2>/dev/null || {
	echo "python3 with gensim is not installed" >&2; exit 77; }
gzip -dc "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" >w2v.txt
awk 'NR > 1 { w = $1; gsub(/\\/, "\\\\", w); $1 = ""; sub(/ +$/, "");
    print w "\t" substr($0, 2) }' w2v.txt | emb-cat -r >ref.emb || exit 1
awk -v Q="$TESTDATA/knn-questions.txt" -f "$TESTDATA/knn-questions.awk" \
    w2v.txt | emb-cat -r >q.emb || exit 1
emb-knn -A --cosmul -k 5 ref.emb <q.emb 2>/dev/null >emb.txt || exit 1
$py - "$TESTDATA/knn-questions.txt" <<'PYEOF' >gensim.txt || exit 1
import sys
from gensim.models import KeyedVectors
kv = KeyedVectors.load_word2vec_format("w2v.txt", binary=False)
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == ":":
        sect = f[1]
        continue
    # The group's members: the known words in order, as emb-lookup gives.
    known = [w for w in f if w in kv.key_to_index]
    if len(known) < 3:
        continue
    a, b, c = known[:3]
    for r, (w, s) in enumerate(kv.most_similar_cosmul(
            positive=[b, c], negative=[a], topn=5)):
        print("%s\t%s\t%d\t%s\t%.9g" % (sect, " ".join(f), r + 1, w, s))
PYEOF
wc -l <gensim.txt
cut -f 1-4 emb.txt | cmp -s - "$(cut -f 1-4 gensim.txt >g4.txt; echo g4.txt)" &&
    echo "words: equal"
paste emb.txt gensim.txt | awk -F '\t' '{ d = $5 - $10; if (d < 0) d = -d
    if (d > 1e-5 * $10) bad++ } END { print "scores within 1e-5:", bad + 0 == 0 }'
echo "== report"
emb-knn -R --cosmul -g 1 ref.emb <q.emb
echo "== misuse"
emb-knn --cosmul ref.emb <q.emb >/dev/null 2>&1;	echo "without -A: $?"
