#!/bin/sh
# 11-bias.sh - emb-bias's WEAT with 10^6 sampled permutations on 300-d
# vectors (WEAT 1 on the bundled GloVe sample: 25 + 25 targets, 25 + 25
# attributes), beside the same test written in numpy (bias-numpy.py: the
# cosine matrix, the associations, then the permutations vectorized in
# chunks of 100,000, argsort of uniform numbers).  Rows, median wall
# seconds over RUNS runs, mean CPU seconds (user + system; the figure to
# read on a busy machine), and the ratios numpy / emb-bias:
#
#   run     the whole process against the whole process (hyperfine):
#           emb-bias reading the stream, the cosines, the permutations,
#           the bootstrap off (-b 0); python starting, importing numpy,
#           reading the text view, the same;
#   strict  emb-bias's whole process against numpy's permutation loop
#           alone, timed inside the process (median of RUNS, wall and
#           process CPU time).
#
# The p-values of both are printed: different random draws, the same
# estimate to within their Monte Carlo error.
set -u
PY=/usr/bin/python3
RUNS=${RUNS:-5}
NPERM=${NPERM:-1000000}
top=$(cd "$(dirname "$0")/../.." && pwd)
D=$BENCHDIR/bias
mkdir -p "$D"
. "$top/tests/bench/hyperfine.sh"
sets=$top/examples/data/bias/weat1.txt
emb-lookup -q -D -e "$top/examples/data/glove-6B-300d-1k.txt.gz" \
    >"$D/glove.emb" || exit 1
emb-cat "$D/glove.emb" >"$D/glove.txt" || exit 1
emb-bias -l -b 0 -n "$NPERM" -w "$sets" "$D/glove.emb" >"$D/emb.tsv" ||
    exit 1
e=$(median "$RUNS" "emb-bias -l -b 0 -n $NPERM -w $sets $D/glove.emb")
n=$(median "$RUNS" "$PY $top/tests/bench/bias-numpy.py $D/glove.txt $sets $NPERM")
: >"$D/np.in"
for i in $(seq "$RUNS"); do
	$PY "$top/tests/bench/bias-numpy.py" "$D/glove.txt" "$sets" "$NPERM" \
	    >"$D/np.out" || exit 1
	awk '{ print $8, $10 }' "$D/np.out" >>"$D/np.in"
done
mid() {	# mid COLUMN: the median of a column of np.in
	awk -v c="$1" '{ print $c }' "$D/np.in" | sort -g |
	    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
nin="$(mid 1) $(mid 2)"
echo "WEAT 1, GloVe 300d, $NPERM permutations:" \
    "emb-bias p $(awk -F '\t' '$3 == "p" { print $4 }' "$D/emb.tsv")" \
    "(se $(awk -F '\t' '$3 == "p_mc_se" { print $4 }' "$D/emb.tsv")," \
    "effect size $(awk -F '\t' '$3 == "effect_size" { printf "%.6f", $4 }' "$D/emb.tsv"));" \
    "numpy $(cut -d' ' -f1-4 "$D/np.out")"
row() {	# row NAME EMB NUMPY: "wall cpu" each
	printf '  %-7s %9.3f %9.3f %7s %9.3f %9.3f %7s\n' "$1" "${2% *}" \
	    "${3% *}" "$(ratio "${3% *}" "${2% *}")" "${2#* }" "${3#* }" \
	    "$(ratio "${3#* }" "${2#* }")"
}
printf '  %-7s %9s %9s %7s %9s %9s %7s\n' row emb-wall np-wall ratio \
    emb-cpu np-cpu ratio
row run "$e" "$n"
row strict "$e" "$nin"
