#!/bin/sh
# 12-csls-cosmul: the two scores beside the cosine, against what a user
# would run instead, on the bundled vectors: CSLS (k = 10 neighbours each
# way, 10 listed) of the bundled fastText words against the word2vec
# vocabulary, beside numpy (the mean similarities and the scores from one
# product, the best by argpartition, as MUSE computes them); and 3CosMul
# analogies (questions made of the vocabulary's own words), beside
# gensim's most_similar_cosmul, question by question.  emb's figure is
# the whole process (start-up and reading its streams included), the
# anchors' the computation alone, timed in the process after the vectors
# were loaded (so the comparison leans towards the anchors); each the
# median of CSLS_RUNS runs, CPU seconds beside the wall.  The last column
# is the anchor's time over emb's (the bars: 3 for CSLS, 5 for 3CosMul).
# Each anchor's answers are compared with emb's first.
set -eu
PY=/usr/bin/python3
HERE=$(cd "$(dirname "$0")" && pwd)
D=$BENCHDIR/csls
EX=$HERE/../../examples/data
mkdir -p "$D"
. "$HERE/hyperfine.sh"
RUNS=${CSLS_RUNS:-5}
NQ=${CSLS_QUESTIONS:-200}
T=${CSLS_THREADS:-2}
export OMP_NUM_THREADS=$T OPENBLAS_NUM_THREADS=$T BLIS_NUM_THREADS=$T
cd "$D"
[ -s w2v.vec ] || zcat "$EX/word2vec-googlenews-300d-13k.vec.gz" >w2v.vec
[ -s ft.vec ] || zcat "$EX/fasttext-en-300d-2k.vec.gz" >ft.vec
emb-lookup -q -e w2v.vec -D >t.emb
emb-lookup -q -e ft.vec -D >q.emb
# Questions a : b :: c : ?, words of the vocabulary in turn.
awk -v n="$NQ" 'NR > 1 && NR <= 3 * n + 1 { w[NR - 2] = $1 }
    END { for (i = 0; i + 2 < 3 * n; i += 3)
	print "q" i / 3 "\t" w[i], w[i + 1], w[i + 2] }' w2v.vec >questions.txt
nt=$(($(wc -l <w2v.vec) - 1))
nq=$(($(wc -l <ft.vec) - 1))
# A group a question, its members a, b and c (emb-lookup's sentences).
emb-lookup -q -e w2v.vec <questions.txt >abc.emb

cat >csls.py <<'PY'
import sys, time
import numpy as np
def load(p):
    with open(p, encoding="utf-8") as f:
        n, d = map(int, f.readline().split())
        w, v = [], np.empty((n, d), dtype=np.float32)
        for i, line in enumerate(f):
            p = line.rstrip("\n").split(" ")
            w.append(p[0])
            v[i] = np.asarray(p[1:d + 1], dtype=np.float32)
    return w, v
qw, q = load(sys.argv[1])
tw, t = load(sys.argv[2])
k = int(sys.argv[3])
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 0
def csls(q, t):
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    t = t / np.linalg.norm(t, axis=1, keepdims=True)
    s = q @ t.T
    rq = np.partition(s, -k, axis=1)[:, -k:].mean(1)
    rt = np.partition(s, -k, axis=0)[-k:, :].mean(0)
    c = 2 * s - rq[:, None] - rt[None, :]
    top = np.argpartition(-c, k, axis=1)[:, :k]
    return [top[i][np.argsort(-c[i, top[i]], kind="stable")]
            for i in range(len(q))]
if runs:
    w, c = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        csls(q, t)
        w.append(time.perf_counter() - t0)
        c.append(time.process_time() - c0)
    print("%.4f %.4f" % (np.median(w), np.median(c)))
else:
    top = csls(q, t)
    sys.stdout.write("".join("%s\t%s\n" % (qw[i], " ".join(tw[j]
        for j in top[i])) for i in range(len(qw))))
PY
cat >cosmul.py <<'PY'
import sys, time
import numpy as np
from gensim.models import KeyedVectors
m = KeyedVectors.load_word2vec_format(sys.argv[1], binary=False)
k = int(sys.argv[3])
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 0
qs = [line.split("\t")[1].split() for line in open(sys.argv[2])]
def ask():
    return [m.most_similar_cosmul(positive=[b, c], negative=[a], topn=k)
            for a, b, c in qs]
if runs:
    ask()	# gensim normalizes the vectors once, at the first question
    w, c = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        ask()
        w.append(time.perf_counter() - t0)
        c.append(time.process_time() - c0)
    print("%.4f %.4f" % (np.median(w), np.median(c)))
else:
    for r in ask():
        print(" ".join(w for w, _ in r))
PY

# The same answers first: CSLS's 10 neighbours of each word (ties aside,
# which numpy's float32 product may order otherwise), 3CosMul's 5.
emb-knn -j "$T" --csls 10 -k 10 t.emb q.emb |
    awk -F '\t' '{ if ($1 != w) { if (w != "") print w "\t" l; w = $1; l = $3 }
	else l = l " " $3 } END { print w "\t" l }' | LC_ALL=C sort >emb-csls.txt
$PY csls.py ft.vec w2v.vec 10 | LC_ALL=C sort >np-csls.txt
same=$(LC_ALL=C join -t "$(printf '\t')" emb-csls.txt np-csls.txt |
    awk -F '\t' '$2 == $3' | wc -l)
echo "CSLS: $nq words against $nt, k = 10: $same of $nq lists the same" \
    "in emb-knn and numpy"
emb-knn -j "$T" -A --cosmul -k 5 t.emb abc.emb |
    awk -F '\t' '{ if ($1 != w) { if (w != "") print l; w = $1; l = $3 }
	else l = l " " $3 } END { print l }' >emb-cosmul.txt
$PY cosmul.py w2v.vec questions.txt 5 >gs-cosmul.txt
same=$(paste -d '|' emb-cosmul.txt gs-cosmul.txt | awk -F '|' '$1 == $2' |
    wc -l)
echo "3CosMul: $NQ questions: $same of $NQ answers (5 words) the same in" \
    "emb-knn and gensim"

echo "seconds, medians of $RUNS runs (hyperfine), $T threads; wall (cpu):"
show() {	# show LABEL "EMB" "ANCHOR" (the anchor prints "wall cpu")
	e=$(median_sh "$RUNS" "$2")
	a=$(sh -c "$3")
	$PY -c 'import sys; n = sys.argv[1]; ew, ec, aw, ac = map(float, sys.argv[2:])
print("%-34s emb %.3f (%.3f)  anchor %.3f (%.3f)  anchor / emb %.1f wall, %.1f cpu" % (n, ew, ec, aw, ac, aw / ew, ac / ec))' \
	    "$1" $e $a
}
show "CSLS, $nq x $nt, k 10" \
    "emb-knn -j $T --csls 10 -k 10 t.emb q.emb >/dev/null" \
    "$PY csls.py ft.vec w2v.vec 10 $RUNS"
show "3CosMul, $NQ questions, $nt words" \
    "emb-knn -j $T -A --cosmul -k 5 t.emb abc.emb >/dev/null" \
    "$PY cosmul.py w2v.vec questions.txt 5 $RUNS"
