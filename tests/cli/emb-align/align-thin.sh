# emb-align -F with fewer pairs than dimensions: the fit in the pairs'
# span, its cost following the pairs.  One pair at 4096 x 4096 fits under
# a 256 MB address-space limit (the SVD of the whole 4096 x 4096 X^t Z
# took 678 MB and 86 s) and writes the thin model (rank 2: 4096 q lines
# of 2 numbers, not 4096 w lines of 4096); the pair maps onto its target's
# direction, a vector orthogonal to both maps to itself, and the pair
# repeated 4096 times in the dictionary gives the same map, still thin.
awk 'BEGIN { d = 4096
	printf "a\t"; for (i = 1; i <= d; i++) printf "%s%d", (i > 1 ? " " : ""),
	    i % 7 - 3; print ""
	printf "A\t"; for (i = 1; i <= d; i++) printf "%s%d", (i > 1 ? " " : ""),
	    i % 5 - 2; print ""
	# o: orthogonal to both (a and A are equal at 1 and 36).
	printf "o\t"; for (i = 1; i <= d; i++) printf "%s%d", (i > 1 ? " " : ""),
	    i == 1 ? 1 : i == 36 ? -1 : 0; print "" }' >v.txt
sed -n 1p v.txt | emb-cat -r >s.emb || exit 1
sed -n 2p v.txt | emb-cat -r >t.emb || exit 1
printf 'a A\n' >dict.txt
# Sanitizer and valgrind builds cannot start under an address-space
# limit (they reserve far more): there the same runs go without it.
lim=262144
sh -c '(ulimit -v $1 && emb-cat --version); exit $?' sh $lim \
    >/dev/null 2>&1 || lim=unlimited

( ulimit -v $lim; emb-align -F m.txt -d dict.txt s.emb t.emb ) || exit 1
sed -n '1,6p' m.txt
grep -c '^q ' m.txt
grep -c '^g ' m.txt
grep -c '^w ' m.txt
# a W: |a| / |A| times A; o W: o; to 1e-6 in every component.
{ sed -n 1p v.txt; sed -n 3p v.txt; } | emb-cat -r | emb-align -q -M m.txt |
    emb-cat | awk -F '\t' 'NR == FNR { n = split($2, x, " ")
		for (i = 1; i <= n; i++) w[NR, i] = x[i]; next }
	{ n = split($2, x, " "); e = 0; c = 0; ca = 0
	for (i = 1; i <= n; i++) { c += w[1, i] ^ 2; ca += w[2, i] ^ 2 }
	for (i = 1; i <= n; i++) {
		want = $1 == "a" ? sqrt(c / ca) * w[2, i] : w[3, i]
		if ((x[i] - want) ^ 2 > e) e = (x[i] - want) ^ 2 }
	printf "%s %.5f %.5f %.5f (%d components)%s\n", $1, x[1], x[2],
	    x[3], n, sqrt(e) < 1e-6 ? ", all to 1e-6" : "" }' v.txt - |
    sed 's/-0\.00000/0.00000/g'
awk 'BEGIN { for (i = 0; i < 4096; i++) print "a A" }' >rep.txt
( ulimit -v $lim; emb-align -q -F r.txt -d rep.txt s.emb t.emb ) || exit 1
sed -n 5p r.txt
grep -v '^count\|^crc32' m.txt >m.body
grep -v '^count\|^crc32' r.txt | cmp -s - m.body && echo "repeated: the same map"
