#!/bin/sh
# probing-swap.sh PROBING OUT - the probing files of PROBING with the
# roles of their splits swapped: OUT/<task>.txt holds every line of
# PROBING/<task>.txt, unchanged but for its split, tr for te and te for
# tr (va lines are left as they are).  On the bundled samples this is the
# other sample the tables can be rerun on through PROBING=: the test
# pages (0.7-1.4k lines a task) train the classifiers and the training
# pages (1.1-1.6k) test them, so every figure comes from other lines.
set -eu
S=$1
O=$2
mkdir -p "$O"
for f in "$S"/*.txt; do
	[ -f "$f" ] || continue
	awk -F '\t' -v OFS='\t' '
	    $1 == "tr" { $1 = "te"; print; next }
	    $1 == "te" { $1 = "tr"; print; next }
	    { print }' "$f" >"$O/${f##*/}.tmp"
	mv "$O/${f##*/}.tmp" "$O/${f##*/}"
done
