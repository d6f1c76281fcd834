# From a pipe or a FIFO, a text whose last line has no LF may have been
# cut mid-line by a writer that died (emb(5), TEXT INPUTS): exit 1 naming
# the input and the line, never read as whole.  A gold file cut from
# "3.45" to "3.4" once changed a correlation with exit 0.  The same bytes
# in a regular file are what the file holds and are read (text-lastline);
# whole, with the LF, they are read from a pipe as before.
set -u
cut1() {	# the file $1 less its final LF, as $2
	head -c $(($(wc -c <"$1") - 1)) "$1" >"$2"
}
mkfifo f
# The command "$@" reading the FIFO f, written the bytes of $1.
viafifo() {
	src=$1
	shift
	cat "$src" >f &
	"$@"
	rc=$?
	wait
	return $rc
}
emb-cat -r "$TESTDATA/sts-a.txt" >a.emb || exit 1
emb-cat -r "$TESTDATA/sts-b.txt" >b.emb || exit 1
cut1 "$TESTDATA/sts-gold.txt" gold.txt
viafifo gold.txt emb-eval -p b.emb -g f -T sts a.emb
echo "emb-eval -g, FIFO cut: exit $?"
emb-eval -p b.emb -g gold.txt -T sts a.emb >/dev/null
echo "emb-eval -g, the file: exit $?"
emb-cat -r "$TESTDATA/ws-words.txt" >w.emb || exit 1
cut1 "$TESTDATA/ws-pairs.txt" pairs.txt
viafifo pairs.txt emb-eval -w f -T ws w.emb
echo "emb-eval -w, FIFO cut: exit $?"
emb-eval -w pairs.txt -T ws w.emb >/dev/null
echo "emb-eval -w, the file: exit $?"
printf 'g\t#2\nx\t1 0\ny\t0 1\n' | emb-cat -r >g.emb
printf 'y 2\nx 1' >freq.txt
viafifo freq.txt emb-bov -q -w f g.emb | emb-cat
echo "emb-bov -w, FIFO cut: exit $?"
emb-bov -q -w freq.txt g.emb | emb-cat
echo "emb-bov -w, the file: exit $?"
printf 'y 2\nx 1\n' >freq.txt
viafifo freq.txt emb-bov -q -w f g.emb | emb-cat
echo "emb-bov -w, FIFO whole: exit $?"
printf 'g\t#2\nx\t1 0 0\ny\t0 1 0\n' | emb-cat -r >p.emb
printf '0.3 0.3' >dist.txt
viafifo dist.txt emb-ose -q -p -F f p.emb | emb-cat
echo "emb-ose -F, FIFO cut: exit $?"
cp "$TESTDATA/lookup/tiny.vec" .
printf 'the cat\nthe' | emb-lookup -q -e tiny.vec | emb-cat
echo "emb-lookup, query cut: exit $?"
printf 'the' | emb-lookup -q -w -e tiny.vec | emb-cat
echo "emb-lookup -w, cut: exit $?"
printf 'the cat\nthe\n' | emb-lookup -q -e tiny.vec | emb-cat
echo "emb-lookup, whole: exit $?"
# An embedding file in text, cut inside the last number (4.5 to 4):
# as many components as the others, refused only for its missing LF.
printf 'king 0.5 -1\nqueen 2 0.25\nman 1 4' | emb-lookup -D -e - | emb-cat
echo "GloVe from a pipe, cut: exit $?"
printf '2 2\nking 0.5 -1\nman 1 4' >cut.vec
viafifo cut.vec emb-lookup -D -e f | emb-cat
echo "word2vec text from a FIFO, cut: exit $?"
printf 'x\t1 0 0\ny\t0 1 0\nz\t1 1 1\n' | emb-cat -r >m.emb || exit 1
emb-normalize -q -F m.txt -r 1 m.emb || exit 1
cut1 m.txt mcut.txt
viafifo mcut.txt emb-normalize -q -M f m.emb | emb-cat
echo "model from a FIFO, cut: exit $?"
printf 'X m he man' | emb-bias -w /dev/stdin g.emb
echo "sets from a pipe, cut: exit $?"
printf 'cat cat\ndog dog' | emb-eval -L /dev/stdin -R w.emb w.emb
echo "dictionary from a pipe, cut: exit $?"
exit 0
