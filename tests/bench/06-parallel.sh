#!/bin/sh
# 06-parallel: what 2 local GNU parallel jobs gain over 1 on this machine.
#  - the line-oriented pipeline emb-lookup | emb-ose under parallel --pipe
#    on 30,000 lines of 20 words (word2vec vectors of the bundled data,
#    from a store), each stage single-threaded (emb-ose -j 0); beside the
#    serial pipeline without parallel, and beside emb-ose's own threads;
#  - nearest neighbours on 2 shards of 100,000 x 300 references (2,000
#    queries, k = 10, emb-knn -j 1 per shard, merged by emb-knnmerge)
#    beside one emb-knn -j 1 over the whole set, and beside emb-knn -j 2;
#  - the pieces: emb-split -j (joining segments) and emb-split -n 2 on the
#    references, beside cat of the same bytes through a pipe;
#  - the limit: what 2 jobs of fixed CPU-bound work (gzip -9 of the text,
#    once per job) gain over 1 under the same parallel right now, on this
#    shared machine; and the ideal 2 (2 cores).
# Figures are medians of 3 runs (hyperfine), with the mean cpu time (user +
# system) of all processes beside them; ratios are taken in this run.  On a
# loaded machine the limit lines say how much a second job can gain at all.
set -eu
D=$BENCHDIR/parallel
mkdir -p "$D"
top=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
LINES=${PAR_LINES:-30000}
NREF=${PAR_REFS:-100000}
NQ=${PAR_QUERIES:-2000}

for p in parallel hyperfine emb-lookup emb-ose emb-knn; do
	command -v $p >/dev/null || { echo "06-parallel: $p missing, skipped"; exit 0; }
done

if [ ! -f "$D/w2v.store" ]; then
	emb-lookup -q -e "$top/examples/data/word2vec-googlenews-300d-13k.vec.gz" \
	    -B "$D/w2v.store"
fi
if [ ! -f "$D/text.txt" ]; then
	emb-lookup -q -e "$D/w2v.store" -D | emb-cat -k >"$D/vocab.txt"
	awk -v n="$LINES" 'BEGIN { srand(1) }
	    { w[NR] = $0 }
	    END {
		for (i = 1; i <= n; i++) {
			s = i "\t" w[int(rand() * NR) + 1]
			for (j = 2; j <= 20; j++)
				s = s " " w[int(rand() * NR) + 1]
			print s
		}
	    }' "$D/vocab.txt" >"$D/text.txt"
fi
if [ ! -f "$D/ref.emb" ]; then
	$PY - "$D" "$NREF" "$NQ" <<'PYEOF'
import sys, struct, zlib, numpy as np
d, nref, nq = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(6)
def write(path, m, prefix):
    with open(path, "wb") as f:
        f.write(b"\x89EMB\r\n\x1a\n" + struct.pack("<HHI", 1, 0, m.shape[1]))
        crc, out = 0, []
        for i, row in enumerate(m.astype("<f4")):
            k = (prefix + str(i)).encode()
            out.append(b"V" + struct.pack("<I", len(k)) + k + row.tobytes())
            if len(out) == 4096 or i == len(m) - 1:
                b = b"".join(out)
                crc = zlib.crc32(b, crc)
                f.write(b)
                out = []
        f.write(b"E" + struct.pack("<QI", len(m), crc))
write(d + "/ref.emb", rng.standard_normal((nref, 300), dtype=np.float32), "r")
write(d + "/q.emb", rng.standard_normal((nq, 300), dtype=np.float32), "q")
PYEOF
	emb-split -n 2 -o "$D/ref%d.emb" "$D/ref.emb"
	cat "$D/ref1.emb" "$D/ref2.emb" >"$D/refcat.emb"
fi

# Check once that the parallel runs give the serial bytes.
L="emb-lookup -q -e $D/w2v.store -f 1"
emb-lookup -q -e "$D/w2v.store" -f 1 "$D/text.txt" | emb-ose -q -j 0 >"$D/serial.emb"
parallel -j2 --pipe -k --block 1M "$L | emb-ose -q -j 0" <"$D/text.txt" |
    emb-split -j | cmp - "$D/serial.emb"
emb-knn -j 1 -k 10 "$D/ref.emb" "$D/q.emb" >"$D/serial.txt" 2>/dev/null
parallel -j2 -k --tag "emb-knn -j 1 -k 10 $D/ref{}.emb $D/q.emb 2>/dev/null" \
    ::: 1 2 | emb-knnmerge | cmp - "$D/serial.txt"

