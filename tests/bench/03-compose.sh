#!/bin/sh
# 03-compose.sh - the composition filters: throughput of emb-bov,
# emb-normalize and emb-ose on 100,000 groups of 20 vectors (n = 300)
# beside cat on the same stream through the same pipe (the pipe is the
# limit), emb-ose from a file to /dev/null beside numpy running the same
# formula on the same groups in memory, and the accuracy of emb-ose on real
# word groups beside numpy's SVD least squares.
set -u
PY=/usr/bin/python3
NG=${NG:-100000}
NM=${NM:-20}
D=300
RUNS=${RUNS:-3}
top=$(cd "$(dirname "$0")/../.." && pwd)
S=$BENCHDIR/compose-$NG-$NM.emb
NPY=$BENCHDIR/compose-$NG-$NM.npy

if [ ! -s "$S" ]; then
	echo "generating $NG groups of $NM x $D in $S"
	$PY - "$S" "$NPY" "$NG" "$NM" "$D" <<'PYEOF' || exit 1
import sys, struct, zlib
import numpy as np
path, npy, ng, nm, d = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rng = np.random.default_rng(1)
keep = []
crc = 0
nrec = 0
with open(path, "wb") as f:
    f.write(b"\x89EMB\r\n\x1a\n" + struct.pack("<HHI", 1, 0, d))
    for start in range(0, ng, 1000):
        n = min(1000, ng - start)
        v = rng.standard_normal((n, nm, d), dtype=np.float32)
        if len(keep) < 10:
            keep.append(v)
        parts = []
        for g in range(n):
            k = b"g%d" % (start + g)
            parts.append(b"G" + struct.pack("<I", len(k)) + k + struct.pack("<I", nm))
            for m in range(nm):
                wk = b"w%d" % m
                parts.append(b"V" + struct.pack("<I", len(wk)) + wk + v[g, m].tobytes())
        blob = b"".join(parts)
        crc = zlib.crc32(blob, crc)
        nrec += n * (nm + 1)
        f.write(blob)
    f.write(b"E" + struct.pack("<QI", nrec, crc & 0xffffffff))
np.save(npy, np.concatenate(keep))
PYEOF
fi
size=$(wc -c <"$S")
echo "stream: $NG groups x $NM members x $D, $size bytes"

# Median wall time and mean CPU time (user + system) of a command over
# RUNS runs: "wall cpu".
med() {
	hyperfine -N --style none --runs "$RUNS" --export-json "$BENCHDIR/h.json" \
	    "sh -c '$1'" >/dev/null 2>&1 || { echo 0 0; return; }
	$PY -c 'import json,sys; r = json.load(open(sys.argv[1]))["results"][0]; print(r["median"], r["user"] + r["system"])' \
	    "$BENCHDIR/h.json"
}
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
# The filters grow the pipe they read to 1 MiB (F_SETPIPE_SZ), which
# alone makes the pipe several times faster here; so the limit is cat
# reading the same 1 MiB pipe (cat, exec'd by python after growing its
# standard input), and plain cat | cat is shown beside it.
cat >"$BENCHDIR/bigcat" <<EOF
#!/bin/sh
exec $PY -S -c 'import fcntl, os; fcntl.fcntl(0, 1031, 1 << 20); os.execvp("cat", ["cat"])'
EOF
# Paired runs: each round runs cat | cat, cat on the 1 MiB pipe and every
# filter once, in turn, and a ratio is the median over the rounds of the
# ratio within a round, so that a change in the machine's load between
# rounds (it is shared) moves both sides of a ratio alike.
$PY - "$S" "$BENCHDIR/bigcat" "$RUNS" "$NG" "$size" <<'PYEOF'
import resource, statistics, subprocess, sys, time
S, bigcat, runs, ng, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
cmds = [("cat | cat (64 KiB pipe)", "cat %s | cat >/dev/null" % S),
        ("cat | cat (1 MiB pipe)", "cat %s | sh %s >/dev/null" % (S, bigcat))]
for f in ("emb-bov -q", "emb-bov -q -m unit", "emb-normalize -q", "emb-ose -q", "emb-ose -q -j 0"):
    cmds.append(("cat | " + f, "cat %s | %s >/dev/null" % (S, f)))
def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, shell=True, check=True)
    w = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return w, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
wall = [[] for c in cmds]
cpu = [[] for c in cmds]
for r in range(runs):
    for k, (name, cmd) in enumerate(cmds):
        w, c = run(cmd)
        wall[k].append(w)
        cpu[k].append(c)
