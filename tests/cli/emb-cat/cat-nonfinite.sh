# NaN and infinities are refused unless -a allows them, in both directions.
set -u
printf 'a\t1 2\nb\t1 nan\nc\t-inf inf\n' >x.txt
emb-cat -r x.txt >x.emb
echo "-r: exit $?"
emb-cat -r -a x.txt >x.emb
echo "-r -a: exit $?"
emb-cat x.emb
echo "view: exit $?"
emb-cat -a x.emb
echo "view -a: exit $?"
emb-cat -a -N x.npy x.emb
echo "-N -a: exit $?"
emb-cat -N x.npy x.emb >/dev/null
echo "-N: exit $?"
