# The error exits of emb-normalize, emb-augment and emb-cat free what they
# hold: under the sanitizers (make check SAN=1) no leak report follows the one
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
# emb-cat: -r with a writer and groups held, -n with its array, writer
# and group, -f with its reader, writer and word.  No pointer on a stack
# or in a register counts: what a frame holds is freed before it exits.
strict() {
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}use_stacks=0:use_registers=0 \
	    "$@"
}
printf 'g\t#2\na\t1 2\nb\t3' | strict emb-cat -r >/dev/null;	echo "text, cut: $?"
emb-cat -N x.npy in.emb >keys
head -c -1 keys >cut.keys
head -c 140 x.npy >cut.npy
cat cut.keys | strict emb-cat -n x.npy -K /dev/stdin >/dev/null
echo "npy, keys cut: $?"
cat cut.keys | strict emb-cat -n x.npy -K /dev/stdin -g 2 >/dev/null
echo "npy -g, keys cut: $?"
cat cut.npy | strict emb-cat -n - -K keys -g 2 >/dev/null;	echo "npy -g, cut: $?"
strict emb-cat -f vec cut.emb >/dev/null;			echo "format, cut: $?"
cat cut.emb | strict emb-cat -f vec >/dev/null;		echo "format, piped cut: $?"
