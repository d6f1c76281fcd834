#!/bin/sh
# 13-sim: emb-sim beside gensim on the bundled word2vec vocabulary: the
# similarity of 20,000 word pairs (KeyedVectors.similarity, pair by pair)
# and the word that does not match in 5,000 lines of four words
# (doesnt_match, line by line).  emb's figure is the whole pipeline
# (emb-lookup from a store built once before, as a user asking again and
# again keeps one, and emb-sim), gensim's the questions alone, timed in
# the process after the vectors were loaded; medians of SIM_RUNS runs,
# wall (cpu), and gensim's time over emb's.
set -eu
PY=/usr/bin/python3
HERE=$(cd "$(dirname "$0")" && pwd)
D=$BENCHDIR/sim
EX=$HERE/../../examples/data
mkdir -p "$D"
. "$HERE/hyperfine.sh"
RUNS=${SIM_RUNS:-5}
cd "$D"
[ -s w2v.vec ] || zcat "$EX/word2vec-googlenews-300d-13k.vec.gz" >w2v.vec
[ -s w2v.store ] || emb-lookup -q -e w2v.vec -B w2v.store
awk 'NR > 1 { w[n++] = $1 } END { for (i = 0; i < 20000; i++)
    print w[(i * 7919) % n], w[(i * 104729 + 13) % n] }' w2v.vec >pairs.txt
awk 'NR > 1 { w[n++] = $1 } END { for (i = 0; i < 5000; i++)
    print w[(i * 31) % n], w[(i * 37 + 1) % n], w[(i * 41 + 2) % n],
    w[(i * 43 + 3) % n] }' w2v.vec >lines.txt
cat >gs.py <<'PY'
import sys, time
import numpy as np
from gensim.models import KeyedVectors
m = KeyedVectors.load_word2vec_format(sys.argv[1], binary=False)
qs = [l.split() for l in open(sys.argv[2])]
odd = sys.argv[3] == "odd"
runs = int(sys.argv[4])
m.fill_norms()
w, c = [], []
for _ in range(runs):
    t0, c0 = time.perf_counter(), time.process_time()
    for q in qs:
        m.doesnt_match(q) if odd else m.similarity(q[0], q[1])
    w.append(time.perf_counter() - t0)
    c.append(time.process_time() - c0)
print("%.4f %.4f" % (np.median(w), np.median(c)))
PY
echo "seconds, medians of $RUNS runs; wall (cpu):"
show() {	# show LABEL "EMB" GENSIM-ARGS
	e=$(median_sh "$RUNS" "$2")
	a=$($PY gs.py w2v.vec $3 "$RUNS")
	$PY -c 'import sys; n = sys.argv[1]; ew, ec, aw, ac = map(float, sys.argv[2:])
print("%-32s emb %.3f (%.3f)  gensim %.3f (%.3f)  gensim / emb %.1f wall, %.1f cpu" % (n, ew, ec, aw, ac, aw / ew, ac / ec))' \
	    "$1" $e $a
}
show "similarity, 20,000 pairs" \
    "emb-lookup -q -e w2v.store pairs.txt | emb-sim >/dev/null" \
    "pairs.txt pair"
show "doesnt_match, 5,000 lines of 4" \
    "emb-lookup -q -e w2v.store lines.txt | emb-sim -o >/dev/null" \
    "lines.txt odd"
