#!/usr/bin/python3
# mlp-ref.py - the perceptron of emb-eval(1), written again from the manual
# page in numpy (float64), for the reference scores of tests/unit/
# test_classify.c (S_mlp, S_mlp_drop): the same data, seed 1111, and for
# each configuration the number of passes and the scores of the first four
# test rows.  Run: python3 tests/data/mlp-ref.py
import importlib.util
import os
import re
import sys

import numpy as np

def splitmix():
    """augment-ref.py's splitmix64."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "augment_ref", os.path.join(here, "augment-ref.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.SplitMix


class Rng(splitmix()):
    """Its draws as emb-eval(1) uses them."""

    def unif(self):
        return (self.next() >> 11) * 2.0 ** -53

    def perm(self, idx):
        for i in range(len(idx), 1, -1):
            j = self.next() % i
            idx[i - 1], idx[j] = idx[j], idx[i - 1]


def arrays(path):
    """X, Y, T of test_classify.c."""
    src = open(path).read()
    out = {}
    for name in ("X", "Y", "T"):
        body = re.search(r"static const (?:float|int) %s\[\] = \{(.*?)\};"
                         % name, src, re.S).group(1)
        out[name] = [float(v) for v in body.replace("\n", " ").split(",")
                     if v.strip()]
    X = np.array(out["X"], dtype=np.float32).astype(np.float64).reshape(-1, 4)
    T = np.array(out["T"], dtype=np.float32).astype(np.float64).reshape(-1, 4)
    return X, np.array(out["Y"], dtype=int), T


def fit(X, y, K, nhid, l2, dropout, batch, valfrac, max_epoch, seed=1111,
        tenacity=5, epoch_size=4):
    g = Rng(seed)
    n, d = X.shape
    idx = list(range(n))
    g.perm(idx)
    nva = int(valfrac * n)
    va, tr = idx[:nva], idx[nva:]
    shapes = [(d, nhid), (nhid,), (nhid, K), (K,)]
    bounds = [1 / np.sqrt(d)] * 2 + [1 / np.sqrt(nhid)] * 2
    P = []
    for s, a in zip(shapes, bounds):
        P.append(np.array([(2 * g.unif() - 1) * a
                           for _ in range(int(np.prod(s)))]).reshape(s))
    m1 = [np.zeros_like(p) for p in P]
    v1 = [np.zeros_like(p) for p in P]
    b1t = b2t = 1.0

    def scores(Z, mask=None):
        a = Z @ P[0] + P[1]
        if mask is not None:
            a = a * mask
        H = 1 / (1 + np.exp(-a))
        return H, H @ P[2] + P[3]

    best, bestP, bad, passes, stop = -1, None, 0, 0, False
    while not stop and passes <= max_epoch:
        for _ in range(epoch_size):
            g.perm(tr)
            for i0 in range(0, len(tr), batch):
                rows = tr[i0:i0 + batch]
                r = len(rows)
                Z = X[rows]
                mask = None
                if dropout > 0:
                    u = np.array([g.unif() for _ in range(r * nhid)])
                    mask = np.where(u < dropout, 0.0,
                                    1 / (1 - dropout)).reshape(r, nhid)
                H, S = scores(Z, mask)
                S = np.exp(S - S.max(1, keepdims=True))
                S /= S.sum(1, keepdims=True)
                S[np.arange(r), y[rows]] -= 1
                S /= r                      # the mean over the batch
                dA = (S @ P[2].T) * H * (1 - H)
                if mask is not None:
                    dA *= mask
                G = [Z.T @ dA, dA.sum(0), H.T @ S, S.sum(0)]
                b1t *= 0.9
                b2t *= 0.999
                for j in range(4):
                    gj = G[j] + l2 * P[j]
                    m1[j] = 0.9 * m1[j] + 0.1 * gj
                    v1[j] = 0.999 * v1[j] + 0.001 * gj * gj
                    P[j] = P[j] - 1e-3 / (1 - b1t) * m1[j] / (
                        np.sqrt(v1[j]) / np.sqrt(1 - b2t) + 1e-8)
            passes += 1
        acc = np.mean(scores(X[va])[1].argmax(1) == y[va])
        if acc > best:
            best, bestP = acc, [p.copy() for p in P]
        else:
            if bad >= tenacity:
                stop = True
            bad += 1
    P[:] = bestP
    return passes, lambda Z: scores(Z)[1]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/unit/test_classify.c"
    X, y, T = arrays(path)
    for name, kw in (("S_mlp", dict(dropout=0, batch=64, l2=1e-4)),
                     ("S_mlp_drop", dict(dropout=0.2, batch=8, l2=1e-3))):
        passes, f = fit(X, y, 3, 5, valfrac=0.25, max_epoch=60, **kw)
        print("/* %s: %d passes */" % (name[2:], passes))
        print("static const double %s[] = {" % name)
        for row in f(T[:4]):
            print("\t" + " ".join("%.12g," % v for v in row))
        print("};")


main()
