# emb-eval: bad input exits 1 with a message naming the input and record
# or line; misuse exits 2.
emb-cat -r "$TESTDATA/eval-train.txt" >train.emb || exit 1
emb-cat -r "$TESTDATA/sts-a.txt" >a.emb || exit 1
emb-cat -r "$TESTDATA/sts-b.txt" >b.emb || exit 1
st() { "$@" >/dev/null; echo "exit $?"; }
# A grouped stream.
printf 'g\t#2\nx\t1 2\ny\t3 4\n' | emb-cat -r >grouped.emb
st emb-eval grouped.emb
# No such label field; a bad split value; no test rows.
st emb-eval -l 9 train.emb
st emb-eval -s 1 train.emb
printf 'a\ttrain\t1 2\n' | emb-cat -r | st emb-eval -s 2 -l 1
# STS: keys differ, gold too short, a bad score.
sed 's/^forum	10	/forum	x	/' "$TESTDATA/sts-b.txt" | emb-cat -r >b2.emb
st emb-eval -p b2.emb -g "$TESTDATA/sts-gold.txt" a.emb
st emb-eval -p train.emb -g "$TESTDATA/sts-gold.txt" a.emb
head -5 "$TESTDATA/sts-gold.txt" >short.txt
st emb-eval -p b.emb -g short.txt a.emb
printf '1\n2\n3\n\n5\n6\n7\n8\n\nten\n11\n12\n' >badgold.txt
st emb-eval -p b.emb -g badgold.txt a.emb
# Word pairs: a line without three fields.
printf 'cat dog\n' >badpairs.txt
st emb-eval -w badpairs.txt train.emb
# A truncated stream.
head -c 100 train.emb >trunc.emb
st emb-eval trunc.emb
# The same as a test stream, read on a thread beside the training stream,
# and one of another dimension.
st emb-eval -j 2 -t trunc.emb train.emb
st emb-eval -j 2 -t a.emb train.emb
# Misuse.
st emb-eval -c svm train.emb
st emb-eval -k 1 train.emb
st emb-eval -j 0 train.emb
st emb-eval -p b.emb a.emb
st emb-eval --shrinkage 2 train.emb
st emb-eval a.emb b.emb
# No test rows with the seeds side by side: said once, before any fit.
printf 'a\ttrain\t1 2\nb\ttrain\t3 4\n' | emb-cat -r >notest.emb
st emb-eval -s 2 -l 1 -c mlp --seeds 4 --l2 0.001 -j 2 notest.emb
exit 0
