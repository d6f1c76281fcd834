#!/bin/sh
# sts.sh - the paper's semantic textual similarity experiment for one
# embedding: STS12-16, each pair's two sentences composed by BOV and by
# OSE, their cosine against the gold score; Spearman and Pearson per
# subset, their mean, their mean weighted by pair count, and pooled over
# the year's pairs (emb-eval -p).  Unscored pairs are skipped and counted.
#
#   sts.sh NAME VECTORS PREP OUT [YEARS]
#
# NAME, VECTORS, PREP, OUT as for senteval.sh; YEARS ("STS12 ... STS16").
# Tokens are looked up as they are, then in lower case when missing.
# Writes OUT/results.tsv, lines "name method year measure value" (measure
# spearman_mean, spearman_wmean, spearman_pooled, pearson_...), and
# OUT/oov.tsv as senteval.sh does.
set -eu
name=$1 vec=$2 prep=$3 out=$4
years=${5:-STS12 STS13 STS14 STS15 STS16}
mkdir -p "$out"
emb-lookup -q -e "$vec" -B "$out/vectors.store"
: >"$out/results.tsv"
: >"$out/oov.tsv"
: >"$out/compose.log"
for y in $years; do
	for s in a b; do
		cat "$prep/sts/$y".*.$s.txt |
		    emb-lookup -l -e "$out/vectors.store" -f 2 \
		    >"$out/$y.$s.emb" 2>"$out/$y.$s.log"
	done
	cat "$prep/sts/$y".*.gs.txt >"$out/$y.gs.txt"
	cat "$out/$y.a.log" "$out/$y.b.log" | awk -v n="$name" -v t="$y" '
	    / lines, / { for (i = 1; i <= NF; i++) {
		if ($(i + 1) ~ /^lines/) l += $i
		if ($(i + 1) ~ /^tokens/) k += $i
		if ($(i + 1) == "OOV") o += $i
		if ($(i + 1) == "empty") e += $i } }
	    END { printf "%s\t%s\t%d\t%d\t%d\t%.4f\t%d\n", n, t, l, k, o,
		k ? o / k : 0, e }' >>"$out/oov.tsv"
	for m in bov ose; do
		for s in a b; do
			emb-$m <"$out/$y.$s.emb" >"$out/$y.$s.$m.emb" \
			    2>>"$out/compose.log"
		done
		emb-eval -p "$out/$y.b.$m.emb" -g "$out/$y.gs.txt" -i 1 -u 2 \
		    -T "$y" "$out/$y.a.$m.emb" |
		    awk -F '\t' -v OFS='\t' -v n="$name" -v m="$m" -v y="$y" '
			$3 ~ /^(spearman|pearson)_(mean|wmean|pooled)$/ ||
			$3 == "pairs" || $3 == "unscored" {
			    print n, m, y, $3, $4 }' >>"$out/results.tsv"
		rm -f "$out/$y.a.$m.emb" "$out/$y.b.$m.emb"
	done
	rm -f "$out/$y.a.emb" "$out/$y.b.emb"
done
rm -f "$out/vectors.store"
