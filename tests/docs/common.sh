# tests/docs/common.sh - sourced by tests/docs/run in an example's
# directory before the file's own setup: the fixtures the setups share,
# each made once a run in $SHARED and linked here under the name the
# examples use.
W2V=$EXDATA/word2vec-googlenews-300d-13k.vec.gz
GLOVE100=$EXDATA/glove-6B-100d-2.6k.txt.gz

# fixture NAME: make $SHARED/NAME once.
fixture() {
	[ -e "$SHARED/$1" ] && return 0
	case $1 in
	w2v.store)
		emb-lookup -q -e "$W2V" -B "$SHARED/$1" ;;
	glove.store)
		emb-lookup -q -e "$GLOVE100" -B "$SHARED/$1" ;;
	GoogleNews-vectors-negative300.bin.gz)
		emb-lookup -q -e "$(fixture w2v.store; echo "$SHARED/w2v.store")" \
		    -D | emb-cat -f w2vbin -z -o "$SHARED/$1" ;;
	cc.en.300.bin)
		ln -s "$EXDATA/fasttext-senteval-16d.bin.gz" "$SHARED/$1" ;;
	tokens.npy)
		# Token vectors of eight sentences, keyed "id TAB label TAB
		# token", as examples/05-contextual.sh makes them.
		printf '%s\t%s\t%s\n' 1 animal 'the cat sat on the mat' \
		    2 money 'the bank raised its interest rate' \
		    3 animal 'a dog ran in the park' \
		    4 money 'prices rose and the dollar fell' \
		    >"$SHARED/tokens.txt"
		/usr/bin/python3 "$TOP/examples/scripts/contextual.py" \
		    "$GLOVE100" "$SHARED/tokens.txt" "$SHARED/tokens" ;;
	semcat)
		ln -s "$EXDATA/semcat" "$SHARED/$1" ;;
	SentEval)
		# SentEval's data/downstream as its download script lays it
		# out: the bundled TREC and STS16 samples; an MR made of the
		# TREC questions, those asking for a description (DESC) as
		# its positive file, 200 others as its negative one; an MRPC
		# (byte order mark, header) made of the scored STS16 pairs,
		# a paraphrase when scored 3 or more, the first 100 pairs
		# for training.
		d=$SHARED/SentEval/data/downstream
		t=$EXDATA/senteval-sample/TREC/train_5500.label
		sts=$EXDATA/senteval-sample/STS/STS16-en-test
		mkdir -p "$d/MR" "$d/MRPC"
		sed -n 's/^DESC:[^ ]* //p' "$t" >"$d/MR/rt-polarity.pos"
		sed -n '/^DESC:/!s/^[A-Z]*:[^ ]* //p' "$t" | sed -n 1,200p \
		    >"$d/MR/rt-polarity.neg"
		paste "$sts/STS.gs.headlines.txt" \
		    "$sts/STS.input.headlines.txt" | awk -F '\t' \
		    -v OFS='\t' -v d="$d/MRPC/msr_paraphrase_" '
		    BEGIN { h = "\357\273\277Quality\t#1 ID\t#2 ID\t" \
			"#1 String\t#2 String"
			print h >(d "train.txt"); print h >(d "test.txt") }
		    $1 != "" { print ($1 >= 3), 2 * NR, 2 * NR + 1, $2, $3 \
			>(d (++n <= 100 ? "train.txt" : "test.txt")) }'
		ln -s "$EXDATA/senteval-sample/TREC" \
		    "$EXDATA/senteval-sample/STS" "$d/" ;;
	*)
		echo "no fixture $1" >&2; return 1 ;;
	esac
}

# have NAME [AS]: the fixture NAME here, as AS (default NAME).
have() {
	fixture "$1" && ln -s "$SHARED/$1" "${2:-$1}"
}

# sentences N: N lines of bundled text, TREC's questions without their
# labels.  (sed reads to the end: under pipefail, head's early exit
# would fail the pipeline when cut is still writing.)
sentences() {
	cut -d' ' -f2- "$EXDATA/senteval-sample/TREC/train_5500.label" |
	    sed -n "1,$1p"
}

# semcat_train: the training half of the SEMCAT words the word2vec slice
# covers (tests/data/semcat.awk), as a stream keyed "word TAB category".
semcat_train() {
	gzip -dc "$W2V" | awk -v min=50 -f "$TESTDATA/semcat.awk" \
	    "$EXDATA"/semcat/Categories/*.txt - |
	    awk -F '\t' -v OFS='\t' '$2 == "train" { print $3, $1, $4 }' |
	    emb-cat -r
}
