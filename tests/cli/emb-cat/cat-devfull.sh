# A full disk is an error: exit 1 with a message, in every direction.
set -u
printf 'a\t1 2\nb\t3 4\n' >x.txt
emb-cat -r x.txt >x.emb
emb-cat x.emb >/dev/full
echo "text: exit $?"
emb-cat -r x.txt >/dev/full
echo "-r: exit $?"
emb-cat -N x.npy x.emb >/dev/full
echo "-N keys: exit $?"
emb-cat -N /dev/full x.emb >/dev/null
echo "-N matrix: exit $?"
