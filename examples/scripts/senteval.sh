#!/bin/sh
# senteval.sh - the paper's sentence classification experiment for one
# embedding: each SentEval task's sentences looked up, composed by BOV and
# by OSE, and classified, as SentEval does it: 10-fold cross-validation for
# MR, CR, SUBJ and MPQA; the task's train (dev) and test sets otherwise;
# for the pair tasks MRPC and SICK-E, the features |u - v| and u * v.
# The probing tasks (names with an underscore, probing-prep.sh) take their
# train and test lines; the MLP's dev rows are their dev lines or, when
# there are none (the bundled samples), 10 % of the training lines, as
# the release holds 10,000 dev lines beside 100,000 for training.
#
#   senteval.sh NAME VECTORS PREP OUT [TASKS [CLFS [MLPK [SEEDS]]]]
#
# NAME     the embedding's name in the results
# VECTORS  an embedding file emb-lookup reads
# PREP     the query files senteval-prep.sh made
# OUT      directory for the streams and the results
# TASKS    ("MR CR SUBJ MPQA TREC SST2 SST5 MRPC SICKE")
# CLFS     emb-eval classifiers ("knn,mlp", the paper's; "knn,logreg")
# MLPK     the MLP's folds (10): outer folds of MR, CR, SUBJ and MPQA and
#          inner folds of its weight-decay search wherever there are no
#          dev rows, SentEval's kfold (its own default is 5, its example
#          scripts give 10); the other classifiers keep 10 outer folds
# SEEDS    the MLP's seeds (3): its accuracy is their mean, and the
#          comparison of the two compositions takes each sentence's
#          most frequent class over them (emb-eval --seeds)
#
# Tokens are looked up as they are, then in lower case when missing
# (emb-lookup -l); tokens still missing are left out of their sentence.
# Both compositions of a task go to one emb-eval run (--versus), which
# tests their difference on the same sentences.  Writes OUT/results.tsv,
# lines "name method task classifier accuracy" (accuracy in percent, as
# the paper prints it), OUT/paired.tsv, lines "name task classifier
# diff lo hi mcnemar_p f1_diff f1_lo f1_hi f1_p sd_ose sd_bov seeds"
# (OSE minus BOV in points, the 95 % bootstrap interval, the exact McNemar
# p-value, the macro-F1 difference with its interval and permutation
# p-value, the spread of each over the MLP's seeds), OUT/protocol.tsv,
# emb-eval's protocol line of each figure, and OUT/oov.tsv, lines
# "name task lines tokens oov_tokens oov_rate empty_lines".
set -eu
name=$1 vec=$2 prep=$3 out=$4
tasks=${5:-MR CR SUBJ MPQA TREC SST2 SST5 MRPC SICKE}
clfs=${6:-knn,mlp}
mlpk=${7:-10}
seeds=${8:-3}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"

# A store opens at once: build it once for all the lookups.
emb-lookup -q -e "$vec" -B "$out/vectors.store"

# emb-lookup's summary line to "lines tokens oov rate empty".
oovline() {	# task logfile...
	t=$1
	shift
	cat "$@" | awk -v n="$name" -v t="$t" -v OFS='\t' '
	    / lines, / { for (i = 1; i <= NF; i++) {
		if ($(i + 1) ~ /^lines/) l += $i
		if ($(i + 1) ~ /^tokens/) k += $i
		if ($(i + 1) == "OOV") o += $i
		if ($(i + 1) == "empty") e += $i } }
	    END { printf "%s\t%s\t%d\t%d\t%d\t%.4f\t%d\n", n, t, l, k, o,
		k ? o / k : 0, e }'
}

