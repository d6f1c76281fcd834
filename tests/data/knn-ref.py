#!/usr/bin/python3
"""knn-ref.py - an independent float64 reference for emb-knn's output.

    knn-ref.py [options] REF.txt QUERIES.txt K OUTPUT.txt

REF.txt and QUERIES.txt are text views (emb-cat) of ungrouped streams;
OUTPUT.txt is what emb-knn printed for them.  The reference computes every
cosine with numpy in float64 (its own summation order, nothing shared with
emb-knn), ranks by cosine then reference order, and checks OUTPUT.txt:
each printed distance within TOL of the reference's at that rank, the
neighbour at each rank one whose reference distance is within TOL of the
printed one, references of one printed distance in reference order, and
no neighbour twice.  Prints "ok N lines" or what differs, exit 1.

Options: -s (exclude the query's word, the last key field, from its
neighbours), -x F (exclude the words of key field F, space-separated),
-c F (OUTPUT.txt holds labels: the majority label of field F among the k
nearest, ties to the smallest), -A (QUERIES.txt holds analogy groups a b c
[d]: query b - a + c of unit vectors, a, b, c excluded; TOL 1e-6, since
emb-knn builds the query in float32), -t TOL (default 1e-12).
"""
import sys

import numpy as np


def readview(path):
    keys, vecs, groups = [], [], []
    with open(path, 'rb') as f:
        for line in f:
            line = line.rstrip(b'\n')
            key, _, v = line.rpartition(b'\t')
            if v.startswith(b'#'):
                groups.append((key, int(v[1:]), len(keys)))
                continue
            keys.append(key)
            vecs.append(np.array(v.split(), dtype=np.float32))
    return keys, np.array(vecs, dtype=np.float32), groups


def cosines(R, q):
    R64 = R.astype(np.float64)
    q64 = q.astype(np.float64)
    rr = np.einsum('ij,ij->i', R64, R64)
    qq = float(q64 @ q64)
    c = R64 @ q64
    with np.errstate(invalid='ignore', divide='ignore'):
        c = np.where((rr > 0) & (qq > 0), c / np.sqrt(rr * qq), 0.0)
    return np.clip(c, -1, 1)


def main(argv):
    opts = {'s': False, 'x': 0, 'c': 0, 'A': False, 't': 1e-12}
    while argv and argv[0].startswith('-'):
        o = argv.pop(0)
        if o in ('-s', '-A'):
            opts[o[1]] = True
        else:
            opts[o[1]] = (float if o == '-t' else int)(argv.pop(0))
    refp, qp, k, outp = argv[0], argv[1], int(argv[2]), argv[3]
    if opts['A'] and opts['t'] == 1e-12:
        opts['t'] = 1e-6
    tol = opts['t']
    rkeys, R, _ = readview(refp)
    words = [key.split(b'\t')[0] for key in rkeys]
    qkeys, Q, groups = readview(qp)
    queries = []     # (printed key, vector, excluded indices)
    if opts['A']:
        for gkey, n, first in groups:
            if n < 3:
                continue
            u = [Q[first + i].astype(np.float64) for i in range(3)]
            u = [x / np.linalg.norm(x) if x.any() else x for x in u]
            q = u[1] - u[0] + u[2]
            mw = [qkeys[first + i].split(b'\t')[0] for i in range(3)]
            ex = {i for i, w in enumerate(words) if w in mw}
            queries.append((gkey + b'\t' + b' '.join(
                qkeys[first + i].split(b'\t')[0] for i in range(n)),
                q, ex))
    else:
        for key, v in zip(qkeys, Q):
            ex = set()
            if opts['s']:
                w = key.split(b'\t')[-1]
                ex |= {i for i, x in enumerate(words) if x == w}
            if opts['x']:
                f = key.split(b'\t')
                if len(f) >= opts['x']:
                    ws = set(f[opts['x'] - 1].split(b' '))
                    ex |= {i for i, x in enumerate(words) if x in ws}
            # A zero vector has no neighbours listed (a label, with -c).
            if v.any() or opts['c']:
                queries.append((key, v, ex))
    with open(outp, 'rb') as f:
        out = [line.rstrip(b'\n') for line in f]
    bad = []
    pos = 0
    for key, v, ex in queries:
        c = cosines(R, v)
        order = sorted((i for i in range(len(rkeys)) if i not in ex),
                       key=lambda i: (-c[i], i))
        top = order[:k]
        dist = {i: 1 - c[i] for i in order}
        if opts['c']:
            lab = [rkeys[i].split(b'\t')[opts['c'] - 1] for i in top]
            count = {}
            for x in lab:
                count[x] = count.get(x, 0) + 1
            want = min(count, key=lambda x: (-count[x], x)) if lab else b''
            got = out[pos].split(b'\t')[-1] if pos < len(out) else None
            # A near tie at the k-th place may change the vote.
            edge = len(order) > k and abs(c[order[k - 1]] -
                                          c[order[k]]) <= tol
            if got != want and not edge:
                bad.append('%s: label %r, reference %r' % (key, got, want))
            pos += 1
            continue
        seen = set()
        prev = None
        for j, i in enumerate(top):
            if pos >= len(out):
                bad.append('%s: output ends at rank %d' % (key, j + 1))
                break
            f = out[pos].split(b'\t')
            pos += 1
            rank, rk, d = int(f[-3]), f[-2], float(f[-1])
            if rank != j + 1:
                bad.append('%s: rank %d, expected %d' % (key, rank, j + 1))
            if abs(d - dist[i]) > tol:
                bad.append('%s rank %d: distance %r, reference %r' %
                           (key, j + 1, d, dist[i]))
            cand = [x for x in order if rkeys[x] == rk and
                    abs(dist[x] - d) <= tol]
            if not cand:
                bad.append('%s rank %d: %r is not at distance %r' %
                           (key, j + 1, rk, d))
                continue
            x = cand[0] if cand[0] not in seen else (
                [y for y in cand if y not in seen] or [cand[0]])[0]
            if x in seen:
                bad.append('%s: %r twice' % (key, rk))
            if prev is not None and prev[1] == d and prev[0] > x:
                bad.append('%s rank %d: equal distances out of reference '
                           'order' % (key, j + 1))
            seen.add(x)
            prev = (x, d)
    if pos != len(out):
        bad.append('%d lines past the reference' % (len(out) - pos))
    for b in bad[:20]:
        print(b)
    if bad:
        print('%d differences' % len(bad))
        return 1
    print('ok %d lines' % len(out))
    return 0


sys.exit(main(sys.argv[1:]))
