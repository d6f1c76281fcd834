#!/bin/sh
# 04-knn.sh - emb-knn beside its anchors, measured in the same run with the
# same number of threads:
#   - its search with the int8 bounds (the kernel the CPU allows) beside
#     the same search forced onto the float32 GEMM bounds (EMB_KNN_PATH=
#     float: every pair scored by BLIS sgemm as before the int8 bounds, then
#     the few survivors rescored exactly), the share of pairs rescored;
#   - queries/s beside FAISS IndexFlatIP on the same unit-normalized data
#     (Debian python3-faiss);
#   - equivalent GFLOP/s (2 nq nref dim a search) beside BLIS sgemm
#     computing the same product with default settings: the float32 limit;
#   - peak memory (/usr/bin/time -v) beside the size of the reference set;
# on generated data (Gaussian vectors, n = 300): 100,000 references with
# 10,000 queries, 1,000,000 references with 1,000 queries, 100,000
# references nearly equidistant from every query (knn-faiss.py gen-equi:
# the int8 bounds cannot prune, the search must fall back to the float32
# speed), and the bundled real word2vec vectors (13,598 x 300, every word a
# query); then neighbour lists beside scikit-learn's on the bundled real
# vectors.  Times are medians of KNN_RUNS runs (3); threads KNN_THREADS
# (all online), and a set with one thread, where no anchor waits at a
# barrier for a descheduled thread (this machine is shared).  KNN_SETS
# picks the sets (default "100k 1m equi w2v 1t").
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
d=$BENCHDIR/knn
py=/usr/bin/python3
NT=${KNN_THREADS:-$(getconf _NPROCESSORS_ONLN)}
R=${KNN_RUNS:-3}
K=10
mkdir -p "$d"
cc -O2 -o "$d/knn-sgemm" "$here/knn-sgemm.c" -lblis -lm || exit 1
SETS=${KNN_SETS:-100k 1m equi w2v 1t}

gen() {
	[ -s "$d/$1" ] || "$py" "$here/knn-faiss.py" ${4:-gen} "$2" 300 "$3" \
	    "$d/$1" || exit 1
}
gen ref100k.emb 100000 1
gen ref1m.emb 1000000 2
gen q10k.emb 10000 3
gen q1k.emb 1000 4
gen equi100k.emb 100000 5 gen-equi
# The real vectors, keys of 8 bytes as knn-faiss.py reads them.
[ -s "$d/w2v.emb" ] || gzip -dc "$top/examples/data/word2vec-googlenews-300d-13k.vec.gz" |
    awk 'NR > 1 { $1 = sprintf("w%07d", NR - 2); k = $1; $1 = "";
	print k "\t" substr($0, 2) }' | emb-cat -r >"$d/w2v.emb" || exit 1

median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# knn PATH REFS QUERIES THREADS: medians of search seconds, wall, peak RSS,
# CPU seconds and the share rescored, "s w r c p", over R runs.
knn() {
	: >"$d/search" >"$d/wall" >"$d/rss" >"$d/cpu" >"$d/pct"
	i=0
	while [ $i -lt "$R" ]; do
		EMB_KNN_PATH=$1 /usr/bin/time -v -o "$d/time" emb-knn -v \
		    -j "$4" -k $K "$d/$2" "$d/$3" 2>"$d/err" >"$d/out" || {
			cat "$d/err" >&2
			return 1
		}
		sed -n 's/.*searched in \([0-9.]*\) s.*/\1/p' "$d/err" \
		    >>"$d/search"
		sed -n 's/.*exactly (\([0-9.]*\) %).*/\1/p' "$d/err" >>"$d/pct"
		awk -F ': ' '/Elapsed/ { n = split($2, t, ":");
		    s = 0; for (j = 1; j <= n; j++) s = s * 60 + t[j];
		    print s }' "$d/time" >>"$d/wall"
		awk '/Maximum resident/ { print $NF }' "$d/time" >>"$d/rss"
		awk '/User time|System time/ { s += $NF } END { print s }' \
		    "$d/time" >>"$d/cpu"
		i=$((i + 1))
	done
	sed -n 's/^emb-knn: \(.*\) bounds:.*/\1/p' "$d/err" >"$d/kernel"
	echo "$(median <"$d/search") $(median <"$d/wall") \
	    $(median <"$d/rss") $(median <"$d/cpu") $(median <"$d/pct")"
}

