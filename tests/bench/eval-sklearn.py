#!/usr/bin/python3
# eval-sklearn.py - the scikit-learn side of tests/bench/05-eval.sh.
#
#   eval-sklearn.py gen N D K SEED PREFIX
#       N labelled vectors of dimension D in K classes (Gaussian classes
#       around random unit centres, unequal class sizes), half train, half
#       test, written as emb-cat text PREFIX.train.txt / PREFIX.test.txt
#       (key "label<TAB>id") and as float32 arrays PREFIX.npz.
#   eval-sklearn.py run PREFIX CLF REPS
#       fit and predict CLF (knn centroid lda lda-svd lda-auto ridge
#       logreg) on the float32 values promoted to float64 (CLF-f32: kept
#       float32); prints "CLF<TAB>accuracy<TAB>median wall seconds<TAB>
#       median CPU seconds" of fit+predict over REPS runs in this one
#       process, after an untimed fit on 300 rows (imports and lazy
#       initialization done).
#   eval-sklearn.py once PREFIX CLF
#       the whole job as a user runs it, for timing the process from
#       outside: imports, np.load of PREFIX.npz, one fit and predict;
#       prints the same line on standard error (the first fit and predict
#       of a fresh process).
#   eval-sklearn.py real TRAIN.txt TEST.txt CLF
#       the same on emb-cat text files (label in key field 1).
import sys, time
import numpy as np


def gen(n, d, k, seed, prefix):
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((k, d))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    w = rng.uniform(0.5, 1.5, k)
    y = rng.choice(k, size=n, p=w / w.sum())
    X = (centres[y] * 1.0 + 0.3 * rng.standard_normal((n, d))).astype(np.float32)
    half = n // 2
    parts = {"train": slice(0, half), "test": slice(half, n)}
    for name, sl in parts.items():
        with open(f"{prefix}.{name}.txt", "w") as f:
            for i in range(sl.start, sl.stop):
                f.write("c%02d\t%d\t" % (y[i], i))
                f.write(" ".join("%.9g" % v for v in X[i]))
                f.write("\n")
    np.savez(prefix + ".npz", Xtr=X[:half], ytr=y[:half], Xte=X[half:],
             yte=y[half:])


def model(name):
    from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import RidgeClassifier, LogisticRegression
    return {
        "knn": lambda: KNeighborsClassifier(n_neighbors=5, metric="cosine",
                                            algorithm="brute"),
        "centroid": lambda: NearestCentroid(),
        "lda": lambda: LinearDiscriminantAnalysis(solver="lsqr"),
        "lda-auto": lambda: LinearDiscriminantAnalysis(solver="lsqr",
                                                       shrinkage="auto"),
        "lda-svd": lambda: LinearDiscriminantAnalysis(),
        "ridge": lambda: RidgeClassifier(alpha=1.0),
        "logreg": lambda: LogisticRegression(C=1.0, max_iter=1000),
    }[name]


def timed(name, Xtr, ytr, Xte, yte, reps):
    times, cpus = [], []
    make = model(name)
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        m = make().fit(Xtr, ytr)
        p = m.predict(Xte)
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return (float(np.mean(p == yte)), float(np.median(times)),
            float(np.median(cpus)))


def readtext(path):
    ys, xs = [], []
    with open(path) as f:
        for line in f:
            key, vec = line.rstrip("\n").rsplit("\t", 1)
            ys.append(key.split("\t")[0])
            xs.append(np.array(vec.split(), dtype=np.float32))
    return np.array(xs, dtype=np.float64), np.array(ys)


def main():
    if sys.argv[1] == "gen":
        n, d, k, seed = map(int, sys.argv[2:6])
        gen(n, d, k, seed, sys.argv[6])
    elif sys.argv[1] in ("run", "once"):
        z = np.load(sys.argv[2] + ".npz")
        # "-f32": the float32 arrays as they are (scikit-learn keeps
        # float32 for kNN, ridge and LDA), else promoted to float64.
        name = sys.argv[3]
        dt = np.float32 if name.endswith("-f32") else np.float64
        name = name[:-4] if name.endswith("-f32") else name
        Xtr, ytr = z["Xtr"].astype(dt), z["ytr"]
        Xte, yte = z["Xte"].astype(dt), z["yte"]
        if sys.argv[1] == "run":
            # An untimed first fit on a few rows: imports and lazy
            # initialization done before the timed ones.
            timed(name, Xtr[:300], ytr[:300], Xte[:300], yte[:300], 1)
            acc, t, c = timed(name, Xtr, ytr, Xte, yte, int(sys.argv[4]))
            print("%s\t%.6f\t%.6f\t%.6f" % (sys.argv[3], acc, t, c))
        else:
            acc, t, c = timed(name, Xtr, ytr, Xte, yte, 1)
            print("%s\t%.6f\t%.6f\t%.6f" % (sys.argv[3], acc, t, c),
                  file=sys.stderr)
    elif sys.argv[1] == "real":
        Xtr, ytr = readtext(sys.argv[2])
        Xte, yte = readtext(sys.argv[3])
        acc, t, c = timed(sys.argv[4], Xtr, ytr, Xte, yte, 1)
        print("%s\t%.6f\t%.6f\t%.6f" % (sys.argv[4], acc, t, c))


main()
