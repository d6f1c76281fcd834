#!/usr/bin/python3
"""bias-ref.py - an independent reference for emb-bias, written from the
papers' formulas as emb-bias(1) states them (numpy, scipy), not from the C.

usage: bias-ref.py VECTORS SETS PAIRS|- GOT [option=value ...]

VECTORS is the text view of the stream (emb-cat: key TAB components),
SETS and PAIRS files in emb-bias's format, GOT what emb-bias printed with
the same options.  Every figure of GOT is recomputed and compared: counts
exactly, numbers to within 1e-9 (relative to their size where above 1).
Options (as emb-bias's): tests, n (permutations), E (exact limit),
b (bootstrap), s (seed), S (sample|population), c (level), l (1: lower
case), U (1: RND and ECT as is).  Prints one line per test compared, exits 1 on a difference.
"""
import itertools
import math
import sys

import numpy as np
from scipy.stats import spearmanr

M64 = (1 << 64) - 1


class SplitMix:
    """Steele, Lea and Flood's splitmix64, and a uniform integer below n
    by rejection (draw until x < 2^64 - 2^64 mod n)."""

    def __init__(self, seed):
        self.s = seed & M64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n):
        lim = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < lim:
                return x % n


def readsets(path, lower):
    sets = {}
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        t = line.split()
        if not t or t[0].startswith('#'):
            continue
        words = [w.lower() if lower else w for w in t[2:]]
        if lower:
            words = [''.join(c.lower() if 'A' <= c <= 'Z' else c
                             for c in w) for w in t[2:]]
        sets.setdefault(t[0], []).extend(words)
    return sets


