# Progress on standard error for the long jobs (emb-eval's folds and MLP
# fits, emb-lookup building a store, emb-normalize fitting): with -v off
# a terminal, a line at points that do not depend on time; nothing
# without -v off a terminal; never on standard output (on a terminal:
# options-progress-tty.sh).  emb-eval's default is SentEval's 5 folds.
set -u
emb-cat -r "$TESTDATA/eval-train.txt" >train.emb || exit 1
emb-eval -k 3 -c centroid,mlp --max-epoch 2 train.emb >plain.out 2>plain.err
echo "emb-eval: exit $?, $(grep -c '' <plain.err) lines on stderr"
emb-eval -v -j 2 -k 3 -c centroid,mlp --max-epoch 2 train.emb >v.out 2>v.err
echo "emb-eval -v: exit $?"
cmp -s plain.out v.out && echo "emb-eval -v: the same standard output"
grep -c 'fold [0-9]* of' v.out
grep -E 'fold [0-9]+ of|fit [0-9]+ of' v.err
# The default folds.
emb-eval -c centroid train.emb | grep folds
# emb-lookup -v -B: a line at each tenth of a file of 40000 words.
awk 'BEGIN { print 40000, 1; for (i = 0; i < 40000; i++) print "w" i, i }' \
    >big.vec
emb-lookup -e big.vec -B big.store 2>plain.err
echo "emb-lookup -B: exit $?, $(grep -c '' <plain.err) lines on stderr"
rm big.store
emb-lookup -v -e big.vec -B big.store >out 2>err
echo "emb-lookup -v -B: exit $?, $(grep -c '' <out) lines out," \
    "$(grep -c '% [0-9]* words$' err) progress lines"
# emb-normalize -v -F: a line per 65536 records, then the components.
awk 'BEGIN { for (i = 0; i < 70000; i++) print "w" i "\t" i % 7 " 1" }' |
    emb-cat -r >many.emb || exit 1
emb-normalize -F m1 -c -r 1 many.emb 2>plain.err
echo "emb-normalize -F: exit $?, $(grep -c '' <plain.err) lines on stderr"
emb-normalize -v -F m2 -c -r 1 many.emb >out 2>err
echo "emb-normalize -v -F: exit $?, $(grep -c '' <out) lines out"
grep -v 'model of' err
cmp m1 m2 && echo "the same model"
# On a terminal: options-progress-tty.sh.
exit 0
