#!/bin/sh
# align.sh SRCVEC TGTVEC SEED OUTDIR - map one space onto another
# (emb-align) and measure the translation of held-out words (emb-eval -L).
#
# The words both files hold are shuffled with SEED (a Park-Miller
# generator in awk, the same in every awk); the first 80 % fit the map,
# the other 20 % are the test dictionary, each word its own translation.
# For each normalization, the map is fitted on the training pairs, every
# source word mapped, every target word normalized as the model says,
# and P@1, 5, 10 measured by cosine (NN) and by CSLS.  Output: OUTDIR/
# results.tsv, "config TAB method TAB metric TAB value", and the counts
# in OUTDIR/split.tsv.  An independent check by NumPy follows in
# tests/data/align-ref.py (tests/cli/emb-align/align-numpy.sh).
set -eu
src=$1 tgt=$2 seed=$3 out=$4
mkdir -p "$out"
emb-lookup -q -e "$src" -D >"$out/src.emb"
emb-lookup -q -e "$tgt" -D >"$out/tgt.emb"
emb-cat "$out/src.emb" | cut -f1 | sort -u >"$out/src.words"
emb-cat "$out/tgt.emb" | cut -f1 | sort -u >"$out/tgt.words"
comm -12 "$out/src.words" "$out/tgt.words" | LC_ALL=C sort |
    awk -v seed="$seed" -v dir="$out" '
	{ w[n++] = $0 }
	END {
		x = seed % 2147483647; if (x <= 0) x += 2147483646
		for (i = n - 1; i > 0; i--) {
			x = (x * 48271) % 2147483647
			j = x % (i + 1); t = w[i]; w[i] = w[j]; w[j] = t
		}
		ntr = int(n * 0.8)
		for (i = 0; i < n; i++)
			print w[i], w[i] > (dir "/" (i < ntr ? "train" : "test") ".txt")
		printf "shared\t%d\ntrain\t%d\ntest\t%d\n", n, ntr, n - ntr > (dir "/split.tsv")
	}'
: >"$out/results.tsv"
for cfg in none unit,center,unit; do
	emb-align -q -F "$out/$cfg.model" -d "$out/train.txt" -n "$cfg" \
	    "$out/src.emb" "$out/tgt.emb"
	emb-align -q -M "$out/$cfg.model" "$out/src.emb" >"$out/$cfg.src.emb"
	emb-align -q -t -M "$out/$cfg.model" "$out/tgt.emb" >"$out/$cfg.tgt.emb"
	emb-eval -T "$cfg" -L "$out/test.txt" -R "$out/$cfg.tgt.emb" \
	    "$out/$cfg.src.emb" >>"$out/results.tsv"
done
