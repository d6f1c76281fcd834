#!/bin/sh
# figure.sh RESULTS PNG - the paper's figure: SEMCAT accuracy against the
# set size k, for OSE (solid) and BOV (dashed) augmentation, one colour per
# classifier, the accuracy without augmentation as a dotted level, one
# panel per embedding.  RESULTS holds lines
#   embedding TAB method TAB k TAB classifier TAB accuracy
# (method none, bov or ose; k is 0 for none), as semcat.sh writes them.
set -eu
res=$1
png=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
embs=$(cut -f1 "$res" | awk '!s[$0]++')
clfs=$(cut -f4 "$res" | awk '!s[$0]++')
n=0
for e in $embs; do
	n=$((n + 1))
	for c in $clfs; do
		for m in bov ose; do
			awk -F '\t' -v e="$e" -v m="$m" -v c="$c" \
			    '$1 == e && $2 == m && $4 == c { print $3, $5 }' \
			    "$res" | sort -n >"$tmp/$n.$m.$c"
		done
		awk -F '\t' -v e="$e" -v c="$c" \
		    '$1 == e && $2 == "none" && $4 == c { print $5 }' "$res" \
		    >"$tmp/$n.none.$c"
	done
done
{
	echo "set terminal pngcairo size 720,$((n * 360 + 40)) font 'sans,10'"
	echo "set output '$png'"
	echo "set multiplot layout $n,1 title 'SEMCAT: OSE (solid) and BOV (dashed) augmentation, none (dotted)'"
	echo "set xlabel 'k (words per augmented example)'"
	echo "set ylabel 'test accuracy'"
	echo "set xrange [1:21]"
	echo "set xtics (2, 5, 10, 15, 20)"
	echo "set key outside right"
	echo "set grid"
	i=0
	for e in $embs; do
		i=$((i + 1))
		echo "set title '$e'"
		p="plot"
		j=0
		for c in $clfs; do
			j=$((j + 1))
			base=$(cat "$tmp/$i.none.$c")
			[ -n "$base" ] || base=NaN
			p="$p '$tmp/$i.ose.$c' using 1:2 with linespoints lc $j dt 1 pt 7 title '$c OSE',"
			p="$p '$tmp/$i.bov.$c' using 1:2 with linespoints lc $j dt 2 pt 6 title '$c BOV',"
			p="$p $base with lines lc $j dt 3 notitle,"
		done
		echo "${p%,}"
	done
	echo "unset multiplot"
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
