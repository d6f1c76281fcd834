# Tagged input (parallel --tag) costs time linear in the input, whatever
# the number of shards: 20,000 shards, their lines interleaved query by
# query, merge well within a limit of CPU time (not wall time).  On a
# small case the output is what the per-shard temporary files gave: 40
# shards tagged out of order, interleaved, with ties across shards; and
# the same shards as files.
awk 'BEGIN { for (q = 1; q <= 3; q++) for (s = 1; s <= 40; s++)
	for (k = 1; k <= 2; k++)
		printf "%d\tq%d\t%d\tr%d.%d\t%g\n", (s * 17) % 41, q, k, s, k,
		    (((s * 31 + q * 7) % 19) * 10 + k) / 100 }' >small.txt
emb-knnmerge -k 4 <small.txt
echo "-- the same shards as files"
for s in $(cut -f 1 small.txt | sort -nu); do
	awk -F'\t' -v s="$s" '$1 == s' small.txt | cut -f 2- >"shard.$s"
done
emb-knnmerge -k 4 $(cut -f 1 small.txt | sort -nu | sed 's/^/shard./') |
    cmp - "$(emb-knnmerge -k 4 <small.txt >tagged.txt; echo tagged.txt)" &&
    echo same
echo "-- no newline after the last line: a list cut short (exit 1)"
printf '2\tq1\t1\tb\t0.5\n1\tq1\t1\ta\t0.7' | emb-knnmerge -k 2
echo "-- 20000 shards"
awk 'BEGIN { for (q = 1; q <= 2; q++) for (s = 1; s <= 20000; s++)
	printf "%d\tq%d\t1\tr%d.%d\t%g\n", s, q, s, q,
	    ((s * 7919 + q * 104729) % 100003) / 1000000 }' >tags.txt
(ulimit -t 20; emb-knnmerge -k 3 <tags.txt)
echo "exit $?"
echo "-- 60000 shards whose tags share their low 32 bits"
awk 'BEGIN { for (s = 1; s <= 60000; s++) printf "%.0f\tq1\t1\tr%d\t%g\n",
	s * 4294967296, s, (s * 7919 % 100003) / 1000000 }' >hi.txt
(ulimit -t 20; emb-knnmerge -k 3 <hi.txt)
echo "exit $?"
