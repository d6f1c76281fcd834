# emb-eval --seeds: the MLP over three seeds.  With a split, each seed's
# figures are those of a run with that --seed alone (with folds they are
# not: the folds stay those of --seed); accuracy is their mean,
# accuracy_vote the accuracy of the rows' most frequent class over the
# three runs' predictions (recounted here with awk), and the figures are
# the same on one thread and on two.  --versus then compares the votes.
emb-cat -r "$TESTDATA/eval-split.txt" >split.emb || exit 1
opts="-c mlp -s 2 -l 3 --nhid 8 --max-epoch 40"
for s in 1111 1112 1113; do
	emb-eval $opts --seed $s --predictions p$s.txt split.emb |
	    awk -F '\t' -v s=$s '$3 == "accuracy" { a = $4 }
		$3 == "macro_f1" { f = $4 }
		$3 == "l2" { printf "%s:%s:%s:%s\n", s, a, f, $4 }'
done >alone.txt
emb-eval -j 1 $opts --seeds 3 --predictions vote.txt split.emb >s1.txt ||
    exit 1
emb-eval -j 2 $opts --seeds 3 split.emb >s2.txt || exit 1
cmp s1.txt s2.txt && echo "-j 2: same as -j 1"
awk -F '\t' '$3 == "seed" { print $4 }' s1.txt | cmp - alone.txt &&
    echo "each seed: as run alone"
awk -F '\t' '$3 == "seeds" || $3 == "n_test" { print $3, $4 }' s1.txt
# The mean of the three accuracies, to the printed digits.
awk -F '\t' '$3 == "seed" { split($4, v, ":"); s += v[2]; n++ }
    $3 == "accuracy" { a = $4 }
    END { d = s / n - a; m = "accuracy " a " is not the mean " s / n
	if (d < 5e-7 && d > -5e-7) m = "accuracy: the mean"; print m }' s1.txt
# The vote, from the three predictions files (first seed on a tie).
cat p1111.txt p1112.txt p1113.txt | awk -F '\t' '
    { k = $4 FS $5; if (!(k in first)) { first[k] = $2; o[++n] = k }
      c[k, $2]++; truth[k] = $3; seen[k, $2] }
    END { for (i = 1; i <= n; i++) { k = o[i]; b = first[k]
	    for (x in seen) { split(x, y, SUBSEP)
		if (y[1] == k && c[x] > c[k, b]) b = y[2] }
	    ok += b == truth[k] }
	printf "%.6f\n", ok / n }' >recount.txt
awk -F '\t' '$3 == "accuracy_vote" { print $4 }' s1.txt | cmp - recount.txt &&
    echo "accuracy_vote: recounted"
# Two representations: the seeds' votes compared.
awk -F '\t' -v OFS='\t' '{ n = split($NF, v, " "); s = ""
    for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") v[i] * 1.5 + 0.1
    $NF = s; print }' "$TESTDATA/eval-split.txt" | emb-cat -r >b.emb ||
    exit 1
emb-eval $opts --seeds 3 --versus b.emb --names x,y split.emb >v.txt ||
    exit 1
# The first representation's lines are those of its own run.
sed 's,^split,split/x,' s1.txt >s1x.txt
grep -F -x -f s1x.txt v.txt | cmp - s1x.txt && echo "x: as run alone"
awk -F '\t' '$1 == "split/x" && $3 == "accuracy_vote" { a = $4 }
    $1 == "split" && $3 == "accuracy_a" { b = $4 }
    END { print (a == b ? "compared: the vote" : "not the vote") }' v.txt
awk -F '\t' '$1 == "split" { print $3 }' v.txt | tr '\n' ' '
echo
