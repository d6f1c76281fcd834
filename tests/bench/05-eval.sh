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
# Rows: knn-f32 is scikit-learn given the float32 arrays (it then computes
# in float32, as emb-eval's kNN does); lda-svd is emb-eval's lda beside
# scikit-learn's default LinearDiscriminantAnalysis() (solver="svd").
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
	printf '  %-9s %8s %8s | %7s %7s %7s %9s | %7s %7s %7s %9s\n' \
	    classifier acc-emb acc-skl emb-run emb-fit skl ratio \
	    emb-run emb-fit skl ratio
	for c in "$@"; do
		# EVAL_ONLY: a space-separated subset of the rows to run.
		case " ${EVAL_ONLY:-$c} " in
		*" $c "*) ;;
		*) continue ;;
		esac
		opt="-c $c"
		sk=$c
		case $c in
		knn-f32) opt="-c knn" ;;
		lda-svd) opt="-c lda" ;;
		lda-auto) opt="-c lda --shrinkage auto" ;;
		mlp) opt="-c mlp --l2 1e-4" ;;
		esac
		emb-eval -v $opt -t "$p.test.emb" "$p.train.emb" \
		    >"$p.$c.out" 2>"$p.$c.err"
		acc=$(awk '$3 == "accuracy" { print $4 }' "$p.$c.out")
		# "..., 0.123 s, 0.045 s CPU)": fit + predict, wall and CPU.
		tin=$(sed -n 's/.*, \([0-9.]*\) s, \([0-9.]*\) s CPU)$/\1 \2/p' \
		    "$p.$c.err" | tail -1)
		hyperfine -N -r "$runs" --export-json "$p.$c.json" \
		    "emb-eval $opt -t $p.test.emb $p.train.emb" >/dev/null 2>&1
		temb=$($PY -c "import json,sys; r = json.load(open(sys.argv[1]))['results'][0]; print(r['median'], r['user'] + r['system'])" "$p.$c.json")
		if [ "$c" = mlp ]; then
			echo "$c $acc $temb $tin" | awk '{ printf "  %-9s %8.4f %8s | %7.3f %7.3f %7s %9s | %7.3f %7.3f %7s %9s\n", $1, $2, "-", $3, $5, "-", "-", $4, $6, "-", "-" }'
			continue
		fi
		skl=$($PY "$SK" run "$p" "$sk" "$runs")
		echo "$c $acc $temb $tin $skl" | awk '{
			printf "  %-9s %8.4f %8.4f | %7.3f %7.3f %7.3f %4.2f/%4.2f | %7.3f %7.3f %7.3f %4.2f/%4.2f\n", \
			    $1, $2, $8, $3, $5, $9, $3 / $9, $5 / $9, \
			    $4, $6, $10, $4 / $10, $6 / $10 }'
	done
}

echo "seconds, medians; run = the whole emb-eval process (hyperfine), fit ="
echo "its fit + predict (-v), skl = scikit-learn fit + predict in-process;"
echo "ratio = emb-eval run / skl and fit / skl (goal <= 0.5); wall | CPU"
# The machine's limit for the closed-form work: BLIS dgemm (through numpy,
# the same library), one 2000^3 product, best of 3.
$PY -c "
import numpy as np, time
a = np.random.rand(2000, 2000); b = np.random.rand(2000, 2000); t = []
for _ in range(3):
    t0 = time.perf_counter(); a @ b; t.append(time.perf_counter() - t0)
print('BLIS dgemm 2000^3: %.1f GFLOP/s' % (2 * 2000**3 / min(t) / 1e9))"
realdata() {
	# Real data: SEMCAT words (categories with at least 50 covered
	# words, 50/50 split per category, tests/data/semcat.awk) with the
	# bundled word2vec GoogleNews subset; accuracies beside
	# scikit-learn's.  kNN can differ where neighbours tie exactly (a
	# word listed in two categories has one vector); logreg within 0.005.
	top=$(cd "$HERE/../.." && pwd)
	R=$D/real
	mkdir -p "$R"
	zcat "$top/examples/data/word2vec-googlenews-300d-13k.vec.gz" |
	    awk -v min=50 -f "$top/tests/data/semcat.awk" \
	    "$top"/examples/data/semcat/Categories/*.txt - >"$R/semcat.txt"
	awk -F '\t' '$2 == "train"' "$R/semcat.txt" >"$R/train.txt"
	awk -F '\t' '$2 == "test"' "$R/semcat.txt" >"$R/test.txt"
	emb-cat -r "$R/semcat.txt" >"$R/semcat.emb"
	printf 'real: SEMCAT x word2vec-googlenews-300d-13k, %d words, %d categories\n' \
	    "$(wc -l <"$R/semcat.txt")" "$(cut -f1 "$R/semcat.txt" | sort -u | wc -l)"
	printf '  %-9s %8s %8s\n' classifier acc-emb acc-skl
	for c in knn centroid lda lda-svd lda-auto ridge logreg; do
		case $c in
		lda-svd) opt="-c lda" ;;
		lda-auto) opt="-c lda --shrinkage auto" ;;
		*) opt="-c $c" ;;
		esac
		acc=$(emb-eval -s 2 -l 1 $opt "$R/semcat.emb" |
		    awk '$3 == "accuracy" { print $4 }')
		skl=$($PY "$SK" real "$R/train.txt" "$R/test.txt" "$c" | cut -f2)
		printf '  %-9s %8.6f %8.6f\n' "$c" "$acc" "$skl"
	done
}

for set in ${EVAL_SETS:-semcat large real}; do
	case $set in
	semcat)	run semcat 3000 "${EVAL_RUNS_SMALL:-7}" knn knn-f32 centroid \
		    lda lda-svd lda-auto ridge logreg mlp ;;
	large)	run large 100000 "${EVAL_RUNS_LARGE:-3}" knn knn-f32 centroid \
		    lda lda-svd lda-auto ridge logreg ;;
	real)	realdata ;;
	esac
done
