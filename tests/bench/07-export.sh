#!/bin/sh
# 07-export.sh - emb-cat -f: a stream of 400,000 x 300 vectors written as
# word2vec binary (and text), beside gensim's save_word2vec_format
# (binary=True) on the same vectors, read from a .npy and its keys; the
# save alone is timed inside Python too, without the import and the load.
# emb-cat reads a file twice (check and count, then write) and spools a
# pipe: both are timed.
# Both files must read back to the same stream through emb-lookup -D.
#
# The machine is shared: beside each median wall time the script prints
# the CPU time (user + system) of the same runs, and the ratios of both.
#
# Environment: BENCHDIR (from tests/bench/run), EXPORT_ROWS (400000).
set -u
PY=/usr/bin/python3
D=$BENCHDIR/export
N=${EXPORT_ROWS:-400000}
mkdir -p "$D"

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/bench/hyperfine.sh"

line() {	# line WHAT WALL CPU [ANCHORWALL ANCHORCPU]
	printf '%-40s wall %8.3f s  cpu %8.3f s' "$1" "$2" "$3"
	[ $# -gt 3 ] && printf '  gensim/this: wall %sx, cpu %sx' \
	    "$(ratio "$4" "$2")" "$(ratio "$5" "$3")"
	echo
}

# The data: random normal float32, words w0 ... (a stream written
# directly, header, records, trailer with its crc32: see emb(5)).
if [ ! -f "$D/m.emb" ]; then
	$PY - "$D" "$N" <<'PYEOF'
import struct, sys, zlib, numpy as np
d, n = sys.argv[1], int(sys.argv[2])
m = np.random.default_rng(1).standard_normal((n, 300)).astype("<f4")
np.save(d + "/m.npy", m)
with open(d + "/m.keys", "w") as f:
    f.write("".join("w%d\n" % i for i in range(n)))
with open(d + "/m.emb", "wb") as f:
    f.write(b"\x89EMB\r\n\x1a\n" + struct.pack("<HHI", 1, 0, 300))
    crc = 0
    for i in range(n):
        k = b"w%d" % i
        r = b"V" + struct.pack("<I", len(k)) + k + m[i].tobytes()
        crc = zlib.crc32(r, crc)
        f.write(r)
    f.write(b"E" + struct.pack("<QI", n, crc))
PYEOF
fi
cat >"$D/save-gensim.py" <<'PYEOF'
import sys, time, numpy as np
from gensim.models import KeyedVectors
d = sys.argv[1]
m = np.load(d + "/m.npy")
keys = open(d + "/m.keys").read().split("\n")[:-1]
kv = KeyedVectors(m.shape[1], dtype=np.float32)
kv.add_vectors(keys, m)
t = time.perf_counter()
kv.save_word2vec_format(d + "/gensim.bin", binary=True)
print("%.4f" % (time.perf_counter() - t))
PYEOF

set -- $(median_sh 5 "emb-cat -f w2vbin -o $D/emb.bin $D/m.emb")
e_w=$1 e_c=$2
set -- $(median_sh 5 "cat $D/m.emb | emb-cat -f w2vbin >$D/emb-pipe.bin")
p_w=$1 p_c=$2
set -- $(median_sh 3 "$PY $D/save-gensim.py $D")
g_w=$1 g_c=$2
g_save=$(for i in 1 2 3; do $PY "$D/save-gensim.py" "$D"; done | sort -n | sed -n 2p)
set -- $(median_sh 3 "emb-cat -f w2vtext -o $D/emb.txt $D/m.emb")
t_w=$1 t_c=$2

same=same
emb-lookup -D -e "$D/emb.bin" | cmp -s - "$D/m.emb" || same="emb-cat's DIFFERS"
emb-lookup -D -e "$D/gensim.bin" | cmp -s - "$D/m.emb" || same="$same, gensim's DIFFERS"
cmp -s "$D/emb.bin" "$D/emb-pipe.bin" || same="$same, from a pipe DIFFERS"

echo "rows $N x 300, stream $(($(stat -c %s "$D/m.emb") / 1000000)) MB," \
    "word2vec binary $(($(stat -c %s "$D/emb.bin") / 1000000)) MB;" \
    "both read back as the stream: $same"
line "emb-cat -f w2vbin -o (file)" "$e_w" "$e_c" "$g_w" "$g_c"
line "cat | emb-cat -f w2vbin (spooled)" "$p_w" "$p_c" "$g_w" "$g_c"
line "gensim: load .npy, save_word2vec_format" "$g_w" "$g_c"
printf '%-40s wall %8.3f s  gensim save/emb-cat: %sx\n' \
    "gensim: save_word2vec_format alone" "$g_save" "$(ratio "$g_save" "$e_w")"
line "emb-cat -f w2vtext -o (file)" "$t_w" "$t_c"