# Linux groups processes by session for scheduling (autogroup): all the
# jobs of one session share one session's slice of a busy machine.  Each
# case is therefore also run with every job in a session of its own
# (setsid), as jobs on separate machines or separate logins would be.
P="parallel --pipe -k --block 1M"
OSE="$L | emb-ose -q -j 0"
GZ="gzip -9 <$D/text.txt >/dev/null; : {}"
KNN="emb-knn -j 1 -k 10 $D/ref{}.emb $D/q.emb 2>/dev/null"
load0=$(cut -d' ' -f1 /proc/loadavg)
hyperfine --style basic --runs 3 --warmup 1 --export-json "$D/times.json" \
    -n serial "$L $D/text.txt | emb-ose -q -j 0 >/dev/null" \
    -n p1 "$P -j1 '$OSE' <$D/text.txt >/dev/null" \
    -n p2 "$P -j2 '$OSE' <$D/text.txt >/dev/null" \
    -n p1s "$P -j1 'setsid -w sh -c \"$OSE\"' <$D/text.txt >/dev/null" \
    -n p2s "$P -j2 'setsid -w sh -c \"$OSE\"' <$D/text.txt >/dev/null" \
    -n threads "$L $D/text.txt | emb-ose -q -j 2 >/dev/null" \
    -n gz1 "parallel -j1 '$GZ' ::: 1 2" \
    -n gz2 "parallel -j2 '$GZ' ::: 1 2" \
    -n gz1s "parallel -j1 'setsid -w sh -c \"$GZ\"' ::: 1 2" \
    -n gz2s "parallel -j2 'setsid -w sh -c \"$GZ\"' ::: 1 2" \
    -n knn "emb-knn -j 1 -k 10 $D/ref.emb $D/q.emb >/dev/null 2>&1" \
    -n knn1 "parallel -j1 -k --tag '$KNN' ::: 1 2 | emb-knnmerge >/dev/null" \
    -n knn2 "parallel -j2 -k --tag '$KNN' ::: 1 2 | emb-knnmerge >/dev/null" \
    -n knn1s "parallel -j1 -k --tag 'setsid -w sh -c \"$KNN\"' ::: 1 2 | emb-knnmerge >/dev/null" \
    -n knn2s "parallel -j2 -k --tag 'setsid -w sh -c \"$KNN\"' ::: 1 2 | emb-knnmerge >/dev/null" \
    -n knnthreads "emb-knn -j 2 -k 10 $D/ref.emb $D/q.emb >/dev/null 2>&1" \
    -n cat "cat $D/refcat.emb | cat >/dev/null" \
    -n join "emb-split -j $D/refcat.emb | cat >/dev/null" \
    -n split "emb-split -n 2 -o $D/s%d.emb $D/ref.emb" \
    >"$D/hyperfine.log" 2>&1 || { cat "$D/hyperfine.log"; exit 1; }
load1=$(cut -d' ' -f1 /proc/loadavg)
echo "load average $load0 before, $load1 after, on $(nproc) cores"

$PY - "$D/times.json" "$LINES" "$NREF" "$NQ" $(wc -c <"$D/ref.emb") <<'PYEOF'
import sys, json, statistics
res = json.load(open(sys.argv[1]))["results"]
t = {r["command"]: statistics.median(r["times"]) for r in res}
cpu = {r["command"]: r["user"] + r["system"] for r in res}
lines, nref, nq, size = map(int, sys.argv[2:6])
def row(name, what, base=None, extra=""):
    s = "%-46s %7.3f s (cpu %6.2f s)" % (what, t[name], cpu[name])
    if base:
        s += "  %5.2fx %s" % (t[base] / t[name], extra)
    print(s)
def pair(one, two, what):
    row(one, what + " -j1")
    row(two, what + " -j2", one, "over -j1")
print("lookup | ose, %d lines x 20 words (300d), single-threaded stages:"
      % lines)
row("serial", "serial pipeline (no parallel)")
pair("p1", "p2", "parallel --pipe")
pair("p1s", "p2s", "parallel --pipe, a session per job,")
row("threads", "serial, emb-ose -j 2 (its own threads)", "serial", "of serial")
print("limit: 2 jobs of gzip -9 of the text (fixed work), under parallel:")
pair("gz1", "gz2", "parallel")
pair("gz1s", "gz2s", "parallel, a session per job,")
print("nearest neighbours, %d x 300 references, %d queries, k = 10, "
      "2 shards merged:" % (nref, nq))
row("knn", "emb-knn -j 1, whole set (no parallel)")
pair("knn1", "knn2", "parallel")
pair("knn1s", "knn2s", "parallel, a session per job,")
row("knnthreads", "emb-knn -j 2, whole set (its own threads)", "knn",
    "of -t 1")
print("the pieces, on the references (%.0f MB):" % (size / 1e6))
row("cat", "cat | cat (pipe limit)")
for n, what in (("join", "emb-split -j (2 segments to 1) | cat"),
                ("split", "emb-split -n 2 (reads the file twice)")):
    print("%-46s %7.3f s  %5.2f of cat, %.0f MB/s"
          % (what, t[n], t["cat"] / t[n], size / 1e6 / t[n]))
print("speed-up of 2 jobs over 1 (one session / a session per job): "
      "lookup|ose %.2fx / %.2fx, knn shards %.2fx / %.2fx; "
      "gzip limit %.2fx / %.2fx; ideal 2.00x"
      % (t["p1"] / t["p2"], t["p1s"] / t["p2s"], t["knn1"] / t["knn2"],
         t["knn1s"] / t["knn2s"], t["gz1"] / t["gz2"], t["gz1s"] / t["gz2s"]))
PYEOF
