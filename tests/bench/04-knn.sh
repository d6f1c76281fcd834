#!/bin/sh
# 04-knn.sh - emb-knn beside its anchors, measured in the same run with the
# same number of threads:
#   - queries/s beside FAISS IndexFlatIP on the same unit-normalized data
#     (Debian python3-faiss; goal: at least as fast);
#   - GFLOP/s of the distance computation beside BLIS sgemm computing the
#     same product with default settings (goal: at least 0.7 of it);
#   - peak memory (/usr/bin/time -v) beside the size of the reference set;
# on generated data (Gaussian vectors, n = 300): 100,000 references with
# 10,000 queries, and 1,000,000 references with 1,000 queries; then
# neighbour lists beside scikit-learn's on the bundled real vectors.
# Times are medians of KNN_RUNS runs (3); threads KNN_THREADS (all online),
# and a third set with one thread, where no anchor waits at a barrier for a
# descheduled thread (this machine is shared).  KNN_SETS picks the sets
# (default "100k 1m 1t").
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
SETS=${KNN_SETS:-100k 1m 1t}

gen() {
	[ -s "$d/$1" ] || "$py" "$here/knn-faiss.py" gen "$2" 300 "$3" \
	    "$d/$1" || exit 1
}
gen ref100k.emb 100000 1
gen ref1m.emb 1000000 2
gen q10k.emb 10000 3
gen q1k.emb 1000 4

median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# bench REFS QUERIES NREF NQ THREADS
bench() {
	T=$5
	# FAISS and BLIS run their OpenMP teams with the same thread count.
	OMP_NUM_THREADS=$T BLIS_NUM_THREADS=$T
	export OMP_NUM_THREADS BLIS_NUM_THREADS
	: >"$d/search" >"$d/wall" >"$d/rss"
	i=0
	while [ $i -lt "$R" ]; do
		/usr/bin/time -v -o "$d/time" emb-knn -v -t "$T" -k $K \
		    "$d/$1" "$d/$2" 2>"$d/err" >"$d/out" || {
			cat "$d/err"
			return 1
		}
		sed -n 's/.*searched in \([0-9.]*\) s.*/\1/p' "$d/err" \
		    >>"$d/search"
		awk -F ': ' '/Elapsed/ { n = split($2, t, ":");
		    s = 0; for (j = 1; j <= n; j++) s = s * 60 + t[j];
		    print s }' "$d/time" >>"$d/wall"
		awk '/Maximum resident/ { print $NF }' "$d/time" >>"$d/rss"
		i=$((i + 1))
	done
	ks=$(median <"$d/search")
	kw=$(median <"$d/wall")
	kr=$(median <"$d/rss")
	f=$(/usr/bin/time -v -o "$d/ftime" "$py" "$here/knn-faiss.py" \
	    search "$d/$1" "$d/$2" $K "$T" "$R") || return 1
	fr=$(awk '/Maximum resident/ { print $NF }' "$d/ftime")
	g=$("$d/knn-sgemm" "$3" "$4" 300 "$T" "$R") || return 1
	set -- "$3" "$4" "$ks" "$kw" "$kr" "$f" "$fr" "$g" \
	    "$(wc -c <"$d/$1")"
	echo "$@" | awk -v K=$K -v T="$T" '{
	    nref = $1; nq = $2; ks = $3; kw = $4; kr = $5;
	    fs = $7; fqs = $8; fr = $10; gs = $12; gg = $13; fsize = $14;
	    flop = 2 * nq * nref * 300;
	    refmb = nref * 300 * 4 / 1e6;
	    printf "%d references x 300, %d queries, k = %d, %d threads\n",
		nref, nq, K, T;
	    printf "  emb-knn search     %8.3f s %8.0f queries/s %6.1f GFLOP/s" \
		"  (whole run %.2f s, reading included)\n",
		ks, nq / ks, flop / ks / 1e9, kw;
	    printf "  FAISS IndexFlatIP  %8.3f s %8.0f queries/s %6.1f GFLOP/s" \
		"  emb-knn / FAISS = %.2f (goal >= 1)\n",
		fs, fqs, flop / fs / 1e9, fs / ks;
	    printf "  BLIS sgemm         %8.3f s %17s %6.1f GFLOP/s" \
		"  emb-knn / sgemm = %.2f (goal >= 0.7)\n",
		gs, "", gg, gs / ks;
	    printf "  peak RSS: emb-knn %.0f MB, FAISS (python) %.0f MB;" \
		" reference vectors %.0f MB (stream file %.0f MB);" \
		" emb-knn / reference = %.2f\n",
		kr / 1e3, fr / 1e3, refmb, fsize / 1e6, kr * 1e3 / (refmb * 1e6);
	}'
}

echo "load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
for s in $SETS; do
	case $s in
	100k)	bench ref100k.emb q10k.emb 100000 10000 "$NT" ;;
	1m)	bench ref1m.emb q1k.emb 1000000 1000 "$NT" ;;
	1t)	bench ref100k.emb q1k.emb 100000 1000 1 ;;
	esac
done
echo "load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"

echo "neighbour lists beside scikit-learn NearestNeighbors (cosine, brute):"
for f in "$top"/examples/data/*.vec.gz "$top"/examples/data/*.txt.gz; do
	[ -e "$f" ] || continue
	"$py" "$here/knn-sklearn.py" compare "$f" $K ||
	    echo "  $f: neighbour lists differ from scikit-learn's"
done
