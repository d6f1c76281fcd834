#!/usr/bin/python3
"""bias-numpy.py VECTORS SETS PERMUTATIONS - WEAT as a numpy user writes
it (the anchor of tests/bench/11-bias.sh): the cosine matrix, the
associations s(w, A, B), then the permutation test vectorized, chunks of
random partitions drawn by argsort of uniform numbers, their X-sums by
fancy indexing.  Prints the effect size, the p-value and the seconds of
the permutations alone (in-process), wall and CPU."""
import sys
import time

import numpy as np


def main():
    vpath, spath, nperm = sys.argv[1], sys.argv[2], int(sys.argv[3])
    vec = {}
    for line in open(vpath):
        k, v = line.rstrip('\n').split('\t')
        vec.setdefault(k, v)
    sets = {}
    for line in open(spath):
        t = line.split()
        if t and not t[0].startswith('#'):
            sets[t[0]] = [w.lower() for w in t[2:]]
    X, Y, A, B = ([np.array(vec[w].split(), dtype=np.float32)
                   for w in sets[r] if w in vec] for r in 'XYAB')
    T = np.array(X + Y, dtype=np.float64)
    AB = np.array(A + B, dtype=np.float64)
    T /= np.linalg.norm(T, axis=1)[:, None]
    AB /= np.linalg.norm(AB, axis=1)[:, None]
    C = T @ AB.T
    s = C[:, :len(A)].mean(axis=1) - C[:, len(A):].mean(axis=1)
    nx, n = len(X), len(T)
    d = (s[:nx].mean() - s[nx:].mean()) / s.std(ddof=1)
    obs = s[:nx].sum()
    t0, c0 = time.perf_counter(), time.process_time()
    rng = np.random.default_rng(1)
    hit, left = 0, nperm
    while left > 0:
        m = min(left, 100000)
        idx = np.argsort(rng.random((m, n)), axis=1)[:, :nx]
        hit += int((s[idx].sum(axis=1) >= obs - 1e-12).sum())
        left -= m
    t, c = time.perf_counter() - t0, time.process_time() - c0
    print('effect_size %.6f p %.6g permutations %d seconds %.4f cpu %.4f' %
          (d, hit / nperm, nperm, t, c))


main()
