# emb-eval: training rows of one class.  Every classifier predicts that
# class (the constant model), never a class seen only in the test rows;
# the same in cross-validation, over a stream of one label and in a fold
# whose training part holds one class.
printf 'a\tx\t1 0 0\nb\tx\t0 1 0\n' | emb-cat -r >one.emb || exit 1
printf 'd\tx\t1 .1 0\ne\ty\t0 0 1\nf\tz\t0 1 1\n' | emb-cat -r >te.emb ||
    exit 1
emb-eval -l 2 -t te.emb -c all -T t one.emb | grep -v 'class	'
for i in 1 2 3 4 5 6; do
	printf 'r%d\tx\t%d 1 0\n' $i $i
done | emb-cat -r >cv.emb || exit 1
emb-eval -l 2 -k 3 -c all -T cv cv.emb | grep -e accuracy -e confusion
# y has one row: the fold that tests it trains on x alone.
{ cat cv.emb; printf 'r7\ty\t0 0 9\n' | emb-cat -r; } >cv2.emb || exit 1
emb-eval -l 2 -k 2 -c all --inner-folds 2 -T cv2 cv2.emb |
    grep -e accuracy -e confusion
