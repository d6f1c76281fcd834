# emb-eval: misuse and odd inputs.  An empty -c list and both streams on
# standard input are usage errors (2); an empty stream in
# cross-validation, a directory where a file belongs, and an MLP inner
# fold without training rows are bad input (1), named in the message.
emb-cat -r "$TESTDATA/eval-train.txt" >train.emb || exit 1
emb-cat -r "$TESTDATA/sts-a.txt" >a.emb || exit 1
emb-cat -r "$TESTDATA/sts-b.txt" >b.emb || exit 1
st() { "$@" >/dev/null; echo "exit $?"; }
st emb-eval -c '' train.emb
st emb-eval -c , train.emb
emb-cat -r -d 3 </dev/null >empty.emb || exit 1
st emb-eval empty.emb
st emb-eval -t - - <train.emb
st emb-eval -t - <train.emb
st emb-eval -p - -g "$TESTDATA/sts-gold.txt" <a.emb
mkdir dir
st emb-eval dir
st emb-eval -t dir train.emb
st emb-eval -p b.emb -g dir a.emb
st emb-eval -w dir train.emb
printf 'a\tx\t1 0 0\nb\ty\t0 1 0\n' | emb-cat -r >two.emb || exit 1
st emb-eval -l 2 -k 2 -c mlp two.emb
