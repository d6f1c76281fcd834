#!/bin/sh
# 07-fairness.sh - is OSE the fair composition the paper says it is?  Each
# pair of a gendered pair list (Bolukbasi et al.'s equalize pairs, in the
# word2vec vectors) and of an ethnic-name list (Caliskan et al.'s
# European and African American names of WEAT 4, paired in list order, in
# GloVe) is composed by emb-ose and by emb-bov (mean), and every composed
# vector is measured: its RIPA along the group direction (emb-bias, the
# direction fitted on other pairs: the definitional gender pairs, the
# names of WEAT 3), WEAT with the composed vectors as targets, and the
# gap between its cosines to the pair's two members.  Intervals are 95 %:
# bootstrap over pairs from emb-bias, mean +- 1.96 standard errors for the
# gaps.  `make -C examples fairness` writes this to out/fairness.txt for
# RESULTS.md.
set -eu
w2v=${W2V:-data/word2vec-googlenews-300d-13k.vec.gz}
glove=${GLOVE:-data/glove-6B-300d-1k.txt.gz}
S=data/bias
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A pairs file from two sets of a sets file (first the X role's words).
pairsof() {	# file roleX roleY > pairs
	awk -v x="$2" -v y="$3" '$1 == x { $1 = "X"; print; next }
	    $1 == y { $1 = "Y"; print }' "$1"
}

# fair NAME VECTORS LOWER PAIRS DIRPAIRS ATTRS
#   PAIRS, DIRPAIRS: pairs files (X first members, Y second);
#   ATTRS: a sets file whose A and B are WEAT's attributes.
fair() {
	name=$1 vec=$2 low=$3 pairs=$4 dir=$5 attrs=$6
	d=$tmp/$name
	mkdir "$d"
	emb-lookup -q -D -e "$vec" | emb-normalize -q >"$d/unit.emb"
	# The pairs with both words (emb-bias -D keeps those), as lines
	# "first TAB second", then composed by OSE and by BOV, unit length.
	emb-bias $low -m 0 -D -p "$pairs" "$d/unit.emb" | emb-cat |
	    cut -f1,2 >"$d/pairs.txt"
	awk -F '\t' '{ print "ose:" $1 ":" $2 "\t" $1 " " $2 }' \
	    "$d/pairs.txt" >"$d/q-ose.txt"
	awk -F '\t' '{ print "bov:" $1 ":" $2 "\t" $1 " " $2 }' \
	    "$d/pairs.txt" >"$d/q-bov.txt"
	emb-lookup -q -f 1 -e "$vec" "$d/q-ose.txt" | emb-ose -q |
	    emb-normalize -q >"$d/ose.emb"
	emb-lookup -q -f 1 -e "$vec" "$d/q-bov.txt" | emb-bov -q |
	    emb-normalize -q >"$d/bov.emb"
	cat "$d/unit.emb" "$d/ose.emb" "$d/bov.emb" >"$d/all.emb"
	np=$(wc -l <"$d/pairs.txt")
	# Sets: X the OSEs, Y the BOVs, A the first members, B the second.
	{
		printf 'X ose'; cut -f1,2 "$d/pairs.txt" |
		    awk -F '\t' '{ printf " ose:%s:%s", $1, $2 }'; echo
		printf 'Y bov'; cut -f1,2 "$d/pairs.txt" |
		    awk -F '\t' '{ printf " bov:%s:%s", $1, $2 }'; echo
		printf 'A first'; cut -f1 "$d/pairs.txt" |
		    awk '{ printf " %s", $1 }'; echo
		printf 'B second'; cut -f2 "$d/pairs.txt" |
		    awk '{ printf " %s", $1 }'; echo
	} >"$d/comp.txt"
	{
		grep '^[XY] ' "$d/comp.txt"
		grep '^[AB] ' "$attrs" | tr 'A-Z' 'a-z' | sed 's/^a /A /; s/^b /B /'
	} >"$d/weat-comp.txt"
	{
		grep '^[AB] ' "$d/comp.txt" | sed 's/^A /X /; s/^B /Y /'
		grep '^[AB] ' "$attrs" | tr 'A-Z' 'a-z' | sed 's/^a /A /; s/^b /B /'
	} >"$d/weat-members.txt"
	echo "== $name: $np pairs composed; direction from $(basename "$dir")"
	emb-bias $low -t ripa -p "$dir" -w "$d/comp.txt" "$d/all.emb" \
	    >"$d/ripa.tsv"
	emb-bias -w "$d/weat-comp.txt" "$d/all.emb" >"$d/weat-comp.tsv"
	emb-bias -w "$d/weat-members.txt" "$d/all.emb" >"$d/weat-members.tsv"
	emb-cat "$d/all.emb" >"$d/all.txt"
	awk -F '\t' -v OFS='\t' '
	    FILENAME ~ /pairs.txt$/ { p[++n] = $1 SUBSEP $2; next }
	    FILENAME ~ /ripa.tsv$/ {
		if ($3 ~ /^word:[XY]:/) {
			r = substr($3, 6, 1); a = $4 < 0 ? -$4 : $4
			abs[r] += a; abs2[r] += a * a; cnt[r]++
		} else if ($3 ~ /^[XYAB]:mean/) rp[$3] = $4
		next }
	    { v[$1] = $2 }
	    function dot(a, b,   x, y, i, s) {
		split(a, x, " "); split(b, y, " ")
		for (i in x) s += x[i] * y[i]; return s }
	    END {
		for (i = 1; i <= n; i++) {
			split(p[i], w, SUBSEP)
			for (k = 1; k <= 2; k++) {
				m = k == 1 ? "ose" : "bov"
				c = v[m ":" w[1] ":" w[2]]
				g = dot(c, v[w[1]]) - dot(c, v[w[2]])
				g = g < 0 ? -g : g
				gs[m] += g; gs2[m] += g * g
				if (g > gmax[m]) gmax[m] = g
			}
		}
		printf "%-44s %-28s %-28s\n", "measure", "OSE", "BOV"
		printf "%-44s %-28s %-28s\n", "RIPA, mean (95% CI)",
		    ci3(rp["X:mean"], rp["X:mean_lo"], rp["X:mean_hi"]),
		    ci3(rp["Y:mean"], rp["Y:mean_lo"], rp["Y:mean_hi"])
		printf "%-44s %-28s %-28s\n", "|RIPA|, mean (95% CI)",
		    ci(abs["X"], abs2["X"], cnt["X"]),
		    ci(abs["Y"], abs2["Y"], cnt["Y"])
		printf "%-44s %-28s %-28s\n",
		    "|cos(c, first) - cos(c, second)|, mean",
		    ci(gs["ose"], gs2["ose"], n), ci(gs["bov"], gs2["bov"], n)
		printf "%-44s %-28.3g %-28.3g\n", "  largest", gmax["ose"],
		    gmax["bov"]
		printf "%-44s %-28s %-28s\n", "members: RIPA, mean (95% CI)",
		    "first " ci3(rp["A:mean"], rp["A:mean_lo"], rp["A:mean_hi"]),
		    "second " ci3(rp["B:mean"], rp["B:mean_lo"], rp["B:mean_hi"])
		# A verdict per measure: fairer when the whole interval of
		# |RIPA| or of the gap lies below the other composition.
		lo_o = mlo(abs["X"], abs2["X"], cnt["X"])
		hi_o = mhi(abs["X"], abs2["X"], cnt["X"])
		lo_b = mlo(abs["Y"], abs2["Y"], cnt["Y"])
		hi_b = mhi(abs["Y"], abs2["Y"], cnt["Y"])
		print "verdict, |RIPA|: " (hi_o < lo_b ? "OSE fairer" : \
		    hi_b < lo_o ? "BOV fairer" : \
		    "no difference (the intervals overlap)")
		lo_o = mlo(gs["ose"], gs2["ose"], n)
		hi_o = mhi(gs["ose"], gs2["ose"], n)
		lo_b = mlo(gs["bov"], gs2["bov"], n)
		hi_b = mhi(gs["bov"], gs2["bov"], n)
		print "verdict, distance to each member: " (hi_o < lo_b ? \
		    "OSE fairer" : hi_b < lo_o ? "BOV fairer" : \
		    "no difference (the intervals overlap)")
	    }
	    function se(s, s2, k,   m, var) {
		m = s / k; var = k > 1 ? (s2 - k * m * m) / (k - 1) : 0
		return sqrt(var > 0 ? var : 0) / sqrt(k) }
	    function mlo(s, s2, k) { return s / k - 1.96 * se(s, s2, k) }
	    function mhi(s, s2, k) { return s / k + 1.96 * se(s, s2, k) }
	    function ci(s, s2, k) {
		return sprintf("%.3g [%.3g, %.3g]", s / k, mlo(s, s2, k),
		    mhi(s, s2, k)) }
	    function ci3(m, lo, hi) {
		return sprintf("%.3g [%.3g, %.3g]", m, lo, hi) }
	' "$d/pairs.txt" "$d/ripa.tsv" "$d/all.txt"
	for t in comp members; do
		awk -F '\t' -v t=$t '{ f[$3] = $4 }
		    END { printf "WEAT %s: effect size %.3f [%.3f, %.3f], " \
			"p %.3g (%s)\n", t == "comp" ? \
			"X = OSEs, Y = BOVs" : "X = first, Y = second members",
			f["effect_size"], f["effect_size_lo"],
			f["effect_size_hi"], f["p"], f["p_method"] }' \
		    "$d/weat-$t.tsv"
	done
}

# Gender: the equalize pairs, male first (two of them are female first in
# the file), less those among the definitional pairs or the WEAT 7
# attributes.
awk '!/^#/ { for (i = 3; i <= NF; i++) print $i }' \
    "$S/gender-definitional.txt" "$S/weat7.txt" >"$tmp/skip"
awk '$1 == "X" || $1 == "Y" { for (i = 3; i <= NF; i++) w[$1, i] = $i; n = NF }
    END { for (i = 3; i <= n; i++) {
	a = w["X", i]; b = w["Y", i]
	if (a == "wives" || a == "ex_girlfriend") { t = a; a = b; b = t }
	print a "\t" b } }' "$S/gender-equalize.txt" |
    awk -F '\t' 'NR == FNR { skip[$1]; next }
	!($1 in skip) && !($2 in skip)' "$tmp/skip" - >"$tmp/eq.txt"
{
	printf 'X male'; cut -f1 "$tmp/eq.txt" | awk '{ printf " %s", $1 }'
	echo
	printf 'Y female'; cut -f2 "$tmp/eq.txt" | awk '{ printf " %s", $1 }'
	echo
} >"$tmp/gender-pairs.txt"
# The definitional pairs male first, as the equalize pairs now are.
pairsof "$S/gender-definitional.txt" Y X >"$tmp/gender-dir.txt"
fair gender "$w2v" "" "$tmp/gender-pairs.txt" "$tmp/gender-dir.txt" \
    "$S/weat7.txt"

# Ethnicity: WEAT 4's names paired in list order (male with male, female
# with female), the direction from WEAT 3's names, the attributes of
# WEAT 5 (pleasant, unpleasant); GloVe is lower case.
pairsof "$S/weat4.txt" X Y | tr 'A-Z' 'a-z' | sed 's/^x /X /; s/^y /Y /' \
    >"$tmp/names-pairs.txt"
# WEAT 3's lists pair in list order too; one African American name is
# not in GloVe's sample, and the direction is fitted on the pairs with
# both names.
pairsof "$S/weat3.txt" X Y | tr 'A-Z' 'a-z' | sed 's/^x /X /; s/^y /Y /' \
    >"$tmp/names-dir3.txt"
fair ethnicity "$glove" -l "$tmp/names-pairs.txt" "$tmp/names-dir3.txt" \
    "$S/weat5.txt"
