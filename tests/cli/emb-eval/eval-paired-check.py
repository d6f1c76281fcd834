# eval-paired-check.py - emb-eval --versus against independent
# computations: scipy's exact binomial test for McNemar, an enumeration of
# every swap of the discordant predictions for the exact permutation test,
# and the documented draws (splitmix64, emb_rng_below) redone here for the
# bootstrap and the random permutations, each sample scored by scipy's
# pearsonr and spearmanr on the sample written out with its repeats.
# Prints "ok NAME" per check, or what differs.
#
#   eval-paired-check.py clf OUT PRED TRAIN RES
#   eval-paired-check.py exact OUT PRED TRAIN
#   eval-paired-check.py corr OUT A1 A2 B1 B2 GOLD SUBFIELD RES
#   eval-paired-check.py words OUT WA WB PAIRS RES
import itertools
import math
import sys
import warnings

import numpy as np
from scipy import stats

warnings.simplefilter("ignore")
M64 = (1 << 64) - 1


class Rng:
    def __init__(self, seed):
        self.s = seed & M64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n):
        rem = (1 << 64) % n
        while True:
            x = self.next()
            if rem == 0 or x < (1 << 64) - rem:
                return x % n


def figures(path):
    """task clf metric value lines: {(clf, metric): value}"""
    f = {}
    for line in open(path):
        t = line.rstrip("\n").split("\t")
        if len(t) == 4:
            f[(t[0], t[1], t[2])] = t[3]
    return f


def close(a, b, tol=1e-6):
    if isinstance(b, str):
        b = float(b)
    if math.isnan(a) and math.isnan(b):
        return True
    return abs(a - b) <= tol * max(1.0, abs(a))


def check(name, ok, detail=""):
    print(("ok " if ok else "MISMATCH ") + name + ("" if ok else ": " + detail))


def interval(d, level=0.95):
    d = sorted(d)
    m = len(d)
    k = int(math.floor((1 - level) / 2 * m))
    return d[k], d[m - 1 - k]


def macro_f1(t, p):
    # scikit-learn's f1_score(average="macro") over the labels present
    labels = sorted(set(t) | set(p))
    s = 0.0
    for c in labels:
        tp = sum(1 for a, b in zip(t, p) if a == c and b == c)
        fp = sum(1 for a, b in zip(t, p) if a != c and b == c)
        fn = sum(1 for a, b in zip(t, p) if a == c and b != c)
        s += 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return s / len(labels)


def permp(t, pa, pb, d, nres):
    """The permutation p-value of the macro-F1 difference d: every swap
    of the discordant items when there are at most nres, else nres draws
    (seed 1111), an item swapped when its draw's top bit is set."""
    dis = [i for i in range(len(t)) if pa[i] != pb[i]]
    g1 = Rng(1111)
    allswaps = 2 ** len(dis) <= nres
    swaps = (itertools.product((0, 1), repeat=len(dis)) if allswaps
             else ([g1.next() >> 63 for _ in dis] for _ in range(nres)))
    hits = 0
    for s in swaps:
        xa, xb = list(pa), list(pb)
        for i, sw in zip(dis, s):
            if sw:
                xa[i], xb[i] = pb[i], pa[i]
        dd = macro_f1(t, xa) - macro_f1(t, xb)
        hits += abs(dd) >= abs(d) - 1e-12 * (1 + abs(d))
    if allswaps:
        return hits / 2 ** len(dis), 2 ** len(dis)
    return (hits + 1) / (nres + 1), nres


def predictions(pred, train):
    """Rows in input order: truth, and each name's prediction per clf."""
    order = {}
    for i, line in enumerate(open(train)):
        order["\t".join(line.rstrip("\n").split("\t")[:-1])] = i
    p = {}
    for line in open(pred):
        name, clf, pr, tr, key = line.rstrip("\n").split("\t", 4)
        p.setdefault(clf, {}).setdefault(name, {})[order[key]] = (pr, tr)
    return p


