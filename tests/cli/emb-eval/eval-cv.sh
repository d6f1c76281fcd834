# emb-eval: stratified 3-fold cross-validation with a fixed seed; accuracy
# is the mean of the fold accuracies (SentEval), the confusion matrix and
# macro-F1 pool the out-of-fold predictions, which --predictions lists.
# n_train and n_test are a fold's, as the accuracy: their means over the
# folds, which add up to the rows (35 rows: not whole numbers).
emb-cat -r "$TESTDATA/eval-train.txt" >train.emb || exit 1
emb-eval -k 3 -c centroid,knn --predictions pred.txt train.emb
wc -l <pred.txt
# Every record is predicted exactly once per classifier.
cut -f1,4- pred.txt | sort | uniq -d | wc -l
emb-cat train.emb | head -35 | emb-cat -r >t35.emb || exit 1
emb-eval -k 3 -c centroid t35.emb | grep -e n_train -e n_test
# Another seed, other folds.
emb-eval -k 3 --seed 7 -c centroid train.emb | grep accuracy
