#!/bin/sh
# 01-cat: the text view.  emb-cat (stream to text) and emb-cat -r (text to
# stream) on 100,000 x 300 vectors, beside numpy's savetxt/loadtxt on the
# same matrix and beside cat on the same bytes through a pipe (the limit).
# Figures are medians of 5 runs; ratios are taken within this run.
set -eu
D=$BENCHDIR/cat
mkdir -p "$D"
N=${CAT_ROWS:-100000}
PY=/usr/bin/python3

med() {	# med CMD: median wall time of 5 runs, in seconds
	for i in 1 2 3 4 5; do
		s=$(date +%s.%N)
		sh -c "$1" >/dev/null
		e=$(date +%s.%N)
		echo "$e - $s" | bc -l
	done | sort -n | sed -n 3p
}

if [ ! -f "$D/m.emb" ]; then
	$PY - "$D" "$N" <<'PYEOF'
import sys, numpy as np
d, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(1)
m = rng.standard_normal((n, 300)).astype(np.float32)
np.save(d + "/m.npy", m)
with open(d + "/m.txt", "w") as f:
    for i in range(n):
        f.write("w%d\t" % i + " ".join("%.9g" % x for x in m[i]) + "\n")
PYEOF
	emb-cat -r "$D/m.txt" >"$D/m.emb"
fi
emb-cat "$D/m.emb" >"$D/out.txt"
mb=$(stat -c %s "$D/out.txt")

t_cat=$(med "cat $D/out.txt | cat")
t_totext=$(med "emb-cat $D/m.emb | cat")
t_fromtext=$(med "emb-cat -r $D/out.txt | cat")
t_savetxt=$(med "$PY -c \"import numpy as np; np.savetxt('$D/np.txt', np.load('$D/m.npy'), fmt='%.9g')\"")
t_loadtxt=$(med "$PY -c \"import numpy as np; np.loadtxt('$D/out.txt', usecols=range(1, 301), converters={0: lambda s: 0}, dtype=np.float32)\"")

echo "$N $mb $t_cat $t_totext $t_fromtext $t_savetxt $t_loadtxt" | awk '{
	printf "rows %d x 300, text view %.0f MB\n", $1, $2 / 1e6
	printf "%-34s %8.3f s %9.1f MB/s\n", "cat | cat (pipe limit)", $3, $2 / 1e6 / $3
	printf "%-34s %8.3f s %9.1f MB/s  %.2fx numpy savetxt, %.2f of cat\n", \
	    "emb-cat (stream to text)", $4, $2 / 1e6 / $4, $6 / $4, $3 / $4
	printf "%-34s %8.3f s %9.1f MB/s  %.2fx numpy loadtxt, %.2f of cat\n", \
	    "emb-cat -r (text to stream)", $5, $2 / 1e6 / $5, $7 / $5, $3 / $5
	printf "%-34s %8.3f s\n", "numpy savetxt", $6
	printf "%-34s %8.3f s\n", "numpy loadtxt", $7
}'
