# emb-eval: STS on two aligned streams and a gold file with two blank
# (unscored) lines; subsets from key field 1.  scipy 1.10.1 gives on the
# same data: news pearson -0.398369, spearman -0.542857; forum pearson
# -0.205979, spearman -0.4; pooled pearson -0.509021, spearman -0.672727.
emb-cat -r "$TESTDATA/sts-a.txt" >a.emb || exit 1
emb-cat -r "$TESTDATA/sts-b.txt" >b.emb || exit 1
emb-eval -u 1 -p b.emb -g "$TESTDATA/sts-gold.txt" -T sts a.emb
# Aligned by record order, checked by key field 2 only.
emb-eval -i 2 -p b.emb -g "$TESTDATA/sts-gold.txt" -T sts a.emb |
    grep pooled
# A field that is no subset (here the pair's id) makes subsets of one
# pair, whose correlation is undefined: refused, exit 1, no figure.
emb-eval -u 2 -p b.emb -g "$TESTDATA/sts-gold.txt" -T sts a.emb
echo "-u 2: exit $?"
