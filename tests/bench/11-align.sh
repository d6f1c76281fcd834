#!/bin/sh
# 11-align.sh - emb-align beside NumPy: fitting the orthogonal map on
# ALIGN_PAIRS (10,000) pairs of 300-d vectors (emb-align -F, reading both
# streams and the dictionary, against np.load of both arrays, X^t Z,
# np.linalg.svd and U V^t), and mapping ALIGN_N (1,000,000) vectors
# (emb-align -M, stream in and out, against np.load, the product with W
# and the float32 rows written out).  Median wall seconds of ALIGN_RUNS
# (3) runs by hyperfine, and the ratios emb / NumPy (below 1: emb is
# faster).  Data are made once in $BENCHDIR/align.
set -eu
D=$BENCHDIR/align
mkdir -p "$D"
PY=/usr/bin/python3
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/hyperfine.sh"
P=${ALIGN_PAIRS:-10000} N=${ALIGN_N:-1000000} R=${ALIGN_RUNS:-3}
if [ ! -f "$D/big-$N.emb" ] || [ ! -f "$D/tgt-$P.emb" ]; then
	$PY - "$D" "$P" "$N" <<'PYEOF'
import sys
import numpy as np
d, p, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
g = np.random.default_rng(1)
X = g.standard_normal((p, 300)).astype(np.float32)
Q, _ = np.linalg.qr(g.standard_normal((300, 300)))
Z = (X @ Q + 0.1 * g.standard_normal((p, 300))).astype(np.float32)
np.save(d + "/src-%d.npy" % p, X)
np.save(d + "/tgt-%d.npy" % p, Z)
np.save(d + "/big-%d.npy" % n, g.standard_normal((n, 300)).astype(np.float32))
PYEOF
	seq "$P" | sed 's/^/w/' >"$D/keys-$P"
	seq "$N" | sed 's/^/v/' >"$D/keys-$N"
	awk '{ print $1, $1 }' "$D/keys-$P" >"$D/dict-$P.txt"
	emb-cat -n "$D/src-$P.npy" -K "$D/keys-$P" >"$D/src-$P.emb"
	emb-cat -n "$D/tgt-$P.npy" -K "$D/keys-$P" >"$D/tgt-$P.emb"
	emb-cat -n "$D/big-$N.npy" -K "$D/keys-$N" >"$D/big-$N.emb"
fi
cat >"$D/fit.py" <<'PYEOF'
import sys
import numpy as np
X = np.load(sys.argv[1]).astype(np.float64)
Z = np.load(sys.argv[2]).astype(np.float64)
U, _, Vt = np.linalg.svd(X.T @ Z)
np.save(sys.argv[3], U @ Vt)
PYEOF
cat >"$D/map.py" <<'PYEOF'
import sys
import numpy as np
W = np.load(sys.argv[2])
with open("/dev/null", "wb") as f:
    (np.load(sys.argv[1]).astype(np.float64) @ W).astype(np.float32).tofile(f)
PYEOF
emb-align -q -F "$D/m.txt" -d "$D/dict-$P.txt" "$D/src-$P.emb" "$D/tgt-$P.emb"
$PY "$D/fit.py" "$D/src-$P.npy" "$D/tgt-$P.npy" "$D/w.npy"
set -- $(median "$R" "emb-align -q -F $D/m2.txt -d $D/dict-$P.txt $D/src-$P.emb $D/tgt-$P.emb")
fe=$1
set -- $(median "$R" "$PY $D/fit.py $D/src-$P.npy $D/tgt-$P.npy $D/w2.npy")
fn=$1
set -- $(median_sh "$R" "emb-align -q -M $D/m.txt $D/big-$N.emb >/dev/null")
me=$1
set -- $(median "$R" "$PY $D/map.py $D/big-$N.npy $D/w.npy")
mn=$1
printf 'fit %d pairs x 300: emb-align %ss, numpy %ss, ratio %s\n' "$P" "$fe" \
    "$fn" "$(ratio "$fe" "$fn")"
printf 'map %d x 300: emb-align %ss, numpy %ss, ratio %s\n' "$N" "$me" "$mn" \
    "$(ratio "$me" "$mn")"
