#!/bin/sh
# senteval-prep.sh SENTEVAL OUT - turn the SentEval tasks (SentEval's own
# layout and tokenisation) into query lines for emb-lookup:
#
#   id TAB label TAB split TAB token token ...
#
# one file per task (OUT/TASK.txt), two aligned files for the sentence-pair
# tasks (OUT/TASK.a.txt, OUT/TASK.b.txt), and for STS one pair of files per
# subset plus its gold scores (OUT/sts/STS1x.SUBSET.{a,b,gs}.txt, lines
# "id TAB subset TAB sentence"; blank gold lines kept: unscored pairs).  split is train, dev or test, or cv
# for the tasks SentEval evaluates by 10-fold cross-validation (MR, CR, SUBJ,
# MPQA).  Sentences are split on white space as SentEval's loaders do; a
# trailing CR is dropped (SICK's test file has CRLF lines).  Every line
# becomes one query, even when it has no token.  A task whose files are
# missing from SENTEVAL is left out (the bundled sample holds only two).
set -eu
S=$1
O=$2
mkdir -p "$O/sts"

# two files, one label each: MR, CR, SUBJ, MPQA
# have FILE... - all the files exist in SENTEVAL
have() {
	for f; do
		[ -f "$S/$f" ] || return 1
	done
}

binary() {	# task file1 label1 file2 label2
	have "$2" "$4" || return 0
	awk -v t="$1" -v l1="$3" -v l2="$5" '
	    FNR == 1 { f++ }
	    { sub(/\r$/, ""); gsub(/[ \t]+/, " "); sub(/^ /, ""); sub(/ $/, "")
	      printf "%s-%d\t%s\tcv\t%s\n", t, NR, f == 1 ? l1 : l2, $0 }' \
	    "$S/$2" "$S/$4" >"$O/$1.txt"
}
binary MR MR/rt-polarity.pos pos MR/rt-polarity.neg neg
binary CR CR/custrev.pos pos CR/custrev.neg neg
binary SUBJ SUBJ/subj.objective obj SUBJ/subj.subjective subj
binary MPQA MPQA/mpqa.pos pos MPQA/mpqa.neg neg

# TREC: "COARSE:fine tokens", the label is the coarse class.
have TREC/train_5500.label TREC/TREC_10.label &&
awk '
    FNR == 1 { f++ }
    { sub(/\r$/, ""); i = index($0, ":"); lab = substr($0, 1, i - 1)
      s = substr($0, i + 1); sub(/^[^ ]* /, "", s); gsub(/[ \t]+/, " ", s)
      sub(/^ /, "", s); sub(/ $/, "", s)
      printf "TREC-%d\t%s\t%s\t%s\n", NR, lab, f == 1 ? "train" : "test", s }' \
    "$S/TREC/train_5500.label" "$S/TREC/TREC_10.label" >"$O/TREC.txt"

# SST binary: "sentence TAB label"; SST fine: "label sentence".
have SST/binary/sentiment-train SST/binary/sentiment-dev \
    SST/binary/sentiment-test &&
for sp in train dev test; do
	awk -F '\t' -v sp=$sp '
	    { sub(/\r$/, ""); s = $1; gsub(/[ ]+/, " ", s); sub(/^ /, "", s)
	      sub(/ $/, "", s); printf "SST2-%s-%d\t%s\t%s\t%s\n", sp, NR, $2, sp, s }' \
	    "$S/SST/binary/sentiment-$sp"
done >"$O/SST2.txt"
have SST/fine/sentiment-train SST/fine/sentiment-dev SST/fine/sentiment-test &&
for sp in train dev test; do
	awk -v sp=$sp '
	    { sub(/\r$/, ""); i = index($0, " "); s = substr($0, i + 1)
	      gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s)
	      printf "SST5-%s-%d\t%s\t%s\t%s\n", sp, NR, substr($0, 1, i - 1), sp, s }' \
	    "$S/SST/fine/sentiment-$sp"
done >"$O/SST5.txt"

# Pairs: MRPC (Quality, #1 ID, #2 ID, #1 String, #2 String; header line),
# SICK (pair_ID, sentence_A, sentence_B, relatedness, entailment; header).
pairs() {	# task split file labelcol acol bcol
	have "$3" || return 0
	awk -F '\t' -v t="$1" -v sp="$2" -v lc="$4" -v ac="$5" -v bc="$6" \
	    -v a="$O/$1.a.txt" -v b="$O/$1.b.txt" '
	    FNR == 1 { next }
	    { sub(/\r$/, ""); x = $ac; y = $bc
	      gsub(/[ ]+/, " ", x); sub(/^ /, "", x); sub(/ $/, "", x)
	      gsub(/[ ]+/, " ", y); sub(/^ /, "", y); sub(/ $/, "", y)
	      id = t "-" sp "-" (FNR - 1)
	      printf "%s\t%s\t%s\t%s\n", id, $lc, sp, x >>a
	      printf "%s\t%s\t%s\t%s\n", id, $lc, sp, y >>b }' "$S/$3"
}
rm -f "$O"/MRPC.?.txt "$O"/SICKE.?.txt
pairs MRPC train MRPC/msr_paraphrase_train.txt 1 4 5
pairs MRPC test MRPC/msr_paraphrase_test.txt 1 4 5
pairs SICKE train SICK/SICK_train.txt 5 2 3
pairs SICKE dev SICK/SICK_trial.txt 5 2 3
pairs SICKE test SICK/SICK_test_annotated.txt 5 2 3

# STS12-16, the subsets SentEval uses (STS13 without SMT, not distributed).
sts() {	# year subset...
	y=$1
	shift
	for d; do
		f=$S/STS/$y-en-test/STS.input.$d.txt
		g=$S/STS/$y-en-test/STS.gs.$d.txt
		[ -f "$f" ] && [ -f "$g" ] || continue
		awk -F '\t' -v t="$y.$d" -v d="$d" -v a="$O/sts/$y.$d.a.txt" \
		    -v b="$O/sts/$y.$d.b.txt" '
		    { sub(/\r$/, ""); x = $1; y = $2
		      gsub(/[ ]+/, " ", x); sub(/^ /, "", x); sub(/ $/, "", x)
		      gsub(/[ ]+/, " ", y); sub(/^ /, "", y); sub(/ $/, "", y)
		      printf "%s-%d\t%s\t%s\n", t, NR, d, x >a
		      printf "%s-%d\t%s\t%s\n", t, NR, d, y >b }' "$f"
		tr -d '\r' <"$g" >"$O/sts/$y.$d.gs.txt"
	done
}
sts STS12 MSRpar MSRvid SMTeuroparl surprise.OnWN surprise.SMTnews
sts STS13 FNWN headlines OnWN
sts STS14 deft-forum deft-news headlines images OnWN tweet-news
sts STS15 answers-forums answers-students belief headlines images
sts STS16 answer-answer headlines plagiarism postediting question-question
