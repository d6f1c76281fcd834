#!/bin/sh
# 05-eval: emb-eval beside scikit-learn on the same train/test data: a
# SEMCAT-sized set (3,000 x 300, 30 classes) and a large one (100,000 x
# 300, 30 classes), each split half/half, Gaussian classes around random
# unit centres (tests/bench/eval-sklearn.py gen).  Per classifier, the
# accuracies side by side and these time ratios, in wall and CPU seconds:
#
#   fit     fit + predict against fit + predict, both inside the process,
#           both the first of a fresh process: emb-eval's own figure (-v,
#           after reading its input; median of the runs) against
#           scikit-learn's in eval-sklearn.py once (median of the runs):
#           like for like, the goal (<= 0.5) is on this one;
#   warm    the same emb-eval figure against scikit-learn's fit + predict
#           repeated in one process, after an untimed fit on a few rows
#           (imports and lazy initialization done; median of the runs):
#           the harder comparison, shown beside it;
#   run     the whole process against the whole process (hyperfine):
#           emb-eval reading both streams, fitting, predicting, printing;
#           python starting, importing numpy and scikit-learn, np.load of
#           the .npz, one fit and predict (eval-sklearn.py once);
#   strict  emb-eval's whole process against scikit-learn's warm
#           in-process fit + predict alone.
#
# CPU is user + system time: emb-eval's own for fit, hyperfine's mean for
# run.  emb-eval runs its large steps on -j threads (EVAL_JOBS, default the
# processors online; its own workers, one BLIS thread each); scikit-learn
# uses numpy's BLAS (Debian's BLIS here) as the environment sets it (one
# thread unless BLIS_NUM_THREADS says otherwise).  Both are printed.  The
# floor is cat of both streams.  The MLP has no scikit-learn anchor (it is
# SentEval's PyTorch model): its figures are printed alone.  Rows: knn-f32
# is scikit-learn given the float32 arrays (it then computes in float32,
# as emb-eval's kNN does); lda-svd is emb-eval's lda beside scikit-learn's
# default LinearDiscriminantAnalysis() (solver="svd").
#
# Environment: EVAL_SETS (semcat large real), EVAL_ONLY (a space-separated
# subset of the rows), EVAL_RUNS_SMALL (7), EVAL_RUNS_LARGE (3), EVAL_JOBS.
# Data are read from (and made once in) $BENCHDIR/eval; everything else
# goes to a temporary directory.
set -eu
D=$BENCHDIR/eval
mkdir -p "$D"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
PY=/usr/bin/python3
HERE=$(cd "$(dirname "$0")" && pwd)
SK=$HERE/eval-sklearn.py
JOPT=${EVAL_JOBS:+-j $EVAL_JOBS}
echo "threads: emb-eval -j ${EVAL_JOBS:-$(getconf _NPROCESSORS_ONLN) (default, processors online)};" \
    "scikit-learn BLIS_NUM_THREADS=${BLIS_NUM_THREADS:-unset}" \
    "OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"

# The median of the numbers on standard input.
med() {
	sort -g | awk '{ v[NR] = $1 }
	    END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]
	    else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# "median-wall cpu" of a hyperfine JSON file (cpu: mean user + system).
hf() {
	$PY -c "import json,sys; r = json.load(open(sys.argv[1]))['results'][0]; print(r['median'], r['user'] + r['system'])" "$1"
}

# One table of rows file $1, wall or CPU.  A row: name, the accuracies,
# then wall and CPU seconds of emb-eval's fit, scikit-learn's first fit,
# its warm fit, emb-eval's run, scikit-learn's run.
table() {	# table ROWS wall|cpu
	printf '  %-9s %7s %7s | %7s %7s %5s %7s %5s | %7s %7s %5s | %6s  (%s)\n' \
	    classifier acc-emb acc-skl emb-fit skl-fit ratio skl-warm ratio \
	    emb-run skl-run ratio strict "$2"
	awk -v cpu=$([ "$2" = cpu ] && echo 1 || echo 0) '
	function r(a, b) { return a == "-" || b == "-" || b == 0 ? "-" : sprintf("%.2f", a / b) }
	function t(a) { return a == "-" ? "-" : sprintf("%.3f", a) }
	{
		ef = $(4 + cpu); sf = $(6 + cpu); sw = $(8 + cpu)
		er = $(10 + cpu); sr = $(12 + cpu)
		printf "  %-9s %7s %7s | %7s %7s %5s %7s %5s | %7s %7s %5s | %6s\n",
		    $1, $2, $3, t(ef), t(sf), r(ef, sf), t(sw), r(ef, sw),
		    t(er), t(sr), r(er, sr), r(er, sw)
	}' "$1"
}