def clf(out, pred, train, nres):
    f = figures(out)
    task = next(k[0] for k in f if k[2] == "mcnemar_p")
    for c, by in predictions(pred, train).items():
        rows = sorted(by["a"])
        t = [by["a"][i][1] for i in rows]
        pa = [by["a"][i][0] for i in rows]
        pb = [by["b"][i][0] for i in rows]
        g = lambda m: f[(task, c, m)]
        b = sum(1 for x, y, z in zip(t, pa, pb) if x == y and x != z)
        cc = sum(1 for x, y, z in zip(t, pa, pb) if x != y and x == z)
        check(c + " mcnemar b c", (b, cc) == (int(g("mcnemar_b")),
                                            int(g("mcnemar_c"))))
        pv = stats.binomtest(b, b + cc, 0.5).pvalue if b + cc else 1.0
        check(c + " mcnemar p = scipy binomtest", close(pv, g("mcnemar_p"),
                                                        1e-5),
              "%g %s" % (pv, g("mcnemar_p")))
        d = macro_f1(t, pa) - macro_f1(t, pb)
        check(c + " macro-F1 difference", close(d, g("macro_f1_diff")))
        p, _ = permp(t, pa, pb, d, nres)
        check(c + " permutation p", close(p, g("macro_f1_p"), 1e-5),
              "%g %s" % (p, g("macro_f1_p")))
        # the bootstrap
        g2 = Rng(1112)
        da, df = [], []
        n = len(t)
        for _ in range(nres):
            idx = [g2.below(n) for _ in range(n)]
            tt = [t[i] for i in idx]
            xa = [pa[i] for i in idx]
            xb = [pb[i] for i in idx]
            da.append((sum(map(str.__eq__, tt, xa)) -
                       sum(map(str.__eq__, tt, xb))) / n)
            df.append(macro_f1(tt, xa) - macro_f1(tt, xb))
        lo, hi = interval(da)
        check(c + " accuracy interval", close(lo, g("accuracy_diff_lo")) and
              close(hi, g("accuracy_diff_hi")), "%g %g" % (lo, hi))
        lo, hi = interval(df)
        check(c + " macro-F1 interval", close(lo, g("macro_f1_diff_lo")) and
              close(hi, g("macro_f1_diff_hi")), "%g %g" % (lo, hi))


def exact(out, pred, train):
    f = figures(out)
    task = next(k[0] for k in f if k[2] == "mcnemar_p")
    for c, by in predictions(pred, train).items():
        rows = sorted(by["a"])
        t = [by["a"][i][1] for i in rows]
        pa = [by["a"][i][0] for i in rows]
        pb = [by["b"][i][0] for i in rows]
        d = macro_f1(t, pa) - macro_f1(t, pb)
        p, m = permp(t, pa, pb, d, 1 << 62)
        g = lambda x: f[(task, c, x)]
        check(c + " exact permutation p, all %d swaps enumerated" % m,
              close(p, g("macro_f1_p"), 1e-5) and
              g("permutations") == "%d:exact" % m,
              "%g %s %s" % (p, g("macro_f1_p"), g("permutations")))


def vectors(path):
    keys, X = [], []
    for line in open(path):
        t = line.rstrip("\n").split("\t")
        keys.append(t[:-1])
        X.append([float(x) for x in t[-1].split()])
    return keys, np.array(X, dtype=np.float32).astype(np.float64)


def cos(u, v):
    nu, nv = np.linalg.norm(u), np.linalg.norm(v)
    return float(u @ v / (nu * nv)) if nu > 0 and nv > 0 else 0.0


def corr(x, y, spear):
    if len(x) < 2 or len(set(x)) < 2 or len(set(y)) < 2:
        return math.nan
    return float((stats.spearmanr if spear else stats.pearsonr)(x, y)[0])


def six(g, s, sub, w):
    """pooled, mean, wmean of pearson and spearman on a sample"""
    ex = [i for i in range(len(g)) for _ in range(w[i])]
    v = [corr([s[i] for i in ex], [g[i] for i in ex], k) for k in (0, 1)]
    per = []
    for u in sorted(set(sub)):
        e = [i for i in ex if sub[i] == u]
        r = [corr([s[i] for i in e], [g[i] for i in e], k) for k in (0, 1)]
        if not any(math.isnan(x) for x in r):
            per.append((r, len(e)))
    W = sum(m for _, m in per)
    for k in (0, 1):
        v.append(sum(r[k] for r, _ in per) / len(per) if per else math.nan)
    for k in (0, 1):
        v.append(sum(r[k] * m for r, m in per) / W if W else math.nan)
    return [v[0], v[1], v[2], v[3], v[4], v[5]]


NAMES = ["pearson_pooled", "spearman_pooled", "pearson_mean",
         "spearman_mean", "pearson_wmean", "spearman_wmean"]