evaluate() {	# task ose-stream bov-stream [emb-eval options]
	t=$1 so=$2 sb=$3
	shift 3
	for c in $(echo "$clfs" | tr , ' '); do
		k=10 ms=
		[ "$c" = mlp ] && k=$mlpk ms="--seeds $seeds"
		emb-eval -c "$c" -k "$k" -l 2 $ms "$@" --versus "$sb" \
		    --names ose,bov --protocol-note "lookup=as_written,then_lower oov=dropped" \
		    -T "$t" "$so"
	done |
	    awk -F '\t' -v OFS='\t' -v n="$name" -v t="$t" -v out="$out" '
		BEGIN { c["knn"] = "KNN"; c["mlp"] = "MLP"
			c["logreg"] = "LogReg"; c["lda"] = "LDA"
			c["centroid"] = "NC"; c["ridge"] = "Ridge" }
		$1 ~ /\/(ose|bov)$/ { m = substr($1, length(t) + 2) }
		$1 ~ /\/(ose|bov)$/ && $3 == "accuracy" {
		    r[m] = r[m] n OFS m OFS t OFS c[$2] OFS \
			sprintf("%.2f", 100 * $4) "\n" }
		$1 ~ /\/(ose|bov)$/ && $3 == "accuracy_sd" { sd[$2, m] = $4 }
		$1 ~ /\/(ose|bov)$/ && $3 == "seeds" { ns[$2] = $4 }
		$1 ~ /\/(ose|bov)$/ && $3 == "protocol" {
		    print n, m, t, c[$2], $4 >>(out "/protocol.tsv") }
		$1 == t { v[$2, $3] = $4 }
		$1 == t && $3 == "level" {
		    print n, t, c[$2], sprintf("%.2f", 100 * v[$2, "accuracy_diff"]),
			sprintf("%.2f", 100 * v[$2, "accuracy_diff_lo"]),
			sprintf("%.2f", 100 * v[$2, "accuracy_diff_hi"]),
			v[$2, "mcnemar_p"],
			sprintf("%.2f", 100 * v[$2, "macro_f1_diff"]),
			sprintf("%.2f", 100 * v[$2, "macro_f1_diff_lo"]),
			sprintf("%.2f", 100 * v[$2, "macro_f1_diff_hi"]),
			v[$2, "macro_f1_p"],
			sprintf("%.2f", 100 * sd[$2, "ose"]),
			sprintf("%.2f", 100 * sd[$2, "bov"]),
			ns[$2] ? ns[$2] : 1 >>(out "/paired.tsv") }
		END { printf "%s%s", r["bov"], r["ose"] >>(out "/results.tsv") }'
}

: >"$out/results.tsv"
: >"$out/paired.tsv"
: >"$out/protocol.tsv"
: >"$out/oov.tsv"
: >"$out/compose.log"
for t in $tasks; do
	case $t in
	MR|CR|SUBJ|MPQA)
		split=	# 10-fold cross-validation
		;;
	word_content)
		# SentEval's probing split; its MLP has no hidden layer here
		# (probing.py sets nhid 0 for WordContent).
		split="-s 3 --dev-share 0.1 --nhid 0"
		;;
	*_*)	# the probing tasks: train, dev (else 10 % of train), test
		split="-s 3 --dev-share 0.1"
		;;
	*)
		split="-s 3"
		;;
	esac
	case $t in
	MRPC|SICKE)
		for s in a b; do
			emb-lookup -l -e "$out/vectors.store" -f 3 \
			    "$prep/$t.$s.txt" >"$out/$t.$s.emb" \
			    2>"$out/$t.$s.log"
		done
		oovline "$t" "$out/$t.a.log" "$out/$t.b.log" >>"$out/oov.tsv"
		for m in bov ose; do
			for s in a b; do
				emb-$m <"$out/$t.$s.emb" >"$out/$t.$s.$m.emb" \
				    2>>"$out/compose.log"
			done
			emb-pair -i 1 "$out/$t.a.$m.emb" "$out/$t.b.$m.emb" \
			    >"$out/$t.$m.emb"
			rm -f "$out/$t.a.$m.emb" "$out/$t.b.$m.emb"
		done
		evaluate "$t" "$out/$t.ose.emb" "$out/$t.bov.emb" $split
		rm -f "$out/$t.a.emb" "$out/$t.b.emb"
		;;
	*)
		emb-lookup -l -e "$out/vectors.store" -f 3 "$prep/$t.txt" \
		    >"$out/$t.emb" 2>"$out/$t.log"
		oovline "$t" "$out/$t.log" >>"$out/oov.tsv"
		for m in bov ose; do
			emb-$m <"$out/$t.emb" >"$out/$t.$m.emb" \
			    2>>"$out/compose.log"
		done
		evaluate "$t" "$out/$t.ose.emb" "$out/$t.bov.emb" $split
		rm -f "$out/$t.emb"
		;;
	esac
	rm -f "$out/$t".*.emb
done
rm -f "$out/vectors.store"
