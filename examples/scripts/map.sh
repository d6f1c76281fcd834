#!/bin/sh
# map.sh VECTORS PNG [SETS] - word sets, their OSE and their BOV on a 2-D
# map: every vector scaled to unit length, the plane of the top two
# principal components fitted on all of them (emb-normalize -F -c -r 2),
# each projected onto it (emb-normalize -P), drawn by gnuplot: the words
# as dots, each set's OSE as a star and its BOV as a triangle, one colour
# per set.  Prints "label TAB set TAB kind TAB x TAB y" for each point.
# SETS is a file of your own sets, a line each: "name TAB words" (a name
# without blanks or /, words without /); without it, four sets of
# everyday words.
set -eu
vec=$1 png=$2 sets=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "$sets" ]; then
	awk -F '\t' 'NF != 2 || $1 == "" || $1 ~ /[ \/]/ || $2 !~ /[^ ]/ ||
	    $2 ~ /\// { printf "map.sh: %s: line %d: want a name (no blank, no" \
	    " /), a TAB and words (no /)\n", FILENAME, NR >"/dev/stderr";
	    bad = 1 } END { exit bad }' "$sets"
	cp "$sets" "$tmp/sets.txt"
	title="Word sets, their OSE and BOV, on the top two principal components"
else
	printf '%s\t%s\n' \
	    drinks 'coffee tea milk beer wine' \
	    weather 'rain snow wind storm' \
	    vehicles 'car bus train truck' \
	    hospital 'doctor nurse hospital patient' >"$tmp/sets.txt"
	title="Four word sets (word2vec), their OSE and BOV, on the top two principal components"
fi
emb-lookup -q -e "$vec" -f 1 "$tmp/sets.txt" >"$tmp/sets.emb"
# The members keyed "set/word/word", ungrouped; OSE and BOV "set/OSE/ose".
emb-cat "$tmp/sets.emb" | awk -F '\t' -v OFS='\t' '
    $2 ~ /^#[0-9]+$/ { set = $1; next } { print set "/" $1 "/word", $2 }' |
    emb-cat -r >"$tmp/words.emb"
emb-ose -q "$tmp/sets.emb" | emb-cat |
    awk -F '\t' -v OFS='\t' '{ print $1 "/OSE/ose", $2 }' |
    emb-cat -r >"$tmp/ose.emb"
emb-bov -q "$tmp/sets.emb" | emb-cat |
    awk -F '\t' -v OFS='\t' '{ print $1 "/BOV/bov", $2 }' |
    emb-cat -r >"$tmp/bov.emb"
cat "$tmp/words.emb" "$tmp/ose.emb" "$tmp/bov.emb" | emb-split -j |
    emb-normalize -q >"$tmp/all.emb"
emb-normalize -q -F "$tmp/plane.txt" -c -r 2 "$tmp/all.emb"
emb-normalize -q -P -M "$tmp/plane.txt" "$tmp/all.emb" | emb-cat |
    tr '/ ' '\t\t' >"$tmp/xy.tsv"
awk -F '\t' -v OFS='\t' '{ printf "%s\t%s\t%s\t%.3f\t%.3f\n", $2, $1, $3, $4, $5 }' \
    "$tmp/xy.tsv"
{
	echo "set terminal pngcairo size 720,560 font 'sans,10'"
	echo "set output '$png'"
	echo "set title '$title'"
	echo "set key top right box"
	echo "set xlabel 'PC 1'"
	echo "set ylabel 'PC 2'"
	echo "set offsets 0.1, 0.1, 0.1, 0.1"
	printf 'plot '
	i=0
	for s in $(cut -f 1 "$tmp/sets.txt"); do
		i=$((i + 1))
		for k in word ose bov; do
			case $k in
			word) pt=7 ps=1.2 ;;
			ose) pt=3 ps=2.5 ;;
			bov) pt=9 ps=2 ;;
			esac
			printf "'%s' using (strcol(1) eq '%s' && strcol(3) eq '%s' ? \$4 : NaN):5 with points pt %d ps %s lc %d notitle, " \
			    "$tmp/xy.tsv" "$s" "$k" $pt $ps $i
			[ $k = word ] &&
			printf "'%s' using (strcol(1) eq '%s' && strcol(3) eq '%s' ? \$4 : NaN):5:2 with labels offset 0.7,0.5 left tc lt %d notitle, " \
			    "$tmp/xy.tsv" "$s" "$k" $i
		done
	done
	echo "1/0 with points pt 3 ps 2.5 lc black title 'OSE'," \
	    "1/0 with points pt 9 ps 2 lc black title 'BOV'"
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
