#!/bin/sh
# probing-prep.sh PROBING OUT - turn SentEval's probing files
# (PROBING/<task>.txt, lines "split TAB label TAB sentence", split tr, va
# or te) into query lines for emb-lookup, one file per task:
#
#   OUT/<task>.txt   id TAB label TAB split TAB token token ...
#
# split train, dev or test; the sentence split on blanks as SentEval's
# loader does.  A task whose file is missing is left out.  The bundled
# samples have no va lines: the examples then carve the MLP's dev rows
# from training (emb-eval --dev-share).
set -eu
S=$1
O=$2
mkdir -p "$O"
for t in sentence_length word_content tree_depth top_constituents \
    bigram_shift past_present subj_number obj_number odd_man_out \
    coordination_inversion; do
	[ -f "$S/$t.txt" ] || continue
	awk -F '\t' -v t="$t" '
	    BEGIN { sp["tr"] = "train"; sp["va"] = "dev"; sp["te"] = "test" }
	    { sub(/\r$/, ""); s = $NF; gsub(/[ ]+/, " ", s); sub(/^ /, "", s)
	      sub(/ $/, "", s)
	      if (!($1 in sp)) { print FILENAME ": line " NR ": split " $1 \
		  > "/dev/stderr"; exit 1 }
	      printf "%s-%d\t%s\t%s\t%s\n", t, NR, $2, sp[$1], s }' \
	    "$S/$t.txt" >"$O/$t.txt"
done