med = statistics.median
print("(%d rounds; wall: median; cpu: user + system of both processes of the" % runs)
print(" pipeline, median; \"of cat\": median over the rounds of the ratio to cat on")
print(" the 1 MiB pipe in the same round, in brackets to cat | cat)")
for k, (name, cmd) in enumerate(cmds):
    w, c = med(wall[k]), med(cpu[k])
    line = "%-26s wall %7.3f s %5.0f MB/s" % (name, w, size / w / 1e6)
    if k < 2:
        print(line + "%37s cpu %6.3f s" % ("", c))
        continue
    rs = med([wall[1][i] / wall[k][i] for i in range(runs)])
    rl = med([wall[0][i] / wall[k][i] for i in range(runs)])
    cs = med([cpu[1][i] / cpu[k][i] for i in range(runs)])
    cl = med([cpu[0][i] / cpu[k][i] for i in range(runs)])
    print(line + " %6.0f groups/s %.2f of cat (%.2f)  cpu %6.3f s %.2f of cat (%.2f)" %
          (ng / w, rs, rl, c, cs, cl))
PYEOF

# emb-ose reading the file, against numpy on the same groups in memory.
set -- $(med "emb-ose -q $S >/dev/null")
tose=$1
printf '%-28s wall %7.3f s  %7.0f groups/s   cpu %6.3f s\n' "emb-ose file >/dev/null" \
    "$tose" "$(calc "$NG / $tose")" "$2"
set -- $(med "emb-ose -q -j 0 $S >/dev/null")
tosec0=$2
printf '%-28s wall %7.3f s  %7.0f groups/s   cpu %6.3f s\n' "emb-ose -j 0 file >/dev/null" \
    "$1" "$(calc "$NG / $1")" "$2"
npgs=$($PY - "$NPY" <<'PYEOF'
import sys, time
import numpy as np
g = np.load(sys.argv[1]).astype(np.float64)
def ose(v):
    u = v / np.linalg.norm(v, axis=1, keepdims=True)
    w = (u[-1] - u[:-1]).T
    q, r = np.linalg.qr(w)
    p = u[-1] - q @ (q.T @ u[-1])
    return p / np.linalg.norm(p)
rates, crates = [], []
for rep in range(5):
    t = time.perf_counter()
    c = time.process_time()
    for v in g:
        ose(v)
    rates.append(len(g) / (time.perf_counter() - t))
    crates.append(len(g) / (time.process_time() - c))
print(sorted(rates)[2], sorted(crates)[2])
PYEOF
)
set -- $npgs
printf '%-28s %7.0f groups/s wall, %7.0f groups/s of cpu (median of 5, %s groups in memory, float64 QR)\n' \
    "numpy, same formula" "$1" "$2" \
    "$($PY -c "import numpy as np; print(len(np.load('$NPY')))")"
printf '%-28s %.1fx numpy (wall)\n' "emb-ose file speed-up" "$(calc "$NG / $tose / $1")"
printf '%-28s %.1fx numpy (groups per cpu second, one core each)\n' \
    "emb-ose -j 0 cpu speed-up" "$(calc "$NG / $tosec0 / $2")"

# Accuracy on real word groups against numpy lstsq (SVD): sizes 2..300,
# and 2..64, the sizes emb-ose's fast route takes when it can.
accuracy() {
	zcat "$top/examples/data/word2vec-googlenews-300d-13k.vec.gz" | awk -v ng="$1" -v mmax="$2" -v seed="$3" '
	NR == 1 { next }
	{ w[n++] = $0 }
	n == 6000 { exit }
	END {
		srand(seed)
		for (g = 0; g < ng; g++) {
			m = 2 + int(rand() * (mmax - 1))
			print "g" g "\t#" m
			at = int(rand() * (n - m))
			for (i = 0; i < m; i++) {
				s = w[at + i]; k = index(s, " ")
				print substr(s, 1, k - 1) "\t" substr(s, k + 1)
			}
		}
	}' | emb-cat -r >"$BENCHDIR/words.emb" || exit 1
	emb-ose -q "$BENCHDIR/words.emb" | emb-cat -N "$BENCHDIR/ose.npy" >/dev/null
	emb-cat "$BENCHDIR/words.emb" | $PY -c '
import sys
import numpy as np
x = np.load(sys.argv[1]).astype(np.float64)
groups, cur = [], None
for line in sys.stdin:
    key, rest = line.rstrip("\n").split("\t", 1)
    if rest.startswith("#"):
        cur = []; groups.append(cur)
    else:
        cur.append(np.array(rest.split(), dtype=np.float32).astype(np.float64))
worst_cos, worst_spread = 1.0, 0.0
for v, xo in zip(groups, x):
    v = np.array(v); u = v / np.linalg.norm(v, axis=1, keepdims=True)
    z = np.linalg.lstsq(u, np.ones(len(u)), rcond=None)[0]
    z /= np.linalg.norm(z)
    c = xo @ z / np.linalg.norm(xo)
    d = 1 - u @ xo / np.linalg.norm(xo)
    worst_cos = min(worst_cos, c); worst_spread = max(worst_spread, d.max() - d.min())
print("accuracy, %d real word groups of 2..%s (n = 300): min cosine to numpy lstsq %.12f (1 - %.1e), max spread of distances %.1e" % (len(groups), sys.argv[2], worst_cos, 1 - worst_cos, worst_spread))
' "$BENCHDIR/ose.npy" "$2"
}
accuracy 200 300 7
accuracy 500 64 11
