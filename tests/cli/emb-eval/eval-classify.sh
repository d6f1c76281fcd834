# emb-eval: train and test streams, the closed-form classifiers and logistic
# regression.  The accuracies equal scikit-learn's on the same data (see
# tests/unit/test_classify.c for how its predictions were computed):
# knn 15/24, centroid 15/24, lda 13/24, ridge 12/24, logreg 13/24.
emb-cat -r "$TESTDATA/eval-train.txt" >train.emb || exit 1
emb-cat -r "$TESTDATA/eval-test.txt" >test.emb || exit 1
emb-eval -t test.emb train.emb
