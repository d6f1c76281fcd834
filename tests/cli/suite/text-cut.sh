# Every text input the suite reads ends its last line with LF (emb(5),
# TEXT INPUTS): one cut mid-line is a truncated input, exit 1 naming the
# file and line, never read as whole.  A gold file cut from "3.45" to
# "3.4" once changed a correlation with exit 0.  The same inputs whole
# (the last line with its LF) are read as before.
set -u
cut1() {	# the file $1 less its final LF, as $2
	head -c $(($(wc -c <"$1") - 1)) "$1" >"$2"
}
emb-cat -r "$TESTDATA/sts-a.txt" >a.emb || exit 1
emb-cat -r "$TESTDATA/sts-b.txt" >b.emb || exit 1
cut1 "$TESTDATA/sts-gold.txt" gold.txt
emb-eval -p b.emb -g gold.txt -T sts a.emb
echo "emb-eval -g, cut: exit $?"
emb-cat -r "$TESTDATA/ws-words.txt" >w.emb || exit 1
cut1 "$TESTDATA/ws-pairs.txt" pairs.txt
emb-eval -w pairs.txt -T ws w.emb
echo "emb-eval -w, cut: exit $?"
printf 'g\t#2\nx\t1 0\ny\t0 1\n' | emb-cat -r >g.emb
printf 'y 2\nx 1' >freq.txt
emb-bov -q -w freq.txt g.emb | emb-cat
echo "emb-bov -w, cut: exit $?"
printf 'y 2\nx 1\n' >freq.txt
emb-bov -q -w freq.txt g.emb | emb-cat
echo "emb-bov -w, whole: exit $?"
printf 'g\t#2\nx\t1 0 0\ny\t0 1 0\n' | emb-cat -r >p.emb
printf '0.3 0.3' >dist.txt
emb-ose -q -p -F dist.txt p.emb | emb-cat
echo "emb-ose -F, cut: exit $?"
cp "$TESTDATA/lookup/tiny.vec" .
printf 'the cat\nthe' | emb-lookup -q -e tiny.vec | emb-cat
echo "emb-lookup, query cut: exit $?"
printf 'the' | emb-lookup -q -w -e tiny.vec | emb-cat
echo "emb-lookup -w, cut: exit $?"
printf 'the cat\nthe\n' | emb-lookup -q -e tiny.vec | emb-cat
echo "emb-lookup, whole: exit $?"
exit 0
