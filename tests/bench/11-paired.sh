#!/bin/sh
# 11-paired: what emb-eval --versus adds to a run.  Two representations
# of the same items (the second the first plus noise): 20,000 rows x 100,
# 10 classes, half train half test, nearest centroid (the fastest
# classifier, so that the tests' share shows); and STS-sized correlations,
# 4,000 pairs in 5 subsets.  Per case: one run of each representation
# alone (A, B) against one --versus run (both, plus the McNemar test, the
# permutation test and the 2,000-sample bootstrap); the figure is
# versus / (A + B), 1.0 meaning the tests cost nothing.  The anchor is the
# same 2,000-sample paired bootstrap of the accuracy difference in numpy
# (vectorized, the draws as one array), timed in the process.  Also the
# MLP over seeds: two threads against one.
set -eu
PY=/usr/bin/python3
HERE=$(cd "$(dirname "$0")" && pwd)
D=$BENCHDIR/paired
mkdir -p "$D"
. "$HERE/hyperfine.sh"
RUNS=${PAIRED_RUNS:-7}
if [ ! -s "$D/tb.emb" ]; then
	$PY - "$D" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
g = np.random.default_rng(1)
n, k, c = 20000, 100, 10
y = g.integers(0, c, n)
mu = g.normal(size=(c, k))
a = mu[y] + 2.5 * g.normal(size=(n, k))
b = a + 1.0 * g.normal(size=(n, k))
for name, x in (("a", a), ("b", b)):
    for part, sl in (("r", slice(0, n // 2)), ("t", slice(n // 2, n))):
        with open("%s/%s%s.txt" % (d, part, name), "w") as f:
            for i in range(n)[sl]:
                f.write("c%d\ti%d\t%s\n" % (y[i], i, " ".join(
                    "%.4f" % v for v in x[i])))
m = 4000
s1 = g.normal(size=(m, k))
s2 = s1 + 1.5 * g.normal(size=(m, k))
gold = ((s1 * s2).sum(1) / np.linalg.norm(s1, axis=1) /
        np.linalg.norm(s2, axis=1) + 0.3 * g.normal(size=m))
noise = [0.4 * g.normal(size=(m, k)) for _ in range(2)]
for name, (u, v) in (("a", (s1, s2)), ("b", (s1 + noise[0], s2 + noise[1]))):
    for part, x in (("1", u), ("2", v)):
        with open("%s/s%s%s.txt" % (d, part, name), "w") as f:
            for i in range(m):
                f.write("sub%d\t%d\t%s\n" % (i % 5, i, " ".join(
                    "%.4f" % w for w in x[i])))
with open("%s/gold.txt" % d, "w") as f:
    f.write("".join("%.4f\n" % v for v in gold))
PY
	for f in ra rb ta tb s1a s1b s2a s2b; do
		emb-cat -r "$D/$f.txt" >"$D/$f.emb"
	done
fi
cd "$D"
line() {	# line NAME "A" "B" "VERSUS"
	a=$(median "$RUNS" "$2" | cut -d' ' -f1)
	b=$(median "$RUNS" "$3" | cut -d' ' -f1)
	v=$(median "$RUNS" "$4" | cut -d' ' -f1)
	$PY -c 'import sys; n = sys.argv[1]; a, b, v = map(float, sys.argv[2:])
print("%-22s A %.3f s  B %.3f s  --versus %.3f s  versus / (A + B) %.2f" % (n, a, b, v, v / (a + b)))' "$1" "$a" "$b" "$v"
}
echo "seconds, medians of $RUNS runs (hyperfine); --resamples 2000"
line "centroid 10k x 100" "emb-eval -j 1 -c centroid -t ta.emb ra.emb" \
    "emb-eval -j 1 -c centroid -t tb.emb rb.emb" \
    "emb-eval -j 1 -c centroid -t ta.emb --versus rb.emb --versus-second tb.emb ra.emb"
line "sts 4000 pairs" "emb-eval -u 1 -p s2a.emb -g gold.txt s1a.emb" \
    "emb-eval -u 1 -p s2b.emb -g gold.txt s1b.emb" \
    "emb-eval -u 1 -p s2a.emb -g gold.txt --versus s1b.emb --versus-second s2b.emb s1a.emb"
# The MLP over three seeds with a fixed weight decay (one fit at a time
# per seed): the seeds side by side on two threads against one thread,
# wall and CPU seconds; 0.5 in wall would be both cores fully used.
mw1=$(median "$RUNS" "emb-eval -j 1 -c mlp --nhid 50 --seeds 3 --l2 0.001 -t ta.emb ra.emb")
mw2=$(median "$RUNS" "emb-eval -j 2 -c mlp --nhid 50 --seeds 3 --l2 0.001 -t ta.emb ra.emb")
$PY -c 'import sys; a, ac, b, bc = map(float, sys.argv[1:])
print("mlp --seeds 3 --l2      -j 1 %.3f s (cpu %.3f)  -j 2 %.3f s (cpu %.3f)  wall -j 2 / -j 1 %.2f" % (a, ac, b, bc, b / a))' $mw1 $mw2
# The anchor: numpy's paired bootstrap of the accuracy difference on the
# predictions of the --versus run.
emb-eval -j 1 -c centroid -t ta.emb --versus rb.emb --versus-second tb.emb \
    --predictions pred.txt ra.emb >/dev/null
$PY - pred.txt <<'PY'
import sys, time
import numpy as np
a, b, t = [], [], []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    (a if f[0] == "a" else b).append(f[2] == f[3])
a = np.array(a, dtype=np.int8); b = np.array(b, dtype=np.int8)
n = len(a)
t0 = time.perf_counter()
g = np.random.default_rng(1)
idx = g.integers(0, n, size=(2000, n))
d = (a[idx].sum(1) - b[idx].sum(1)) / n
lo, hi = np.percentile(d, [2.5, 97.5])
t1 = time.perf_counter()
print("numpy: the accuracy bootstrap alone (2000 x %d) %.3f s" % (n, t1 - t0))
PY
