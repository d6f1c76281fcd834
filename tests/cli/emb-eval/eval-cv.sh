# emb-eval: stratified 3-fold cross-validation with a fixed seed; accuracy
# is the mean of the fold accuracies (SentEval), the confusion matrix and
# macro-F1 pool the out-of-fold predictions, which --predictions lists.
emb-cat -r "$TESTDATA/eval-train.txt" >train.emb || exit 1
emb-eval -k 3 -c centroid,knn --predictions pred.txt train.emb
wc -l <pred.txt
# Every record is predicted exactly once per classifier.
cut -f1,4- pred.txt | sort | uniq -d | wc -l
# Another seed, other folds.
emb-eval -k 3 --seed 7 -c centroid train.emb | grep accuracy