run() {	# run NAME ROWS RUNS CLASSIFIERS...
	name=$1 rows=$2 runs=$3
	shift 3
	p=$D/$name
	o=$OUT/$name
	if [ ! -f "$p.test.emb" ]; then
		$PY "$SK" gen "$rows" 300 30 1 "$p"
		emb-cat -r "$p.train.txt" >"$p.train.emb"
		emb-cat -r "$p.test.txt" >"$p.test.emb"
	fi
	hyperfine -N -r "$runs" -w 1 --export-json "$o.cat.json" \
	    "cat $p.train.emb $p.test.emb" >/dev/null 2>&1
	printf '%s: %d x 300, 30 classes, train %d, test %d; cat of both streams %.3f s\n' \
	    "$name" "$rows" $((rows / 2)) $((rows - rows / 2)) \
	    "$(hf "$o.cat.json" | cut -d' ' -f1)"
	: >"$o.rows"
	for c in "$@"; do
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
		# The whole process by hyperfine; -v prints the in-process
		# figure of each run (and of the warm-up, dropped) on stderr.
		hyperfine -N -w 1 -r "$runs" --show-output \
		    --export-json "$o.$c.json" \
		    "emb-eval $JOPT -v $opt -t $p.test.emb $p.train.emb" \
		    >/dev/null 2>"$o.$c.err"
		grep ' s CPU)$' "$o.$c.err" | sed 1d >"$o.$c.v"
		acc=$(sed -n 's/.*: accuracy \([0-9.]*\),.*/\1/p' "$o.$c.v" |
		    tail -1)
		fw=$(sed -n 's/.*, \([0-9.]*\) s, [0-9.]* s CPU)$/\1/p' \
		    "$o.$c.v" | med)
		fc=$(sed -n 's/.*, \([0-9.]*\) s CPU)$/\1/p' "$o.$c.v" | med)
		er=$(hf "$o.$c.json")
		if [ "$c" = mlp ]; then
			echo "$c $acc - $fw $fc - - - - $er - -" >>"$o.rows"
			continue
		fi
		# scikit-learn's whole process, which prints its first fit
		# on stderr; then its warm fit, repeated in one process.
		hyperfine -N -r "$runs" --show-output \
		    --export-json "$o.$c.skl.json" "$PY $SK once $p $sk" \
		    >/dev/null 2>"$o.$c.skl.err"
		sfw=$(awk -F '\t' 'NF == 4 { print $3 }' "$o.$c.skl.err" | med)
		sfc=$(awk -F '\t' 'NF == 4 { print $4 }' "$o.$c.skl.err" | med)
		warm=$($PY "$SK" run "$p" "$sk" "$runs" | cut -f2-)
		echo "$c $acc $fw $fc $sfw $sfc $warm $er $(hf "$o.$c.skl.json")" |
		    awk '{ printf "%s %.4f %.4f %s %s %s %s %s %s %s %s %s %s\n",
			$1, $2, $7, $3, $4, $5, $6, $8, $9, $10, $11, $12, $13 }' \
		    >>"$o.rows"
	done
	table "$o.rows" wall
	table "$o.rows" cpu
}

echo "seconds (medians); fit = fit + predict in the process (skl-fit: the"
echo "first in a fresh process, skl-warm: repeated in one), run = the whole"
echo "process, ratio = emb-eval / scikit-learn (goal: fit <= 0.5), strict ="
echo "emb-eval run / scikit-learn warm fit"
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
	R=$OUT/real
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
		acc=$(emb-eval $JOPT -s 2 -l 1 $opt "$R/semcat.emb" |
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