# bench REFS QUERIES NREF NQ THREADS
bench() {
	T=$5
	# FAISS and BLIS run their OpenMP teams with the same thread count.
	OMP_NUM_THREADS=$T BLIS_NUM_THREADS=$T
	export OMP_NUM_THREADS BLIS_NUM_THREADS
	n=$(knn "" "$1" "$2" "$T") || return 1
	kern=$(cat "$d/kernel")
	o=$(knn float "$1" "$2" "$T") || return 1
	f=$(/usr/bin/time -v -o "$d/ftime" "$py" "$here/knn-faiss.py" \
	    search "$d/$1" "$d/$2" $K "$T" "$R") || return 1
	fr=$(awk '/Maximum resident/ { print $NF }' "$d/ftime")
	g=$("$d/knn-sgemm" "$3" "$4" 300 "$T" "$R") || return 1
	echo "$3 $4 $n $o $f $fr $g $(wc -c <"$d/$1")" | awk -v K=$K \
	    -v T="$T" -v kern="$kern" -v name="$6" '{
	    nref = $1; nq = $2;
	    ns = $3; nw = $4; nr = $5; nc = $6; np = $7;
	    os = $8; ow = $9; or = $10; oc = $11; op = $12;
	    fs = $14; fr = $17; gs = $19; fsize = $21;
	    flop = 2 * nq * nref * 300;
	    refmb = nref * 300 * 4 / 1e6;
	    printf "%s: %d references x 300, %d queries, k = %d, " \
		"%d threads\n", name, nref, nq, K, T;
	    printf "  emb-knn, %-17s %7.3f s %8.0f queries/s %6.1f GFLOP/s" \
		"  rescored %.4f %% of pairs (whole run %.2f s, %.1f CPU s)\n",
		kern, ns, nq / ns, flop / ns / 1e9, np, nw, nc;
	    printf "  emb-knn, float32 GEMM    %7.3f s %8.0f queries/s" \
		" %6.1f GFLOP/s  rescored %.4f %% of pairs\n",
		os, nq / os, flop / os / 1e9, op;
	    printf "  FAISS IndexFlatIP        %7.3f s %8.0f queries/s" \
		" %6.1f GFLOP/s\n", fs, nq / fs, flop / fs / 1e9;
	    printf "  BLIS sgemm               %7.3f s %17s %6.1f GFLOP/s\n",
		gs, "", flop / gs / 1e9;
	    printf "  ratios: int8 / float32 path = %.2f, int8 / FAISS = " \
		"%.2f, int8 / sgemm = %.2f, float32 path / sgemm = %.2f\n",
		os / ns, fs / ns, gs / ns, gs / os;
	    printf "  peak RSS: emb-knn %.0f MB (float32 path %.0f MB), " \
		"FAISS (python) %.0f MB; reference vectors %.0f MB (stream " \
		"file %.0f MB); emb-knn / reference = %.2f\n",
		nr / 1e3, or / 1e3, fr / 1e3, refmb, fsize / 1e6,
		nr * 1e3 / (refmb * 1e6);
	}'
}

echo "load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
for s in $SETS; do
	case $s in
	100k)	bench ref100k.emb q10k.emb 100000 10000 "$NT" "100k" ;;
	1m)	bench ref1m.emb q1k.emb 1000000 1000 "$NT" "1m" ;;
	equi)	bench equi100k.emb q10k.emb 100000 10000 "$NT" \
		    "nearly equidistant" ;;
	w2v)	bench w2v.emb w2v.emb 13598 13598 "$NT" "word2vec" ;;
	1t)	bench ref100k.emb q1k.emb 100000 1000 1 "100k, one thread" ;;
	esac
done
echo "load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"

echo "neighbour lists beside scikit-learn NearestNeighbors (cosine, brute):"
for f in "$top"/examples/data/*.vec.gz "$top"/examples/data/*.txt.gz; do
	[ -e "$f" ] || continue
	"$py" "$here/knn-sklearn.py" compare "$f" $K ||
	    echo "  $f: neighbour lists differ from scikit-learn's"
done
