# Every distance emb-knn prints is the true 1 - cos of the float32 inputs
# rounded once to double, and neighbours are ranked by it, ties in
# reference order: checked against rational arithmetic (knn-exact.py,
# Python integers and fractions) on adversarial sets (1-ulp near-ties,
# exact duplicates, vectors scaled by 1e30 and 1e-38, subnormals, zero
# vectors, dimensions 1 and 65537), on every kernel path this CPU has,
# with 1, 2 and 3 threads and batches of 1, 2 and 4096 queries.
py=/usr/bin/python3
$py -c 'import numpy' 2>/dev/null || { echo "no numpy for $py" >&2; exit 77; }
$py "$TESTDATA/knn-exact.py" gen . || exit 1
while read -r name k; do
	emb-cat -r <"$name.ref.txt" >"$name.ref.emb" || exit 1
	emb-cat -r <"$name.q.txt" >"$name.q.emb" || exit 1
	for p in float ref avxvnni avx512; do
		for j in 1 2 3; do
			for b in 1 2 4096; do
				EMB_KNN_PATH=$p emb-knn -j $j -B $b -k "$k" \
				    "$name.ref.emb" "$name.q.emb" \
				    >"$name.$p.$j.$b.out" 2>/dev/null || exit 1
			done
			cmp -s "$name.$p.$j.1.out" "$name.$p.$j.2.out" &&
			    cmp -s "$name.$p.$j.1.out" "$name.$p.$j.4096.out" ||
			    echo "$name: EMB_KNN_PATH=$p -j $j: batches differ"
		done
		cmp -s "$name.$p.1.1.out" "$name.$p.2.1.out" &&
		    cmp -s "$name.$p.1.1.out" "$name.$p.3.1.out" ||
		    echo "$name: EMB_KNN_PATH=$p: thread counts differ"
		cmp -s "$name.float.1.1.out" "$name.$p.1.1.out" ||
		    echo "$name: EMB_KNN_PATH=$p differs from float"
	done
	$py "$TESTDATA/knn-exact.py" check . "$name" "$k" \
	    "$name.float.1.1.out" || echo "$name: not the exact answer"
done <sets
