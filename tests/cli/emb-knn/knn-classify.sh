# Classification: the label is a field of the reference keys (-c); a plain
# majority vote (ties to the smallest label), a vote weighted by 1/distance
# (-W; a neighbour at distance 0 outvotes all others), leave-one-out with
# -s, and a key without the label field.
cat >ref.txt <<'T'
a1	A	1 0
a2	A	1 0.2
b1	B	0 1
b2	B	0.2 1
b3	B	0.1 1
c1	C	-1 0.1
T
emb-cat -r <ref.txt >ref.emb || exit 1
printf 'p\t1 0.9\nq\t0 1\nr\t-1 0\n' | emb-cat -r >q.emb || exit 1
for k in 1 3 4 6; do
	echo "== k=$k"
	emb-knn -c 2 -k $k ref.emb <q.emb
	echo "== k=$k, weighted"
	emb-knn -c 2 -W -k $k ref.emb <q.emb
done
echo "== leave one out: every reference classified by the others"
emb-knn -c 2 -s -k 3 ref.emb ref.emb
echo "== a reference key without field 3"
emb-knn -c 3 ref.emb <q.emb
echo "exit $?"
