# Class counts that are multiples of 256 (and one class of 257 rows): every
# classifier still knows each class was seen, so a well-separated set is
# classified without error and one class is predicted as a constant.
awk 'BEGIN { for (i = 0; i < 256; i++) printf "a%d\tA\t%g %g\n", i,
	10 + i % 7 / 10, i % 5 / 10
    for (i = 0; i < 20; i++) printf "b%d\tB\t%g %g\n", i, i % 3 / 10,
	10 + i % 4 / 10
    for (i = 0; i < 20; i++) printf "c%d\tC\t%g %g\n", i, -10 + i % 3 / 10,
	-10 + i % 4 / 10 }' | emb-cat -r >c3.emb || exit 1
awk 'BEGIN { for (i = 0; i < 257; i++) printf "a%d\tA\t%g %g\n", i,
	1 + i % 7 / 10, i % 5 / 10 }' | emb-cat -r >c1.emb || exit 1
for c in knn centroid lda ridge logreg mlp; do
	emb-eval -l 2 -t c3.emb -c $c --max-epoch 20 c3.emb | grep -w accuracy
	emb-eval -l 2 -t c3.emb -c $c --max-epoch 20 c1.emb | grep -w accuracy
done
