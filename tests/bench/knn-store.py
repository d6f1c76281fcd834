#!/usr/bin/python3
"""knn-store.py - data and the gensim anchor for the store search benchmark.

    knn-store.py gen N DIM SEED OUT.bin OUT.kv
        N random Gaussian vectors (float32), words "w0" ... "w<N-1>", as a
        word2vec binary file (what `emb-lookup -B` reads) and as gensim
        KeyedVectors saved for KeyedVectors.load(mmap='r') (OUT.kv and
        OUT.kv.vectors.npy).  Written in blocks: memory stays small.
    knn-store.py strip STORE OUT
        the store without its search section: a store as emb-lookup -B
        wrote it before stores kept the search's codes (header flags 2
        and 4 cleared, the section and the row checksums cut out, sizes
        and header checksum updated).
    knn-store.py gensim OUT.kv K WORD...
        in this (fresh) process: KeyedVectors.load(OUT.kv, mmap='r'), then
        most_similar(word, topn=K) for each word; prints the first word's
        neighbours as "word<TAB>rank<TAB>neighbour<TAB>similarity".
    knn-store.py evict FILE...
        drop the files' pages from the page cache (posix_fadvise
        DONTNEED): a cold start for those files only.
"""
import os
import struct
import sys
import zlib

import numpy as np

BLOCK = 65536


def gen(n, dim, seed, out, kv):
    from gensim.models import KeyedVectors
    rng = np.random.default_rng(seed)
    vecs = np.lib.format.open_memmap(kv + '.tmp.npy', mode='w+',
                                     dtype=np.float32, shape=(n, dim))
    with open(out, 'wb') as f:
        f.write(b'%d %d\n' % (n, dim))
        for i0 in range(0, n, BLOCK):
            m = min(BLOCK, n - i0)
            v = rng.standard_normal((m, dim), dtype=np.float32)
            vecs[i0:i0 + m] = v
            parts = []
            for j in range(m):
                parts.append(b'w%d ' % (i0 + j))
                parts.append(v[j].astype('<f4').tobytes())
                parts.append(b'\n')
            f.write(b''.join(parts))
    vecs.flush()
    k = KeyedVectors(dim, count=0, dtype=np.float32)
    k.index_to_key = ['w%d' % i for i in range(n)]
    k.key_to_index = {w: i for i, w in enumerate(k.index_to_key)}
    k.vectors = vecs
    k.save(kv)
    del k, vecs
    os.unlink(kv + '.tmp.npy')


def strip(path, out):
    with open(path, 'rb') as f:
        b = bytearray(f.read(128))
        dim, count = struct.unpack_from('<IQ', b, 12)
        stride, = struct.unpack_from('<I', b, 24)
        flags, = struct.unpack_from('<I', b, 56)
        if not flags & 2:
            sys.exit('%s: no search section' % path)
        hdr = 128 if flags & 1 else 64
        sbucket = struct.unpack_from('<I', b, 72)[0] if flags & 1 else 0
        kat = hdr + (count + sbucket) * stride * 4
        f.seek(kat)
        kh = f.read(64)
        dp, = struct.unpack_from('<I', kh, 4)
        rows, = struct.unpack_from('<Q', kh, 8)
        ksz = 64 + rows * (dp + 16)
        # The row checksums (flag 4) come only with a search section: out
        # too.
        if flags & 4:
            ksz += 64 + (count + sbucket) * 4
        size = os.fstat(f.fileno()).st_size
        struct.pack_into('<I', b, 56, flags & ~6)
        struct.pack_into('<Q', b, 40, size - ksz)
        struct.pack_into('<I', b, 60, zlib.crc32(bytes(b[:60])))
        f.seek(0)
        with open(out, 'wb') as o:
            o.write(b[:hdr])
            f.seek(hdr)
            left = kat - hdr
            while left > 0:
                c = f.read(min(left, 1 << 24))
                o.write(c)
                left -= len(c)
            f.seek(kat + ksz)
            while True:
                c = f.read(1 << 24)
                if not c:
                    break
                o.write(c)


def gensim(kv, k, words):
    from gensim.models import KeyedVectors
    m = KeyedVectors.load(kv, mmap='r')
    first = None
    for w in words:
        r = m.most_similar(w, topn=k)
        if first is None:
            first = (w, r)
    w, r = first
    sys.stdout.write(''.join('%s\t%d\t%s\t%.9g\n' % (w, i + 1, x, s)
                             for i, (x, s) in enumerate(r)))


def evict(paths):
    for p in paths:
        fd = os.open(p, os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)


def main():
    a = sys.argv[1:]
    if a[:1] == ['gen'] and len(a) == 6:
        gen(int(a[1]), int(a[2]), int(a[3]), a[4], a[5])
    elif a[:1] == ['strip'] and len(a) == 3:
        strip(a[1], a[2])
    elif a[:1] == ['gensim'] and len(a) >= 4:
        gensim(a[1], int(a[2]), a[3:])
    elif a[:1] == ['evict']:
        evict(a[1:])
    else:
        sys.exit(__doc__)


main()
