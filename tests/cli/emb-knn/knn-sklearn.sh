# emb-knn's neighbour lists equal scikit-learn's brute-force cosine
# NearestNeighbors (float64) on real vectors: the first 300 words of the
# bundled GloVe 100d file as references, every 15th of them as a query,
# k = 5.  The expected lists were written by
#   tests/bench/knn-sklearn.py fixture \
#       examples/data/glove-6B-100d-2.6k.txt.gz 5 300 15
# (no exact ties in this slice).
gzip -dc "$EXDATA/glove-6B-100d-2.6k.txt.gz" | head -300 |
    awk '{ w = $1; gsub(/\\/, "\\\\", w); $1 = ""; print w "\t" substr($0, 2) }' \
    >ref.txt
emb-cat -r <ref.txt >ref.emb || exit 1
awk 'NR % 15 == 1' ref.txt | emb-cat -r >q.emb || exit 1
emb-knn -k 5 ref.emb <q.emb >out || exit 1
cut -f 1-3 out
# Distances are cosine distances: in [0, 2], self at 0.
awk -F '\t' '$4 < 0 || $4 > 2 || ($2 == 1 && $4 > 1e-6) { print "bad: " $0 }' out
