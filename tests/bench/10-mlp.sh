#!/bin/sh
# 10-mlp: emb-eval's MLP beside SentEval's as PyTorch runs it on the CPU
# (tests/bench/mlp-torch.py: the same network, optimizer, batches, epochs,
# early stopping and weight-decay search, SentEval's SplitClassifier), on
# the same data: SentEval probing tasks of the bundled samples
# (examples/data/senteval-probing), fastText BOV vectors, the training
# lines split into train and dev (every tenth line dev), tested on the
# test lines.  One run each per task and seed: the wall time of the search
# and the final model (data loaded; emb-eval's -v figure, PyTorch's
# perf_counter), summed over the seeds (each seed stops after its own
# number of passes), and the test accuracy, side by side, and the time
# ratio (goal: PyTorch / emb-eval >= 5).  PyTorch's own seed-to-seed spread of the accuracy is
# measured over MLP_SEEDS (default 1 2 3 4 5 1111) and emb-eval's over
# the same seeds; an emb-eval accuracy inside PyTorch's range is what
# "the same accuracy" can mean for a model trained by random batches.
#
# emb-eval runs the search's fits on -j threads (MLP_JOBS, default the
# processors online; the results are the same for every -j) and keeps the
# chosen model instead of fitting it again; PyTorch runs as SentEval
# does, one fit after another, on the threads torch picks
# (torch.get_num_threads(), printed).
set -eu
PY=/usr/bin/python3
HERE=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$HERE/../.." && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
SEEDS=${MLP_SEEDS:-1 2 3 4 5 1111}
JOPT=${MLP_JOBS:+-j $MLP_JOBS}
TASKS=${MLP_TASKS:-past_present sentence_length top_constituents}
VEC=$top/examples/data/fasttext-en-300d-2k.vec.gz
if ! $PY -c 'import torch' 2>/dev/null; then
	echo "10-mlp: python3-torch is not installed (tests/bench/deps)"
	exit 1
fi
echo "threads: emb-eval -j ${MLP_JOBS:-$(getconf _NPROCESSORS_ONLN) (processors online)};" \
    "torch $($PY -c 'import torch; print(torch.get_num_threads())')"
emb-lookup -q -e "$VEC" -B "$OUT/vec.store"
printf '%-17s %5s %5s %5s | %8s %8s %6s | %6s %-13s %6s %-13s\n' task \
    train dev test emb-s torch-s ratio acc acc-range torch \
    torch-range
for t in $TASKS; do
	awk -F '\t' -v OFS='\t' -v t="$t" '
	    { s = $1 == "te" ? "test" : "train"
	      if (s == "train" && ++n % 10 == 0) s = "dev"
	      print t "-" NR, $2, s, $3 }' \
	    "$top/examples/data/senteval-probing/$t.txt" >"$OUT/$t.txt"
	emb-lookup -q -l -e "$OUT/vec.store" -f 3 "$OUT/$t.txt" |
	    emb-bov 2>/dev/null >"$OUT/$t.emb"
	emb-cat -N "$OUT/$t.npy" "$OUT/$t.emb" >"$OUT/$t.keys"
	: >"$OUT/$t.emb.acc"
	for s in $SEEDS; do
		emb-eval $JOPT -v -c mlp -l 2 -s 3 --seed "$s" "$OUT/$t.emb" \
		    2>"$OUT/$t.err" >/dev/null
		sed -n 's/.*: accuracy \([0-9.]*\),.*, \([0-9.]*\) s, .*/\1 \2/p' \
		    "$OUT/$t.err" | sed "s/^/$s /" >>"$OUT/$t.emb.acc"
	done
	$PY "$HERE/mlp-torch.py" "$OUT/$t.npy" "$OUT/$t.keys" 50 $SEEDS \
	    >"$OUT/$t.torch"
	n=$(cut -f3 "$OUT/$t.keys" | sort | uniq -c |
	    awk '{ c[$2] = $1 } END { print c["train"] + 0, c["dev"] + 0, c["test"] + 0 }')
	# Times summed over the seeds (each seed stops after its own number
	# of passes); accuracy of the first seed, spread over all.
	awk -v t="$t" -v n="$n" '
	    FILENAME ~ /acc$/ { if (FNR == 1) ea = $2; et += $3
		if (FNR == 1 || $2 < elo) elo = $2; if (FNR == 1 || $2 > ehi) ehi = $2
		next }
	    { if (FNR == 1) ta = $2; tt += $4
	      if (FNR == 1 || $2 < tlo) tlo = $2; if (FNR == 1 || $2 > thi) thi = $2 }
	    END { split(n, c, " ")
		printf "%-17s %5d %5d %5d | %8.3f %8.3f %6.1f | %6.4f %6.4f-%6.4f %6.4f %6.4f-%6.4f\n",
		    t, c[1], c[2], c[3], et, tt, tt / et, ea, elo, ehi, ta, tlo, thi }' \
	    "$OUT/$t.emb.acc" "$OUT/$t.torch"
done
echo "emb-s, torch-s: seconds of the whole search and final model, summed over"
echo "the seeds; ratio = torch / emb-eval; acc: test accuracy of the first seed;"
echo "ranges: over the seeds $SEEDS"
