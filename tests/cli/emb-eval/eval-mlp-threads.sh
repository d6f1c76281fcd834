# emb-eval: the MLP's weight-decay search runs its fits on -j threads, one
# fit each, and combines them in grid order: one, two and three threads
# give the same figures and predictions, byte for byte, with dev rows
# (tests/data/eval-split.txt), with dev rows carved from training
# (--dev-share, the split's dev rows dropped) and with inner folds
# (cross-validation); with a fixed weight decay, seeds run side by side,
# a thread each, and give the same too.
emb-cat -r "$TESTDATA/eval-split.txt" >split.emb || exit 1
grep -v '	dev	' "$TESTDATA/eval-split.txt" | emb-cat -r >nodev.emb || exit 1
for j in 1 2 3; do
	emb-eval -j $j -c mlp -s 2 -l 3 --nhid 8 --predictions p$j.txt \
	    split.emb >dev$j.txt || exit 1
	emb-eval -j $j -c mlp -s 2 -l 3 --nhid 8 --dev-share 0.25 \
	    nodev.emb >share$j.txt || exit 1
	emb-eval -j $j -c mlp -k 3 -l 3 --nhid 8 --max-epoch 40 \
	    split.emb >cv$j.txt || exit 1
	emb-eval -j $j -c mlp -k 3 -l 3 --nhid 8 --max-epoch 40 --seeds 3 \
	    --l2 0.001 --predictions ps$j.txt split.emb >seeds$j.txt || exit 1
done
for j in 2 3; do
	cmp dev1.txt dev$j.txt && cmp p1.txt p$j.txt &&
	    cmp share1.txt share$j.txt && cmp cv1.txt cv$j.txt &&
	    cmp seeds1.txt seeds$j.txt && cmp ps1.txt ps$j.txt &&
	    echo "-j $j: same as -j 1"
done
grep -h -e accuracy -e l2 -e n_train dev1.txt share1.txt cv1.txt
