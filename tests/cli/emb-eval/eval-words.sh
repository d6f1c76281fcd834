# emb-eval: word similarity as gensim 4.2 evaluate_word_pairs computes it
# on the same vectors and pairs: pearson -0.393978, spearman -0.380952,
# OOV ratio 20.0 % (2 of 10 pairs); words matched in upper case, the first
# of "Dog" and "dog" wins.  With -I, "CAR" and "leaf" are unknown too.
emb-cat -r "$TESTDATA/ws-words.txt" >w.emb || exit 1
emb-eval -w "$TESTDATA/ws-pairs.txt" -T ws w.emb
emb-eval -I -w "$TESTDATA/ws-pairs.txt" -T ws w.emb | grep oov
