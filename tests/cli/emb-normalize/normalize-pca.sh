# Fit a centering + top-component model on one stream (real word vectors),
# apply it to another: the train and test vectors are transformed the
# same way whatever the batch (a vector alone gives the same result), the
# transformed training mean is zero and no component remains along the
# removed directions.
zcat "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" | awk '
	NR == 1 || NR > 1201 { next }
	{ k = index($0, " "); print substr($0, 1, k - 1) "\t" substr($0, k + 1) }' >w.txt
head -n 1000 w.txt | emb-cat -r >train.emb || exit 1
tail -n 200 w.txt | emb-cat -r >test.emb || exit 1
emb-normalize -F model.txt -c -r 2 train.emb || exit 1
sed -n '1,5p' model.txt
awk '{ print $1, NF - 1 }' model.txt | sed -n '6,$p'
emb-normalize -q -M model.txt test.emb >t.emb || exit 1
tail -n 1 w.txt | emb-cat -r | emb-normalize -q -M model.txt | emb-cat >one.txt
emb-cat t.emb | tail -n 1 | cmp - one.txt && echo "alone: same"
emb-normalize -q -M model.txt train.emb | emb-cat | awk -F'\t' '
	{ n = split($2, x, " "); for (k = 1; k <= n; k++) s[k] += x[k]; c++ }
	END { m = 0; for (k = 1; k <= n; k++) if ((s[k] / c)^2 > m) m = (s[k] / c)^2
	      print "mean ok:", sqrt(m) < 1e-6 }'
emb-normalize -q -M model.txt -l test.emb | emb-cat | awk -F'\t' '
	{ n = split($2, x, " "); s = 0; for (k = 1; k <= n; k++) s += x[k] * x[k]
	  if ((s - 1)^2 > 1e-10) bad++ }
	END { print "unit ok:", bad == 0 }'
echo "-- errors"
printf 'g\t1 2\n' | emb-cat -r >d2.emb
emb-normalize -M model.txt d2.emb >/dev/null;		echo "dimension: $?"
printf 'emb-pca 1\ndim 2\nbad\n' >bad.txt
emb-normalize -M bad.txt d2.emb >/dev/null;		echo "bad model: $?"
emb-normalize -F m2.txt -l d2.emb;			echo "-F with -l: $?"
emb-normalize -r 2 d2.emb >/dev/null;			echo "-r without -F: $?"
emb-normalize -F m2.txt -r 3 d2.emb;			echo "-r above dim: $?"
