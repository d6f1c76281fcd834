#!/bin/sh
# 12-retrieval: emb-eval -r, the retrieval figures of precomputed vectors,
# on a corpus of 100,000 documents x 100 (1,000 clusters, each document
# its cluster's centre plus noise) and 1,000 queries (a centre plus
# noise), each judging the ~100 documents of its cluster relevant (grade
# 1 or 2) and 5 of another cluster not (grade 0); cutoffs 1, 10, 100.
# emb-eval runs on one thread and on two (hyperfine medians, reading the
# streams included).  The anchor is a numpy transcription timed in the
# process after its arrays are loaded: the cosines in float64 by matrix
# products, blocks of 100 queries, the first 100 by argpartition and a
# sort (the ranking), then trec_eval's figures query by query in Python
# (the figures, shown apart); the figure is emb-eval -j 1 / numpy.  Both rank the same documents: the means they print agree (the
# largest difference is shown).
set -eu
PY=/usr/bin/python3
HERE=$(cd "$(dirname "$0")" && pwd)
D=$BENCHDIR/retrieval
mkdir -p "$D"
. "$HERE/hyperfine.sh"
RUNS=${RETRIEVAL_RUNS:-5}
if [ ! -s "$D/corpus.emb" ]; then
	$PY - "$D" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
g = np.random.default_rng(1)
n, dim, nc, nq = 100000, 100, 1000, 1000
mu = g.normal(size=(nc, dim))
cl = g.integers(0, nc, n)
x = mu[cl] + 1.2 * g.normal(size=(n, dim))
qc = g.permutation(nc)[:nq]
q = mu[qc] + 1.2 * g.normal(size=(nq, dim))
for name, ids, v in (("corpus", ["d%d" % i for i in range(n)], x),
                     ("queries", ["q%d" % i for i in range(nq)], q)):
    with open("%s/%s.txt" % (d, name), "w") as f:
        for i, row in zip(ids, v):
            f.write("%s\t%s\n" % (i, " ".join("%.5f" % w for w in row)))
members = {}
for i, c in enumerate(cl):
    members.setdefault(c, []).append(i)
with open("%s/qrels.txt" % d, "w") as f:
    for i, c in enumerate(qc):
        for j in members.get(c, []):
            f.write("q%d 0 d%d %d\n" % (i, j, 1 + (j % 3 == 0)))
        other = members.get((c + 1) % nc, [])[:5]
        for j in other:
            f.write("q%d 0 d%d 0\n" % (i, j))
PY
	emb-cat -r "$D/corpus.txt" >"$D/corpus.emb"
	emb-cat -r "$D/queries.txt" >"$D/queries.emb"
	emb-cat -N "$D/corpus.npy" "$D/corpus.emb" >/dev/null
	emb-cat -N "$D/queries.npy" "$D/queries.emb" >/dev/null
fi
cd "$D"
run="-r qrels.txt -K 1,10,100 corpus.emb queries.emb"
# shellcheck disable=SC2086
e1=$(median "$RUNS" "emb-eval -j 1 $run")
# shellcheck disable=SC2086
e2=$(median "$RUNS" "emb-eval -j 2 $run")
# shellcheck disable=SC2086
emb-eval -j 1 $run >emb.out 2>/dev/null
$PY - "${e1% *}" "${e2% *}" <<'PY'
import sys, time, math
import numpy as np
e1, e2 = float(sys.argv[1]), float(sys.argv[2])
C = np.load("corpus.npy").astype(np.float64)
Q = np.load("queries.npy").astype(np.float64)
qrels = {}
for line in open("qrels.txt"):
    q, _, doc, g = line.split()
    qrels.setdefault(int(q[1:]), {})[int(doc[1:])] = int(g)
cuts, K = (1, 10, 100), 100
t0 = time.perf_counter()
Cn = C / np.linalg.norm(C, axis=1)[:, None]
Qn = Q / np.linalg.norm(Q, axis=1)[:, None]
top = np.empty((len(Q), K), dtype=np.int64)
for b in range(0, len(Q), 100):
    S = Qn[b:b + 100] @ Cn.T
    part = np.argpartition(-S, K, axis=1)[:, :K]
    for i in range(len(part)):
        p = part[i]
        top[b + i] = p[np.lexsort((p, -S[i, p]))]
tr = time.perf_counter()
sums = {(m, k): 0.0 for m in ("recall", "P", "MRR", "MAP", "nDCG")
        for k in cuts}
for qi in range(len(Q)):
    judged = qrels.get(qi)
    if judged is None:
        continue
    rels = [judged.get(int(j), -1) for j in top[qi]]
    nrel = sum(1 for g in judged.values() if g >= 1)
    gains = sorted((g for g in judged.values() if g > 0), reverse=True)
    for k in cuts:
        r = [g >= 1 for g in rels[:k]]
        hits = np.cumsum(r)
        first = next((i + 1 for i, x in enumerate(r) if x), 0)
        ap = sum(hits[i] / (i + 1) for i in range(k) if r[i])
        dcg = sum(g / math.log2(i + 2) for i, g in enumerate(rels[:k])
                  if g > 0)
        idcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains[:k]))
        sums[("recall", k)] += hits[-1] / nrel if nrel else 0
        sums[("P", k)] += hits[-1] / k
        sums[("MRR", k)] += 1 / first if first else 0
        sums[("MAP", k)] += ap / nrel if nrel else 0
        sums[("nDCG", k)] += dcg / idcg if idcg > 0 else 0
t1 = time.perf_counter()
nq = sum(1 for qi in range(len(Q)) if qi in qrels)
got = {}
for line in open("emb.out"):
    f = line.rstrip("\n").split("\t")
    if "@" in f[2]:
        m, k = f[2].split("@")
        got[(m, int(k))] = float(f[3])
diff = max(abs(got[key] - s / nq) for key, s in sums.items())
print("emb-eval -r, 100k x 100, 1000 queries, -K 1,10,100: "
      "-j 1 %.3f s, -j 2 %.3f s (medians, reading included)" % (e1, e2))
print("numpy float64: %.3f s in process (the ranking %.3f s, the figures "
      "%.3f s); emb-eval -j 1 / numpy %.2f" % (t1 - t0, tr - t0, t1 - tr,
                                             e1 / (t1 - t0)))
print("the means agree within %.1e (printed to 6 decimals)" % diff)
PY
