#!/usr/bin/python3
"""knn-sklearn.py - emb-knn's neighbour lists beside scikit-learn's.

    knn-sklearn.py compare EMBFILE [K [NREF [QSTEP]]]
    knn-sklearn.py fixture EMBFILE K NREF QSTEP

EMBFILE is a word2vec text (.vec, with header) or GloVe text file, plain or
gzip.  The first NREF words (all if 0) are the reference set; every QSTEP-th
of them is a query.  The vectors go to emb-knn as emb(5) streams written by
`emb-cat -r` from the text view, and to scikit-learn's brute-force cosine
NearestNeighbors (in float64) as arrays.

compare: prints, for the K nearest neighbours of each query, how many lists
are equal, how many differ only where two distances tie (within 1e-6: the
float32 sums of emb-knn cannot order such pairs as float64 does), and how
many differ otherwise; the largest distance difference; exit 1 on a real
difference.  emb-knn and emb-cat are taken from PATH.

fixture: prints scikit-learn's lists as emb-knn prints them without the
distance column (query, rank, neighbour), for tests/cli/emb-knn/knn-sklearn.out.
"""
import gzip
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.neighbors import NearestNeighbors

TIE = 1e-6


def load(path, nref):
    op = gzip.open if open(path, 'rb').read(2) == b'\x1f\x8b' else open
    words, rows = [], []
    with op(path, 'rb') as f:
        first = True
        for line in f:
            parts = line.rstrip(b'\r\n').rstrip(b' ').split(b' ')
            if first:
                first = False
                if len(parts) == 2 and all(p.isdigit() for p in parts):
                    continue
            words.append(parts[0])
            rows.append(np.array(parts[1:], dtype=np.float32))
            if nref and len(words) == nref:
                break
    return words, np.vstack(rows)


def escape(w):
    return (w.replace(b'\\', b'\\\\').replace(b'\t', b'\\t')
            .replace(b'\n', b'\\n').replace(b'\r', b'\\r')
            .replace(b'\0', b'\\0'))


def stream(words, mat, path):
    """Write words and rows as an emb(5) stream through emb-cat -r."""
    text = b''.join(escape(w) + b'\t' +
                    b' '.join(repr(float(x)).encode() for x in row) + b'\n'
                    for w, row in zip(words, mat))
    with open(path, 'wb') as out:
        subprocess.run(['emb-cat', '-r'], input=text, stdout=out,
                       check=True)


def sklearn_knn(ref, qry, k):
    nn = NearestNeighbors(n_neighbors=min(k, len(ref)), metric='cosine',
                          algorithm='brute')
    nn.fit(ref.astype(np.float64))
    return nn.kneighbors(qry.astype(np.float64))


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ('compare', 'fixture'):
        sys.exit(__doc__)
    mode, path = sys.argv[1], sys.argv[2]
    k = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    nref = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    qstep = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    words, mat = load(path, nref)
    qidx = np.arange(0, len(words), qstep)
    dist, ind = sklearn_knn(mat, mat[qidx], k)
    if mode == 'fixture':
        out = sys.stdout.buffer
        for qi, row in zip(qidx, ind):
            for r, j in enumerate(row):
                out.write(escape(words[qi]) + b'\t%d\t' % (r + 1) +
                          escape(words[j]) + b'\n')
        return
    with tempfile.TemporaryDirectory() as tmp:
        refs, qs = os.path.join(tmp, 'r.emb'), os.path.join(tmp, 'q.emb')
        stream(words, mat, refs)
        stream([words[i] for i in qidx], mat[qidx], qs)
        with open(qs, 'rb') as f:
            got = subprocess.run(['emb-knn', '-k', str(k), refs], stdin=f,
                                 stdout=subprocess.PIPE, check=True).stdout
    # Exact float64 cosine distances of every query to every reference.
    unit = mat.astype(np.float64)
    norms = np.linalg.norm(unit, axis=1, keepdims=True)
    unit = np.divide(unit, norms, out=np.zeros_like(unit), where=norms > 0)
    index = {}
    for i, w in enumerate(words):
        index.setdefault(escape(w), []).append(i)
    lists = {}
    for line in got.splitlines():
        q, rank, ref, d = line.split(b'\t')
        lists.setdefault(q, []).append((ref, float(d)))
    equal = ties = bad = 0
    maxdiff = 0.0
    for n, qi in enumerate(qidx):
        mine = lists.get(escape(words[qi]), [])
        theirs = [escape(words[j]) for j in ind[n]]
        exact = 1 - unit[index[escape(words[qi])][0]] @ unit.T
        if [m[0] for m in mine] == theirs:
            equal += 1
        else:
            ok = len(mine) == len(theirs)
            for r, (ref, _) in enumerate(mine[:len(theirs)]):
                if ref == theirs[r]:
                    continue
                dmine = min(exact[i] for i in index[ref])
                if abs(dmine - dist[n][r]) > TIE:
                    ok = False
            if ok:
                ties += 1
            else:
                bad += 1
                if bad <= 5:
                    print('differs: %s: emb-knn %s, scikit-learn %s' %
                          (words[qi], [m[0] for m in mine], theirs))
        for r, (ref, d) in enumerate(mine[:len(theirs)]):
            maxdiff = max(maxdiff, abs(d - dist[n][r]))
    print('%s: %d references x %d, %d queries, k=%d: %d lists equal, '
          '%d differ only in ties (|d1 - d2| <= %g), %d differ; '
          'largest distance difference %.2g' %
          (os.path.basename(path), len(words), mat.shape[1], len(qidx), k,
           equal, ties, TIE, bad, maxdiff))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
