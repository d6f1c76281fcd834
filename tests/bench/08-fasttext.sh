#!/bin/sh
# 08-fasttext.sh - emb-lookup on a fastText model (.bin) beside gensim's
# load_facebook_model and "fasttext print-word-vectors" on the same model
# and the same words: 2,000 words, half of them in the vocabulary, half
# unknown (built from their n-grams).  Each program loads the model and
# prints or returns the 2,000 vectors; the store built from the model
# (in-vocabulary words only) is timed too.
#
# The model is synthetic, written by a short numpy script in the layout
# fasttext writes (version 12): FT_WORDS words (default 200,000), dimension
# FT_DIM (100), FT_BUCKET buckets (2,000,000, fastText's default), minn 3,
# maxn 6, random input rows, a zero output matrix: about 0.9 GB, the shape
# of a real model with a smaller vocabulary and dimension than cc.en.300
# (2M words, dimension 300, 7 GB).  Training one that size would take the
# bench longer than the timings themselves.
#
# Each program loads the whole model; emb-lookup also computes the
# vectors of all the model's words as it loads (the store it fills holds
# them), which fastText and gensim compute only when asked: that, random
# reads over the matrix, is most of the difference with fasttext.
# On one run (2 cores, the model in the page cache): emb-lookup 2.1 s,
# fasttext 1.0 s (0.5x), gensim 10.0 s (4.8x), the store 0.03 s.
#
# Environment: BENCHDIR (from tests/bench/run), FT_WORDS, FT_DIM,
# FT_BUCKET.
set -u
PY=/usr/bin/python3
D=$BENCHDIR/fasttext
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${FT_WORDS:-200000}
DIM=${FT_DIM:-100}
BK=${FT_BUCKET:-2000000}
mkdir -p "$D"
command -v fasttext >/dev/null || { echo "fasttext missing: skipped"; exit 0; }
$PY -c 'import gensim' 2>/dev/null || { echo "gensim missing: skipped"; exit 0; }

if [ ! -s "$D/model-$W-$DIM-$BK.bin" ]; then
	$PY - "$D/model-$W-$DIM-$BK.bin" "$W" "$DIM" "$BK" <<'PYEOF'
import struct, sys
import numpy as np
path, nw, dim, bucket = sys.argv[1], *map(int, sys.argv[2:])
rng = np.random.default_rng(1)
with open(path, "wb") as f:
    f.write(struct.pack("<2i", 793712314, 12))
    # dim ws epoch minCount neg wordNgrams loss(ns) model(sg) bucket minn
    # maxn lrUpdateRate, t
    f.write(struct.pack("<12id", dim, 5, 5, 5, 5, 1, 2, 2, bucket, 3, 6,
                        100, 1e-4))
    f.write(struct.pack("<3iqq", nw, nw, 0, nw * 100, -1))
    f.write(b"".join(b"w%dx\0" % i + struct.pack("<qb", nw - i, 0)
                     for i in range(nw)))
    f.write(struct.pack("<?qq", False, nw + bucket, dim))
    for s in range(0, nw + bucket, 100000):
        n = min(100000, nw + bucket - s)
        f.write((rng.standard_normal((n, dim), dtype=np.float32) * 0.1)
                .astype("<f4").tobytes())
    f.write(struct.pack("<?qq", False, nw, dim))
    f.write(np.zeros((nw, dim), "<f4").tobytes())
PYEOF
fi
M=$D/model-$W-$DIM-$BK.bin
awk -v w="$W" 'BEGIN { for (i = 0; i < 1000; i++) {
	printf "w%dx\n", int(i * (w / 1000)); printf "q%dz\n", i } }' >"$D/words"

. "$top/tests/bench/hyperfine.sh"
cat >"$D/load-gensim.py" <<'PYEOF'
import sys
from gensim.models.fasttext import load_facebook_model
m = load_facebook_model(sys.argv[1])
for w in open(sys.argv[2]).read().split():
    m.wv[w]
PYEOF
# hyperfine runs no shell: each command is a small script.
printf 'emb-lookup -q -e %s -o subword -w %s >/dev/null\n' "$M" "$D/words" \
    >"$D/emb.sh"
printf 'fasttext print-word-vectors %s <%s >/dev/null\n' "$M" "$D/words" \
    >"$D/ft.sh"
emb-lookup -q -e "$M" -B "$D/m.store"
printf 'emb-lookup -q -e %s -w %s >/dev/null\n' "$D/m.store" "$D/words" \
    >"$D/store.sh"
echo "model: $W words, $BK buckets, dimension $DIM," \
    "$(($(wc -c <"$M") / 1048576)) MiB; 2,000 words, 1,000 unknown"
set -- $(median 3 "sh $D/emb.sh")
e=$1 ec=$2
set -- $(median 3 "sh $D/ft.sh")
f=$1 fc=$2
set -- $(median 3 "$PY $D/load-gensim.py $M $D/words")
g=$1 gc=$2
set -- $(median 3 "sh $D/store.sh")
s=$1 sc=$2
printf '%-36s wall %7.3f s  cpu %7.3f s\n' "emb-lookup -o subword (.bin)" \
    "$e" "$ec"
printf '%-36s wall %7.3f s  cpu %7.3f s  /emb: %sx wall, %sx cpu\n' \
    "fasttext print-word-vectors" "$f" "$fc" "$(ratio "$f" "$e")" \
    "$(ratio "$fc" "$ec")"
printf '%-36s wall %7.3f s  cpu %7.3f s  /emb: %sx wall, %sx cpu\n' \
    "gensim load_facebook_model + wv[]" "$g" "$gc" "$(ratio "$g" "$e")" \
    "$(ratio "$gc" "$ec")"
printf '%-36s wall %7.3f s  cpu %7.3f s\n' \
    "emb-lookup, store (known words only)" "$s" "$sc"
