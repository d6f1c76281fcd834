# emb-augment edge cases: K = 0 (a valid empty stream), k larger than every
# class, k = 1 (each word alone), one class, k equal to the class size,
# an empty input stream, input on stdin; many classes too small, told in
# one warning (how many, the first few).
printf 'a\tx\t1 0\nb\tx\t0 1\nc\tx\t1 1\n' | emb-cat -r >one.emb || exit 1
echo "== K=0"
emb-augment -k 2 -K 0 one.emb | emb-cat -k
emb-augment -k 2 -K 0 one.emb | wc -c
echo "== k=4 > 3 words"
emb-augment -k 4 -K 2 one.emb | emb-cat
echo "== k=1"
emb-augment -k 1 -K 5 one.emb | emb-cat
echo "== k=3 = 3 words, K=1"
emb-augment -k 3 -K 1 -v <one.emb | emb-cat
echo "== one class, k=2, K=2"
emb-augment -k 2 -K 2 - <one.emb | emb-cat
echo "== empty stream"
emb-cat -r -d 2 </dev/null >empty.emb
emb-augment -k 2 -K 3 empty.emb | cmp - empty.emb && echo same
echo "== three fields, the label last, the word second"
printf '7\ta\tx\t1 0\n8\tb\tx\t0 1\n9\tc\ty\t1 1\n' | emb-cat -r |
    emb-augment -k 1 -K 1 -l 3 -w 2 | emb-cat -k
echo "== 40 classes of one word: one warning"
awk 'BEGIN { for (i = 0; i < 40; i++) print "w" i "\tclass" i "\t1 0" }' |
    emb-cat -r | emb-augment -k 2 -K 2 | emb-cat -k | wc -l
