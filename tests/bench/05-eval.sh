#!/bin/sh
# 05-eval: emb-eval beside scikit-learn on the same train/test data: a
# SEMCAT-sized set (3,000 x 300, 30 classes) and a large one (100,000 x
# 300, 30 classes), each split half/half, Gaussian classes around random
# unit centres (tests/bench/eval-sklearn.py gen).  Per classifier: the
# accuracies side by side and the time ratio emb-eval / scikit-learn.
#
# scikit-learn is timed in-process (fit + predict on float64 arrays already
# in memory, median of runs); emb-eval twice: the whole process (reading
# both streams, fitting, predicting, printing; hyperfine median) and its
# own fit + predict time (-v).  Both use the same BLAS (Debian's BLIS is
# numpy's libblas here) with the same thread settings.  The floor is cat
# of both streams through a pipe.  The MLP has no scikit-learn anchor (it
# is SentEval's PyTorch model): its time and accuracy are printed alone.
set -eu
D=$BENCHDIR/eval
mkdir -p "$D"
PY=/usr/bin/python3
HERE=$(cd "$(dirname "$0")" && pwd)
SK=$HERE/eval-sklearn.py
echo "BLIS_NUM_THREADS=${BLIS_NUM_THREADS:-unset} OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"

run() {	# run NAME ROWS RUNS CLASSIFIERS...
	name=$1 rows=$2 runs=$3
	shift 3
	p=$D/$name
	if [ ! -f "$p.test.emb" ]; then
		$PY "$SK" gen "$rows" 300 30 1 "$p"
		emb-cat -r "$p.train.txt" >"$p.train.emb"
		emb-cat -r "$p.test.txt" >"$p.test.emb"
	fi
	hyperfine -N -r "$runs" -w 1 --export-json "$p.cat.json" \
	    "cat $p.train.emb $p.test.emb" >/dev/null 2>&1 ||
	    hyperfine -r "$runs" --export-json "$p.cat.json" \
	    "cat $p.train.emb $p.test.emb | cat" >/dev/null
	tcat=$($PY -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['median'])" "$p.cat.json")
	printf '%s: %d x 300, 30 classes, train %d, test %d; cat of both streams %.3f s\n' \
	    "$name" "$rows" $((rows / 2)) $((rows - rows / 2)) "$tcat"
	printf '  %-9s %9s %9s %9s %9s %8s %8s\n' classifier acc-emb acc-skl \
	    t-emb t-emb-in t-skl ratio
	for c in "$@"; do
		opt="-c $c"
		sk=$c
		case $c in
		lda-auto) opt="-c lda --shrinkage auto" ;;
		mlp) opt="-c mlp --l2 1e-4" ;;
		esac
		emb-eval -v $opt -t "$p.test.emb" "$p.train.emb" \
		    >"$p.$c.out" 2>"$p.$c.err"
		acc=$(awk '$3 == "accuracy" { print $4 }' "$p.$c.out")
		tin=$(sed -n 's/.*, \([0-9.]*\) s)$/\1/p' "$p.$c.err" | tail -1)
		hyperfine -N -r "$runs" --export-json "$p.$c.json" \
		    "emb-eval $opt -t $p.test.emb $p.train.emb" >/dev/null 2>&1
		temb=$($PY -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['median'])" "$p.$c.json")
		if [ "$c" = mlp ]; then
			printf '  %-9s %9.6f %9s %9.3f %9.3f %8s %8s\n' "$c" \
			    "$acc" - "$temb" "$tin" - -
			continue
		fi
		set -- $($PY "$SK" run "$p" "$sk" "$runs")
		printf '  %-9s %9.6f %9.6f %9.3f %9.3f %8.3f %5.2f/%.2f\n' \
		    "$c" "$acc" "$2" "$temb" "$tin" "$3" \
		    "$(echo "$temb / $3" | bc -l)" "$(echo "$tin / $3" | bc -l)"
	done
}

echo "ratio = emb-eval whole process / scikit-learn fit+predict, then"
echo "        emb-eval fit+predict / scikit-learn fit+predict (goal <= 0.5)"
run semcat 3000 ${EVAL_RUNS_SMALL:-7} knn centroid lda lda-auto ridge logreg mlp
run large 100000 ${EVAL_RUNS_LARGE:-3} knn centroid lda lda-auto ridge logreg
