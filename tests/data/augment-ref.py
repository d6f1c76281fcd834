#!/usr/bin/python3
# augment-ref.py - an independent reference of emb-augment's drawing
# procedure, written from the man page alone.  It reads the text view of a
# word stream (emb-cat output, ungrouped) on stdin and prints the group and
# member keys emb-augment writes, one per line, group lines ending in
# TAB '#k' as emb-cat prints them (member vectors are left out).
#
#   usage: augment-ref.py k K [label-field [word-field [seed]]]
#
# The expected outputs of tests/cli/emb-augment/emb-augment-ref*.sh were made with it:
#   emb-cat words.emb | python3 augment-ref.py 2 3 2 1 1 > expected
import sys
from itertools import combinations

M = (1 << 64) - 1


def fnv1a(b):
    h = 0xcbf29ce484222325
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & M
    return h


class SplitMix:
    def __init__(self, s):
        self.s = s

    def next(self):
        self.s = (self.s + 0x9e3779b97f4a7c15) & M
        z = self.s
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
        return z ^ (z >> 31)

    def uniform(self, n):
        rem = (1 << 64) % n
        while True:
            x = self.next()
            if rem == 0 or x < (1 << 64) - rem:
                return x % n


def comb(n, k):
    from math import comb as c
    return c(n, k) if k <= n else 0


def main():
    a = sys.argv[1:]
    k, K = int(a[0]), int(a[1])
    lf = int(a[2]) if len(a) > 2 else 2
    wf = int(a[3]) if len(a) > 3 else 1
    seed = int(a[4]) if len(a) > 4 else 1
    order, words, seen = [], {}, set()
    for line in sys.stdin.buffer:
        key = line.rstrip(b"\n").rsplit(b"\t", 1)[0]
        f = key.split(b"\t")
        lab, w = f[lf - 1], f[wf - 1]
        if (lab, w) in seen:
            continue
        seen.add((lab, w))
        if lab not in words:
            order.append(lab)
            words[lab] = []
        words[lab].append(key)
    out = sys.stdout.buffer
    for c, lab in enumerate(order, 1):
        ws = words[lab]
        n = len(ws)
        if K == 0 or n < k:
            continue
        if comb(n, k) <= K:
            sets = list(combinations(range(n), k))
        else:
            rng = SplitMix(seed ^ fnv1a(lab))
            sets, drawn = [], set()
            while len(sets) < K:
                p = list(range(n))
                for i in range(k):
                    r = i + rng.uniform(n - i)
                    p[i], p[r] = p[r], p[i]
                s = tuple(sorted(p[:k]))
                if s not in drawn:
                    drawn.add(s)
                    sets.append(s)
        for j, s in enumerate(sets, 1):
            f = ws[s[0]].split(b"\t")
            f[wf - 1] = b"aug.%d.%d" % (c, j)
            out.write(b"\t".join(f) + b"\t#%d\n" % k)
            for i in s:
                out.write(ws[i] + b"\n")


if __name__ == "__main__":
    main()
