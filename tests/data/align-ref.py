#!/usr/bin/env python3
"""align-ref.py SRC.vec.gz TGT.vec.gz TRAIN TEST MODEL STEPS

An independent orthogonal Procrustes in NumPy, for emb-align and
emb-eval -L: the vectors read from the text files here, normalized by
STEPS (comma-separated unit/center, each space's mean over all its
words, as vecmap does), W = U V^t from the SVD of X^t Z on the TRAIN
pairs.  Prints the largest difference between W and the MODEL's "w"
rows, then for each TEST source word its 10 nearest target words by
cosine and by CSLS (10 neighbours), the mutual nearest neighbours of all
the mapped source words and all the target words, and the P@1, 5, 10
lines emb-eval prints, so that a test compares them with emb's.
"""
import gzip
import sys

import numpy as np


def load(path):
    words, rows = [], []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        f.readline()
        for line in f:
            p = line.rstrip("\n").rstrip(" ").split(" ")
            words.append(p[0])
            rows.append(np.array(p[1:], dtype=np.float32))
    return words, np.array(rows, dtype=np.float32)


def normalize(x, steps):
    x = x.astype(np.float64)
    for s in steps:
        if s == "unit":
            n = np.linalg.norm(x, axis=1, keepdims=True)
            n[n == 0] = 1
            x = x / n
        elif s == "center":
            x = x - x.mean(axis=0)
    return x


def cosines(q, r):
    """Cosines of float32 rows, computed in double."""
    q = q.astype(np.float64)
    r = r.astype(np.float64)
    qn = np.linalg.norm(q, axis=1)
    rn = np.linalg.norm(r, axis=1)
    return (q @ r.T) / np.outer(qn, rn)


def topk(score, k):
    # Larger first, ties by index: a stable sort of the negated scores.
    return np.argsort(-score, axis=1, kind="stable")[:, :k]


def main():
    src, tgt, train, test, model, steps = sys.argv[1:7]
    steps = [s for s in steps.split(",") if s not in ("", "none")]
    sw, S = load(src)
    tw, T = load(tgt)
    si = {w: i for i, w in reversed(list(enumerate(sw)))}
    ti = {w: i for i, w in reversed(list(enumerate(tw)))}
    Sn, Tn = normalize(S, steps), normalize(T, steps)
    pairs = [l.split() for l in open(train, encoding="utf-8")]
    X = Sn[[si[a] for a, b in pairs]]
    Z = Tn[[ti[b] for a, b in pairs]]
    U, _, Vt = np.linalg.svd(X.T @ Z)
    W = U @ Vt
    Wm = np.array([[float(v) for v in l.split()[1:]]
                   for l in open(model) if l.startswith("w ")])
    print("max |W - W_numpy| < 1e-6:", np.abs(W - Wm).max() < 1e-6)
    # What emb-align -M writes: float32 rows.
    M = (Sn @ W).astype(np.float32)
    Tf = Tn.astype(np.float32)
    tpairs = [l.split() for l in open(test, encoding="utf-8")]
    q = [a for a, b in tpairs]
    gold = [ti[b] for a, b in tpairs]
    Q = M[[si[a] for a in q]]
    cq = cosines(Q, Tf)
    nn = topk(cq, 10)
    rq = np.sort(cq, axis=1)[:, ::-1][:, :10].mean(axis=1)
    rt = np.zeros(len(Tf))
    for i0 in range(0, len(Tf), 2048):
        c = cosines(Tf[i0:i0 + 2048], M)
        rt[i0:i0 + 2048] = np.sort(c, axis=1)[:, ::-1][:, :10].mean(axis=1)
    cs = topk(2 * cq - rq[:, None] - rt[None, :], 10)
    for name, hits in (("nn", nn), ("csls", cs)):
        for i, w in enumerate(q):
            print("%s\t%s\t%s" % (name, w, " ".join(tw[j] for j in hits[i])))
    # Mutual nearest neighbours of all the mapped source words and all
    # the target words, in source order.
    s2t = np.zeros(len(M), dtype=int)
    for i0 in range(0, len(M), 1024):
        s2t[i0:i0 + 1024] = topk(cosines(M[i0:i0 + 1024], Tf), 1)[:, 0]
    t2s = np.zeros(len(Tf), dtype=int)
    for i0 in range(0, len(Tf), 1024):
        t2s[i0:i0 + 1024] = topk(cosines(Tf[i0:i0 + 1024], M), 1)[:, 0]
    for i in range(len(M)):
        if t2s[s2t[i]] == i:
            print("mutual\t%s\t%s" % (sw[i], tw[s2t[i]]))
    for name, hits in (("nn", nn), ("csls", cs)):
        for k in (1, 5, 10):
            p = np.mean([gold[i] in hits[i, :k] for i in range(len(q))])
            print("%s\tP@%d\t%.4f" % (name, k, p))


main()
