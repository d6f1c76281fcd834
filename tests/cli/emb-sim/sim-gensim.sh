# emb-sim against gensim on the bundled word2vec vectors: every pair's
# cosine equals KeyedVectors.similarity (gensim's float32 arithmetic, to
# 1e-6), and the member that does not match equals doesnt_match for each
# line of words (lines whose two lowest cosines to the mean are within
# 1e-6 are left out: float32 decides those in gensim).
py=/usr/bin/python3
$py -c 'import gensim' 2>/dev/null || {
	echo "python3 with gensim is not installed" >&2; exit 77; }
gzip -dc "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" >w2v.txt
# Lines of 2 to 6 words of the vocabulary, spread over it.
awk 'NR > 1 { w[n++] = $1 } END { for (i = 0; i < 300; i++) { l = "";
    k = 2 + i % 5; for (j = 0; j < k; j++) l = l (j ? " " : "") \
    w[(i * 37 + j * 1009) % n]; print l } }' w2v.txt >lines.txt
emb-lookup -q -e w2v.txt lines.txt >g.emb || exit 1
emb-sim g.emb >pairs.txt || exit 1
emb-sim -o g.emb >odd.txt || exit 1
$py - <<'PYEOF'
import numpy as np
from gensim.models import KeyedVectors
kv = KeyedVectors.load_word2vec_format("w2v.txt", binary=False)
lines = [l.split() for l in open("lines.txt")]
bad = n = 0
for l in open("pairs.txt"):
    key, a, b, c = l.rstrip("\n").split("\t")
    n += 1
    if abs(float(c) - float(kv.similarity(a, b))) > 1e-6:
        bad += 1
        print("pair", key, a, b, c, kv.similarity(a, b))
print("pairs: %d, %d differ" % (n, bad))
odd = {}
for l in open("odd.txt"):
    key, w, c = l.rstrip("\n").split("\t")
    odd[int(key)] = w
bad = n = skipped = 0
for i, words in enumerate(lines, 1):
    v = np.array([kv.get_vector(w, norm=True) for w in words])
    m = v.mean(0)
    d = np.sort(v @ (m / np.linalg.norm(m)))
    if len(d) > 1 and d[1] - d[0] < 1e-6:
        skipped += 1
        continue
    n += 1
    if odd[i] != kv.doesnt_match(words):
        bad += 1
        print("odd", i, words, odd[i], kv.doesnt_match(words))
print("odd: %d lines, %d differ, %d near ties left out" % (n, bad, skipped))
PYEOF
