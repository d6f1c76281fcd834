#!/usr/bin/python3
"""knn-exact.py - adversarial sets for emb-knn's distances, and their exact
answers in rational arithmetic.

    knn-exact.py gen DIR
        writes DIR/NAME.ref.txt and DIR/NAME.q.txt ("key<TAB>values", the
        float32 values written exactly) for each set, and DIR/sets (NAME
        and k, one a line).
    knn-exact.py check DIR NAME K OUT
        OUT is emb-knn's answer for set NAME with -k K; it must be, for
        every query, the K references nearest by the true 1 - cos of the
        float32 values rounded once to double (to nearest, ties to even),
        ties in reference order, each printed distance that double.

The truth: each float32 is an integer times 2^-149, so the dot product D
and the squared norms A, B are exact integers (times 2^-298, which
cancels); cos = D / sqrt(A B), and sqrt(A B) is bracketed by integer
square roots at ever finer scales until both ends of 1 - cos round to the
same double (Fraction -> float rounds correctly); a perfect square is
exact.  A zero vector is at distance 1 from every query; a zero query has
no neighbours listed.
"""
import math
import random
import struct
import sys
from fractions import Fraction

import numpy as np


def f32(x):
    return float(np.float32(x))


def ints(v):
    """The float32 values as integers times 2^-149."""
    return [int(Fraction(x) * 2 ** 149) for x in v]


def truth(q, r):
    a = sum(x * x for x in q)
    b = sum(y * y for y in r)
    if a == 0 or b == 0:
        return 1.0
    d = sum(x * y for x, y in zip(q, r))
    p = a * b
    s = math.isqrt(p)
    if s * s == p:
        return float(1 - Fraction(d, s))
    k = 64
    while True:
        lo = math.isqrt(p << (2 * k))
        # sqrt(p) in [lo, lo + 1] / 2^k: 1 - d / s is monotone in s.
        t1 = float(1 - Fraction(d << k, lo))
        t2 = float(1 - Fraction(d << k, lo + 1))
        if t1 == t2:
            return t1
        k *= 2


def fmt(v):
    return ' '.join(repr(float(x)) for x in v)


def nudge(x, n):
    """x moved n float32 ulps."""
    return f32(np.nextafter(np.float32(x), np.float32(np.inf if n > 0
                                                      else -np.inf)))


def sets(rng):
    out = {}
    # 1-ulp near-ties around one vector, exact duplicates, scaled copies
    # (the same direction: distance 0), and a negated one (2).
    dim = 24
    v = [f32(rng.gauss(0, 1)) for _ in range(dim)]
    refs = []
    for i in range(dim):
        for n in (1, -1):
            w = list(v)
            w[i] = nudge(w[i], n)
            refs.append(w)
        if i % 6 == 0:
            refs.append(list(v))
    refs.append([f32(2 * x) for x in v])
    refs.append([f32(x * 2.0 ** -20) for x in v])
    refs.append([-x for x in v])
    rng.shuffle(refs)
    out['ulp'] = (refs, [v, [nudge(x, 1) for x in v]], len(refs))
    # Scaled by 1e30 and 1e-38 (the latter partly subnormal), mixed.
    dim = 16
    base = [[f32(rng.gauss(0, 1)) for _ in range(dim)] for _ in range(12)]
    refs = []
    for b in base:
        refs.append([f32(x * 1e30) for x in b])
        refs.append([f32(x * 1e-38) for x in b])
        refs.append(b)
    out['scaled'] = (refs, [[f32(x * 1e-38) for x in base[0]], base[1],
                            [f32(x * 1e30) for x in base[2]]], 10)
    # Subnormals only, and vectors of one subnormal component.
    dim = 8
    refs = [[rng.randint(-50, 50) * 2.0 ** -149 for _ in range(dim)]
            for _ in range(40)]
    refs += [[2.0 ** -149 if j == i else 0.0 for j in range(dim)]
             for i in range(dim)]
    out['subnormal'] = (refs, refs[:5] + [[0.0] * dim], 12)
    # Dimension 1: distances 0, 2, and 1 for a zero.
    refs = [[f32(rng.choice((-1, 1)) * rng.uniform(1e-30, 1e30))]
            for _ in range(30)] + [[0.0]]
    out['dim1'] = (refs, [[1.0], [-3.5e-40], [0.0]], 31)
    # Dimension 65537: beyond the int8 codes, nearly parallel pairs.
    dim = 65537
    b = [f32(rng.gauss(0, 1)) for _ in range(dim)]
    refs = [b]
    for i in range(4):
        w = list(b)
        for j in rng.sample(range(dim), 3):
            w[j] = nudge(w[j], rng.choice((1, -1)))
        refs.append(w)
    refs.append([f32(rng.gauss(0, 1)) for _ in range(dim)])
    out['dim65537'] = (refs, [b, refs[5]], 6)
    # Near-duplicates of many random vectors, at 300 dimensions: a
    # query's exact duplicate and its neighbours a few ulps away.
    dim = 300
    refs = []
    qs = []
    for i in range(60):
        v = [f32(rng.gauss(0, 1)) for _ in range(dim)]
        refs.append(v)
        w = list(v)
        j = rng.randrange(dim)
        w[j] = nudge(w[j], 1)
        refs.append(w)
        if i % 10 == 0:
            qs.append(w)
    rng.shuffle(refs)
    out['near300'] = (refs, qs, 5)
    return out


def gen(d):
    rng = random.Random(29)
    with open(d + '/sets', 'w') as s:
        for name, (refs, qs, k) in sets(rng).items():
            with open('%s/%s.ref.txt' % (d, name), 'w') as o:
                for i, v in enumerate(refs):
                    o.write('r%d\t%s\n' % (i, fmt(v)))
            with open('%s/%s.q.txt' % (d, name), 'w') as o:
                for i, v in enumerate(qs):
                    o.write('q%d\t%s\n' % (i, fmt(v)))
            s.write('%s %d\n' % (name, k))


def load(path):
    keys, vecs = [], []
    for line in open(path):
        k, v = line.rstrip('\n').split('\t')
        keys.append(k)
        vecs.append(ints([float(x) for x in v.split()]))
    return keys, vecs


def check(d, name, k, out):
    rk, rv = load('%s/%s.ref.txt' % (d, name))
    qk, qv = load('%s/%s.q.txt' % (d, name))
    want = []
    for qi, q in enumerate(qv):
        if not any(q):
            continue    # a zero vector: no neighbours listed
        t = sorted((truth(q, r), j) for j, r in enumerate(rv))
        for rank, (dist, j) in enumerate(t[:k]):
            want.append((qk[qi], rank + 1, rk[j], dist))
    got = []
    for line in open(out):
        f = line.rstrip('\n').split('\t')
        got.append((f[0], int(f[1]), f[2], float(f[3])))
    if got != want:
        for g, w in zip(got + [None] * len(want), want):
            if g != w:
                print('%s: got %r, want %r' % (name, g, w))
                break
        else:
            print('%s: %d lines, want %d' % (name, len(got), len(want)))
        sys.exit(1)


def main():
    a = sys.argv[1:]
    if a[:1] == ['gen'] and len(a) == 2:
        gen(a[1])
    elif a[:1] == ['check'] and len(a) == 5:
        check(a[1], a[2], int(a[3]), a[4])
    else:
        sys.exit(__doc__)


main()
