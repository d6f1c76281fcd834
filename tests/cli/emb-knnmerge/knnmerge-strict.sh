# emb-knnmerge reads only what emb-knn can have written: a distance from
# 0 to 2 in its shortest spelling, in rank order within a shard.  A list
# out of rank order, or a distance spelled ".3", "1e-1", " 0.35", "0.50"
# or out of range, is refused (exit 1) naming the shard and line, since
# the merge would order it otherwise than one search.
set -u
for d in 0.35 .35 3.5e-1 ' 0.35' 0.350 +0.35 2.5 -0.25 0x1p-2 nan; do
	printf 'q\t1\ta\t0.25\nq\t2\tb\t%s\n' "$d" >s1
	printf 'q\t1\tc\t0.3\n' >s2
	emb-knnmerge -k 2 s1 s2
	echo "'$d': exit $?"
done
printf 'q\t1\ta\t0.5\nq\t2\tb\t0.25\n' >s1
emb-knnmerge -k 2 s1 s2
echo "out of rank order: exit $?"
printf 'q\t1\ta\t0.25\nq\t2\tb\t0.25\n' >s1
emb-knnmerge -k 3 s1 s2
echo "ties: exit $?"
exit 0
