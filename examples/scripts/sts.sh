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
# Both compositions go to one emb-eval run (--versus).  Writes
# OUT/results.tsv, lines "name method year measure value" (measure
# spearman_mean, spearman_wmean, spearman_pooled, pearson_...),
# OUT/paired.tsv, lines "name year measure diff lo hi p" (OSE minus BOV,
# the 95 % interval and p-value of a paired bootstrap of the pairs,
# stratified by subset; measure williams: Williams' test of the pooled
# Pearson coefficients, its t and p), OUT/protocol.tsv and OUT/oov.tsv as
# senteval.sh does.
set -eu
name=$1 vec=$2 prep=$3 out=$4
years=${5:-STS12 STS13 STS14 STS15 STS16}
mkdir -p "$out"
emb-lookup -q -e "$vec" -B "$out/vectors.store"
: >"$out/results.tsv"
: >"$out/paired.tsv"
: >"$out/protocol.tsv"
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
	done
	emb-eval -p "$out/$y.b.ose.emb" -g "$out/$y.gs.txt" -i 1 -u 2 \
	    --versus "$out/$y.a.bov.emb" --versus-second "$out/$y.b.bov.emb" \
	    --names ose,bov --protocol-note "lookup=as_written,then_lower oov=dropped" \
	    -T "$y" "$out/$y.a.ose.emb" |
	    awk -F '\t' -v OFS='\t' -v n="$name" -v y="$y" -v out="$out" '
		$1 ~ /\/(ose|bov)$/ { m = substr($1, length(y) + 2) }
		$1 ~ /\/(ose|bov)$/ && ($3 ~ /^(spearman|pearson)_(mean|wmean|pooled)$/ ||
		    $3 == "pairs" || $3 == "unscored") {
		    r[m] = r[m] n OFS m OFS y OFS $3 OFS $4 "\n" }
		$1 ~ /\/(ose|bov)$/ && $3 == "protocol" {
		    print n, m, y, "STS", $4 >>(out "/protocol.tsv") }
		$1 == y { v[$3] = $4 }
		END {
		    printf "%s%s", r["bov"], r["ose"] >>(out "/results.tsv")
		    split("spearman_mean spearman_wmean spearman_pooled pearson_mean pearson_wmean pearson_pooled", M, " ")
		    for (i = 1; i <= 6; i++)
			print n, y, M[i], v[M[i] "_diff"], v[M[i] "_diff_lo"],
			    v[M[i] "_diff_hi"], v[M[i] "_p"] >>(out "/paired.tsv")
		    print n, y, "williams", v["williams_t"], "-", "-",
			v["williams_p"] >>(out "/paired.tsv") }'
	rm -f "$out/$y".[ab].bov.emb "$out/$y".[ab].ose.emb
	rm -f "$out/$y.a.emb" "$out/$y.b.emb"
done
rm -f "$out/vectors.store"