def main():
    vpath, spath, ppath, gotpath = sys.argv[1:5]
    opt = dict(a.split('=', 1) for a in sys.argv[5:])
    tests = opt.get('tests', 'weat').split(',')
    nperm = int(opt.get('n', 1000000))
    exactmax = int(opt.get('E', 10000000))
    nboot = int(opt.get('b', 1000))
    seed = int(opt.get('s', 1))
    sample = opt.get('S', 'sample') == 'sample'
    level = float(opt.get('c', 0.95))
    lower = opt.get('l', '0') == '1'
    asis = opt.get('U', '0') == '1'

    vec = {}
    for line in open(vpath, encoding='utf-8', errors='surrogateescape'):
        k, v = line.rstrip('\n').split('\t')
        if k not in vec:
            vec[k] = np.array(v.split(), dtype=np.float32).astype(np.float64)
    S = readsets(spath, lower)
    P = readsets(ppath, lower) if ppath != '-' else None
    found = {r: [w for w in S[r] if w in vec] for r in S}

    got = {}
    for line in open(gotpath):
        task, test, metric, value = line.rstrip('\n').split('\t')
        got.setdefault((test, metric), []).append(value)
    want = {}

    def put(test, metric, v):
        want.setdefault((test, metric), []).append(v)

    for r in 'XYAB':
        if r in S:
            put('words', r + ':found', len(found[r]))
            put('words', r + ':missing', len(S[r]) - len(found[r]))
            for w in S[r]:
                if w not in vec:
                    put('words', r + ':missing_word', w)
    # The pairs' words alike, as test 'pairs'.
    for r in 'XYAB':
        if P is not None and r in P:
            pf = [w for w in P[r] if w in vec]
            put('pairs', r + ':found', len(pf))
            put('pairs', r + ':missing', len(P[r]) - len(pf))
            for w in P[r]:
                if w not in vec:
                    put('pairs', r + ':missing_word', w)

    def cos(a, b):
        na, nb = np.linalg.norm(a), np.linalg.norm(b)
        return float(a @ b / (na * nb)) if na > 0 and nb > 0 else 0.0

    def unit(v):
        n = np.linalg.norm(v)
        return v / n if n > 0 else v

    # RND's and ECT's vectors: unit length, or as they are (U=1)
    grp = (lambda v: v) if asis else unit

    def quant(v, q):
        return float(np.quantile(np.array(v), q)) if v else float('nan')

    lo, hi = (1 - level) / 2, (1 + level) / 2
    if 'weat' in tests:
        X, Y, A, B = (np.array([vec[w] for w in found[r]]) for r in 'XYAB')
        T = np.vstack([X, Y])
        nx, ny, na, nb = len(X), len(Y), len(A), len(B)
        n = nx + ny
        # s(w, A, B) = mean_a cos(w, a) - mean_b cos(w, b)
        C = np.array([[cos(t, a) for a in np.vstack([A, B])] for t in T])
        s = C[:, :na].mean(axis=1) - C[:, na:].mean(axis=1)
        for i, w in enumerate(found['X'] + found['Y']):
            put('weat', 's:%s:%s' % ('X' if i < nx else 'Y', w), s[i])
        ddof = 1 if sample else 0

        def eff(sv):
            sd = np.std(sv, ddof=ddof)
            d = (sv[:nx].mean() - sv[nx:].mean()) / sd if sd > 0 else \
                float('nan')
            return d, sv[:nx].sum() - sv[nx:].sum()
        d, stat = eff(s)
        put('weat', 'statistic', stat)
        put('weat', 'effect_size', d)
        put('weat', 'sd', 'sample' if sample else 'population')
        obs = s[:nx].sum()
        tol = 8 * n * np.finfo(float).eps * np.abs(s).sum()
        parts = math.comb(n, nx)
        if parts <= exactmax:
            hit = 0
            for c in itertools.combinations(range(n), nx):
                acc = 0.0
                for i in c:
                    acc += s[i]
                hit += acc >= obs - tol
            put('weat', 'p', hit / parts)
            put('weat', 'p_method', 'exact')
            put('weat', 'partitions', parts)
            put('weat', 'partitions_at_least', hit)
        else:
            g = SplitMix(seed)
            idx = list(range(n))
            hit = 0
            for _ in range(nperm):
                acc = 0.0
                for i in range(nx):
                    j = i + g.below(n - i)
                    idx[i], idx[j] = idx[j], idx[i]
                    acc += s[idx[i]]
                hit += acc >= obs - tol
            p = hit / nperm
            put('weat', 'p', p)
            put('weat', 'p_method', 'sampled')
            put('weat', 'permutations', nperm)
            put('weat', 'permutations_at_least', hit)
            put('weat', 'p_mc_se', math.sqrt(p * (1 - p) / nperm))
            put('weat', 'p_conservative', (hit + 1) / (nperm + 1))
        if nboot > 0:
            g = SplitMix(seed + 1)
            bd, bs = [], []
            for _ in range(nboot):
                ix = [g.below(nx) for _ in range(nx)]
                iy = [nx + g.below(ny) for _ in range(ny)]
                ia = [g.below(na) for _ in range(na)]
                ib = [na + g.below(nb) for _ in range(nb)]
                Cb = C[ix + iy]
                s2 = Cb[:, ia].mean(axis=1) - Cb[:, ib].mean(axis=1)
                d2, st2 = eff(s2)
                bs.append(st2)
                if np.isfinite(d2):
                    bd.append(d2)
            put('weat', 'bootstrap', nboot)
            put('weat', 'bootstrap_undefined', nboot - len(bd))
            put('weat', 'level', level)
            put('weat', 'effect_size_lo', quant(bd, lo))
            put('weat', 'effect_size_hi', quant(bd, hi))
            put('weat', 'statistic_lo', quant(bs, lo))
            put('weat', 'statistic_hi', quant(bs, hi))
    attr = [vec[w] for r in 'AB' if r in found for w in found[r]]
    if 'rnd' in tests or 'ect' in tests:
        # Group vectors: the means of the unit vectors of X and of Y.
        mx = np.mean([grp(vec[w]) for w in found['X']], axis=0)
        my = np.mean([grp(vec[w]) for w in found['Y']], axis=0)
    if 'rnd' in tests:
        # Garg et al.: sum_a |a^ - mx| - |a^ - my|
        put('rnd', 'rnd', sum(np.linalg.norm(grp(a) - mx) -
                              np.linalg.norm(grp(a) - my) for a in attr))
        put('rnd', 'words', len(attr))
    if 'ripa' in tests:
        # Ethayarajh et al.: <w, b>, b the unit relation vector: the first
        # principal component (uncentered) of the pairs' differences x^ - y^
        pr = [(a, b) for a, b in zip(P['X'], P['Y']) if a in vec and b in vec]
        D = np.array([unit(vec[a]) - unit(vec[b]) for a, b in pr])
        b = np.linalg.svd(D)[2][0]
        if (D @ b).sum() < 0:
            b = -b
        put('ripa', 'pairs', len(pr))
        g = SplitMix(seed + 2)
        for r in 'XYAB':
            if r not in found or not found[r]:
                continue
            v = [float(vec[w] @ b) for w in found[r]]
            for w, x in zip(found[r], v):
                put('ripa', 'word:%s:%s' % (r, w), x)
            put('ripa', r + ':mean', np.mean(v))
            if nboot > 0:
                bm = []
                for _ in range(nboot):
                    bm.append(np.mean([v[g.below(len(v))] for _ in v]))
                put('ripa', r + ':mean_lo', quant(bm, lo))
                put('ripa', r + ':mean_hi', quant(bm, hi))
    if 'mac' in tests:
        # Manzini et al.: mean over targets t and attribute sets S of
        # mean_{a in S} (1 - cos(t, a))
        sets = [found[r] for r in 'AB' if r in found]
        tg = found['X'] + found.get('Y', [])
        tot = sum(np.mean([1 - cos(vec[t], vec[a]) for a in st])
                  for t in tg for st in sets)
        put('mac', 'mac', tot / (len(tg) * len(sets)))
        put('mac', 'targets', len(tg))
        put('mac', 'attribute_sets', len(sets))
    if 'ect' in tests:
        # Dev and Phillips: Spearman's rho of cos(mx, a) and cos(my, a)
        cx = [cos(a, mx) for a in attr]
        cy = [cos(a, my) for a in attr]
        put('ect', 'ect', spearmanr(cx, cy)[0])
        put('ect', 'words', len(attr))

    bad = 0
    for key in sorted(set(want) | set(got)):
        w, g = want.get(key, []), got.get(key, [])
        if len(w) != len(g):
            print('%s %s: %d values, the reference has %d' %
                  (key[0], key[1], len(g), len(w)))
            bad += 1
            continue
        for a, b in zip(w, g):
            if isinstance(a, str):
                ok = a == b
            elif isinstance(a, int) and not isinstance(a, bool):
                ok = str(a) == b
            else:
                a, bf = float(a), float(b)
                ok = (math.isnan(a) and math.isnan(bf)) or \
                    abs(a - bf) <= 1e-9 * max(1.0, abs(a))
            if not ok:
                print('%s %s: emb-bias %s, reference %r' %
                      (key[0], key[1], b, a))
                bad += 1
    tested = sorted(set(k[0] for k in want))
    print('%s: %s equal (%d figures)' % (spath.split('/')[-1],
                                         ' '.join(tested), len(want)
                                         if not bad else -bad))
    sys.exit(1 if bad else 0)


main()