def paired(f, task, g, sa, sb, sub, nres, names, label):
    n = len(g)
    # subsets in order of first appearance, items in input order
    first = []
    for u in sub:
        if u not in first:
            first.append(u)
    sub = [first.index(u) for u in sub]
    groups = [[i for i in range(n) if sub[i] == u] for u in range(len(first))]
    w1 = [1] * n
    obs = [x - y for x, y in zip(six(g, sa, sub, w1), six(g, sb, sub, w1))]
    rng = Rng(1111)
    ds = [[] for _ in range(6)]
    for _ in range(nres):
        w = [0] * n
        for grp in groups:
            for _ in range(len(grp)):
                w[grp[rng.below(len(grp))]] += 1
        a, b = six(g, sa, sub, w), six(g, sb, sub, w)
        for k in range(6):
            if not math.isnan(a[k] - b[k]):
                ds[k].append(a[k] - b[k])
    for k, m in enumerate(names):
        if m is None:
            continue
        d = ds[k]
        hits = sum(abs(x - obs[k]) >= abs(obs[k]) - 1e-12 * (1 + abs(obs[k]))
                   for x in d)
        p = (hits + 1) / (len(d) + 1)
        lo, hi = interval(d)
        get = lambda s: f[(task, "cosine", m + s)]
        check(label + " " + m + " difference, interval, p",
              close(obs[k], get("_diff")) and close(lo, get("_diff_lo")) and
              close(hi, get("_diff_hi")) and close(p, get("_p"), 1e-5),
              "%g [%g %g] %g vs %s [%s %s] %s" % (
                  obs[k], lo, hi, p, get("_diff"), get("_diff_lo"),
                  get("_diff_hi"), get("_p")))
    # Williams' test of the pooled Pearson coefficients
    r12 = stats.pearsonr(sa, g)[0]
    r13 = stats.pearsonr(sb, g)[0]
    r23 = stats.pearsonr(sa, sb)[0]
    det = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    rb = (r12 + r13) / 2
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23) / (
        2 * (n - 1) / (n - 3) * det + rb ** 2 * (1 - r23) ** 3))
    p = 2 * stats.t.sf(abs(t), n - 3)
    check(label + " Williams t and p (scipy t)",
          close(t, f[(task, "cosine", "williams_t")]) and
          close(p, f[(task, "cosine", "williams_p")], 1e-5),
          "%g %g vs %s %s" % (t, p, f[(task, "cosine", "williams_t")],
                              f[(task, "cosine", "williams_p")]))


def sts(out, a1, a2, b1, b2, gold, subf, nres):
    f = figures(out)
    task = next(k[0] for k in f if k[2] == "williams_p")
    ka, A1 = vectors(a1)
    _, A2 = vectors(a2)
    _, B1 = vectors(b1)
    _, B2 = vectors(b2)
    gl = [line.strip() for line in open(gold)]
    keep = [i for i in range(len(gl)) if gl[i] != ""]
    g = [float(gl[i]) for i in keep]
    sa = [cos(A1[i], A2[i]) for i in keep]
    sb = [cos(B1[i], B2[i]) for i in keep]
    sub = [ka[i][subf - 1] for i in keep]
    paired(f, task, g, sa, sb, sub, nres, NAMES, "sts")


def words(out, wa, wb, pairs, nres):
    f = figures(out)
    task = next(k[0] for k in f if k[2] == "williams_p")

    def vocab(path):
        v = {}
        for k, x in zip(*vectors(path)):
            v.setdefault(k[0].upper(), x)
        return v
    va, vb = vocab(wa), vocab(wb)
    g, sa, sb = [], [], []
    for line in open(pairs):
        t = line.split()
        if not t or t[0].startswith("#"):
            continue
        x, y = t[0].upper(), t[1].upper()
        if x in va and y in va and x in vb and y in vb:
            g.append(float(t[2]))
            sa.append(cos(va[x], va[y]))
            sb.append(cos(vb[x], vb[y]))
    names = ["pearson", "spearman", None, None, None, None]
    paired(f, task, g, sa, sb, ["all"] * len(g), nres, names, "words")


mode = sys.argv[1]
if mode == "clf":
    clf(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
elif mode == "exact":
    exact(sys.argv[2], sys.argv[3], sys.argv[4])
elif mode == "corr":
    sts(*sys.argv[2:7], sys.argv[7], int(sys.argv[8]), int(sys.argv[9]))
else:
    words(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5],
          int(sys.argv[6]))
