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
#   senteval.sh NAME VECTORS PREP OUT [TASKS [CLFS [MLPK]]]
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
#
# Tokens are looked up as they are, then in lower case when missing
# (emb-lookup -l); tokens still missing are left out of their sentence.
# Writes OUT/results.tsv, lines "name method task classifier accuracy"
# (accuracy in percent, as the paper prints it), and OUT/oov.tsv, lines
# "name task lines tokens oov_tokens oov_rate empty_lines".
set -eu
name=$1 vec=$2 prep=$3 out=$4
tasks=${5:-MR CR SUBJ MPQA TREC SST2 SST5 MRPC SICKE}
clfs=${6:-knn,mlp}
mlpk=${7:-10}
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

evaluate() {	# method task stream [emb-eval options]
	m=$1 t=$2 s=$3
	shift 3
	for c in $(echo "$clfs" | tr , ' '); do
		k=10
		[ "$c" = mlp ] && k=$mlpk
		emb-eval -c "$c" -k "$k" -l 2 "$@" -T "$t" "$s"
	done |
	    awk -F '\t' -v OFS='\t' -v n="$name" -v m="$m" -v t="$t" '
		BEGIN { c["knn"] = "KNN"; c["mlp"] = "MLP"
			c["logreg"] = "LogReg"; c["lda"] = "LDA"
			c["centroid"] = "NC"; c["ridge"] = "Ridge" }
		$3 == "accuracy" { printf "%s\t%s\t%s\t%s\t%.2f\n", n, m, t,
		    c[$2], 100 * $4 }'
}

: >"$out/results.tsv"
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
			evaluate $m "$t" "$out/$t.$m.emb" $split \
			    >>"$out/results.tsv"
			rm -f "$out/$t.a.$m.emb" "$out/$t.b.$m.emb"
		done
		rm -f "$out/$t.a.emb" "$out/$t.b.emb"
		;;
	*)
		emb-lookup -l -e "$out/vectors.store" -f 3 "$prep/$t.txt" \
		    >"$out/$t.emb" 2>"$out/$t.log"
		oovline "$t" "$out/$t.log" >>"$out/oov.tsv"
		for m in bov ose; do
			emb-$m <"$out/$t.emb" >"$out/$t.$m.emb" \
			    2>>"$out/compose.log"
			evaluate $m "$t" "$out/$t.$m.emb" $split \
			    >>"$out/results.tsv"
		done
		rm -f "$out/$t.emb"
		;;
	esac
	rm -f "$out/$t".*.emb
done
rm -f "$out/vectors.store"
