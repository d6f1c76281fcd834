# A full disk, met in the middle of a large output (cat-devfull covers the
# final flush of a small one): every way emb-cat writes, to /dev/full, must
# exit 1 with a message.
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "w%d\t%d 1 2 3\n", i, i }' |
    emb-cat -r >big.emb
emb-cat big.emb >/dev/full
echo "text: exit $?"
emb-cat big.emb | emb-cat -r >/dev/full
echo "emb-cat -r: exit $?"
emb-cat -N m.npy big.emb >/dev/full
echo "keys beside .npy: exit $?"
emb-cat -N /dev/full big.emb >/dev/null
echo ".npy file: exit $?"
