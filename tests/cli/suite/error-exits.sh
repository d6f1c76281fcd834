# The error exits of emb-normalize and emb-augment free what they hold:
# under the sanitizers (make check SAN=1) no leak report follows the one
# line of the message.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1
export ASAN_OPTIONS
printf 'a\tx\t1 2\nb\tx\t3 4\nc\ty\t5 6\nd\ty\t7 8\n' | emb-cat -r >in.emb
head -c 60 in.emb >cut.emb
printf 'emb-pca 1\ndim 2\ncenter 0\ncount 1\nncomp 0\nmean 1 2\n' >ok.pca
printf 'emb-pca 1\ndim 2\ncenter 0\ncount 1\nncomp 0\nmean 1e308 1e308\n' \
    >huge.pca
printf 'g\t1 2 3\n' | emb-cat -r >d3.emb
emb-normalize -q cut.emb >/dev/null;			echo "unit, cut: $?"
emb-normalize -q -M ok.pca cut.emb >/dev/null;		echo "model, cut: $?"
emb-normalize -q -M huge.pca in.emb >/dev/null;	echo "model, huge: $?"
emb-normalize -q -M ok.pca d3.emb >/dev/null;		echo "model, dim: $?"
emb-normalize -q -F m.txt -r 1 cut.emb;		echo "fit, cut: $?"
emb-normalize -q -M ok.pca in.emb >/dev/full;		echo "model, full: $?"
emb-normalize -q in.emb >/dev/full;			echo "unit, full: $?"
emb-augment -k 2 -K 1 -l 2 cut.emb >/dev/null;		echo "augment, cut: $?"
emb-augment -k 2 -K 1 -l 3 in.emb >/dev/null;		echo "augment, field: $?"
emb-augment -k 2 -K 1 -l 2 in.emb >/dev/full;		echo "augment, full: $?"
