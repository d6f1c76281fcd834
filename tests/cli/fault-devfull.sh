# A full disk: every way emb-cat writes, to /dev/full, must exit 1 with a
# message, small output (caught at the final flush) and large output
# (caught by a write in the middle) alike.
printf 's1\t#1\na\t1 2\n' | emb-cat -r >small.emb
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "w%d\t%d 1 2 3\n", i, i }' |
    emb-cat -r >big.emb
emb-cat -k small.emb >keys.txt
for f in small big; do
	emb-cat $f.emb >/dev/full
	echo "text, $f: exit $?"
	emb-cat $f.emb | emb-cat -r >/dev/full
	echo "emb-cat -r, $f: exit $?"
	emb-cat -N m.npy $f.emb >/dev/full
	echo "keys beside .npy, $f: exit $?"
done
emb-cat -N /dev/full big.emb >/dev/null
echo ".npy file: exit $?"
