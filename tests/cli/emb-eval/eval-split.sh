# emb-eval: one stream with a split field (train, dev, test); the label in
# field 3.  The MLP chooses its weight decay on the dev rows; ridge and
# LDA with Ledoit-Wolf shrinkage ignore them (scikit-learn, fitted on the
# 30 train rows: 15/24 and 12/24).  The human summary goes to
# stderr (not compared here: it holds times).
emb-cat -r "$TESTDATA/eval-split.txt" >all.emb || exit 1
emb-eval -v -s 2 -l 3 -c ridge,lda,mlp --shrinkage auto --nhid 8 -T split \
    all.emb 2>summary.txt | grep -v -e '	class	' -e confusion
grep -c 'mlp: l2' summary.txt
