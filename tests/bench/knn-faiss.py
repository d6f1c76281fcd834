#!/usr/bin/python3
"""knn-faiss.py - data for the emb-knn benchmark, and FAISS on the same data.

    knn-faiss.py gen N DIM SEED OUT.emb
        N random Gaussian vectors (float32) as an emb(5) stream, keys
        "v%07d", written directly (header, records, trailer with crc32).
    knn-faiss.py gen-equi N DIM SEED OUT.emb
        N vectors all nearly equidistant from any query: one common
        direction c plus 0.02 of a Gaussian vector of norm about 1, so
        that a query's cosines to them differ by about 1e-3 (the int8
        bounds cannot tell them apart; float32 ones can).
    knn-faiss.py search REFS.emb QUERIES.emb K THREADS RUNS
        FAISS IndexFlatIP on the unit-normalized vectors of the two streams,
        THREADS OpenMP threads; prints "faiss <median search seconds>
        <queries/s> <GFLOP/s>" (GFLOP/s counted as 2 x nq x nref x dim per
        search, as for emb-knn -v).

Only streams written by `gen` are read (fixed key length, no groups).
"""
import struct
import sys
import time
import zlib

import numpy as np

MAGIC = b'\x89EMB\r\n\x1a\n'
KEYLEN = 8


def rectype(dim):
    return np.dtype([('t', 'u1'), ('kl', '<u4'), ('key', 'S%d' % KEYLEN),
                     ('v', '<f4', (dim,))])


def gen(n, dim, seed, out, equi=False):
    rng = np.random.default_rng(seed)
    c = rng.standard_normal(dim)
    c = (c / np.linalg.norm(c)).astype(np.float32)
    rt = rectype(dim)
    crc = 0
    with open(out, 'wb') as f:
        f.write(MAGIC + struct.pack('<HHI', 1, 0, dim))
        for lo in range(0, n, 100000):
            hi = min(n, lo + 100000)
            rec = np.zeros(hi - lo, dtype=rt)
            rec['t'] = 0x56
            rec['kl'] = KEYLEN
            rec['key'] = [b'v%07d' % i for i in range(lo, hi)]
            rec['v'] = rng.standard_normal((hi - lo, dim), dtype=np.float32)
            if equi:
                rec['v'] = c + np.float32(0.02 / np.sqrt(dim)) * rec['v']
            b = rec.tobytes()
            crc = zlib.crc32(b, crc)
            f.write(b)
        f.write(b'E' + struct.pack('<QI', n, crc))


def load(path):
    with open(path, 'rb') as f:
        head = f.read(16)
    dim = struct.unpack('<I', head[12:16])[0]
    rt = rectype(dim)
    mm = np.memmap(path, dtype='u1', mode='r')
    n = (len(mm) - 16 - 13) // rt.itemsize
    rec = np.frombuffer(mm, dtype=rt, count=n, offset=16)
    return np.ascontiguousarray(rec['v'])


def search(refs, queries, k, threads, runs):
    import faiss
    faiss.omp_set_num_threads(threads)
    xb, xq = load(refs), load(queries)
    faiss.normalize_L2(xb)
    faiss.normalize_L2(xq)
    index = faiss.IndexFlatIP(xb.shape[1])
    index.add(xb)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        index.search(xq, k)
        times.append(time.perf_counter() - t)
    t = sorted(times)[len(times) // 2]
    flop = 2.0 * xq.shape[0] * xb.shape[0] * xb.shape[1]
    print('faiss %.3f %.0f %.1f' % (t, xq.shape[0] / t, flop / t / 1e9))


def main():
    if len(sys.argv) == 6 and sys.argv[1] in ('gen', 'gen-equi'):
        gen(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]),
            sys.argv[5], sys.argv[1] == 'gen-equi')
    elif len(sys.argv) == 7 and sys.argv[1] == 'search':
        search(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]),
               int(sys.argv[6]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
