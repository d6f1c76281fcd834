#!/bin/sh
# align-results.sh OUT SRCNAME TGTNAME - the RESULTS.md section of the
# alignment experiment, from OUT/align/split.tsv and results.tsv.
set -eu
out=$1 sname=$2 tname=$3
cat <<EOF2

## Between spaces: $sname mapped onto $tname

\`make -C examples align\` (\`scripts/align.sh\`): the two samples come
from different training runs on different corpora, so the same word has
unrelated vectors in each; an orthogonal map learned from part of the
shared vocabulary (\`emb-align\`, Procrustes by SVD) should bring the rest
into place.  The words both hold are shuffled with a seeded generator;
80 % fit the map, the other 20 % are translated (each word's translation
is itself) by nearest neighbour (NN, cosine) and by CSLS (10 neighbours)
among all the target words (\`emb-eval -L\`).  Normalizations as vecmap
names them: none, and unit, center, unit on both sides.  The check
(\`tests/cli/emb-align/align-numpy.sh\`) redoes everything in NumPy from the
\`.vec.gz\` files: the map agrees to 1e-6 and the ten words retrieved for
every test word, by NN and by CSLS, are the same.

EOF2
awk -F '\t' '{ v[$1] = $2 }
    END { printf "Shared words %d: %d to fit, %d to test.\n\n", v["shared"],
	v["train"], v["test"] }' "$out/align/split.tsv"
echo '| normalization | retrieval | P@1 | P@5 | P@10 |'
echo '|---|---|---|---|---|'
awk -F '\t' '$2 != "bli" && $3 !~ /all/ {
	k = $1 "\t" $2; if (!(k in s)) o[++n] = k; s[k] = s[k] " | " $4 }
    END { for (i = 1; i <= n; i++) { split(o[i], f, "\t")
	printf "| %s | %s%s |\n", f[1], f[2], s[o[i]] } }' \
    "$out/align/results.tsv"
echo
awk -F '\t' '$2 == "bli" { v[$3] = $4 }
    END { printf "Test words with both vectors: %d of %d (out of vocabulary: %d source, %d target).\n", v["in-vocabulary"], v["queries"], v["oov-source"], v["oov-target"] }' \
    "$out/align/results.tsv"
