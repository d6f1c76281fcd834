# emb-knnmerge on hand-made shard outputs: order by distance, then shard,
# then rank; ranks renumbered; files or tagged input (parallel --tag);
# query keys of several fields; reference keys with escapes; errors.
T=$(printf '\t')
t() { tr '|' "$T"; }
t >s1.txt <<'EOF2'
q1|1|a|1e-08
q1|2|b|0.3
q1|3|c\tx|0.3
q2|1|c\tx|0.2
q2|2|a|0.5
q2|3|b|2
EOF2
t >s2.txt <<'EOF2'
q1|1|d|0.3
q1|2|e|0.4
q2|1|e|0.2
q2|2|d|0.5
EOF2
echo "-- files, -k 3"
emb-knnmerge -k 3 s1.txt s2.txt
echo "-- files in the other order: shard 1 is now s2.txt"
emb-knnmerge -k 3 s2.txt s1.txt
echo "-- tagged, shards interleaved and out of order, default -k"
{ sed "s/^/2$T/" s2.txt; sed "s/^/1$T/" s1.txt; } | sort -t "$T" -k2,2 -s |
    emb-knnmerge | sed -n '1,4p'
echo "-- an empty shard is ignored"
: >none.txt
emb-knnmerge -k 2 none.txt s2.txt
echo "-- two-field query keys, -f 2"
sed "s/^/7$T/" s1.txt >f1.txt
sed "s/^/7$T/" s2.txt >f2.txt
emb-knnmerge -f 2 -k 2 f1.txt f2.txt
echo "-- errors"
emb-knnmerge f1.txt f2.txt
echo "exit $?"
head -3 s1.txt >short.txt
emb-knnmerge s2.txt short.txt
echo "exit $?"
sed 's/^q2/q9/' s2.txt >other.txt
emb-knnmerge s1.txt other.txt
echo "exit $?"
t >bad.txt <<'EOF2'
q1|1|a|0.1
q1|3|b|0.2
EOF2
emb-knnmerge bad.txt
echo "exit $?"
t >bad.txt <<'EOF2'
q1|1|a|near
EOF2
emb-knnmerge bad.txt
echo "exit $?"
emb-knnmerge <s1.txt
echo "exit $?"
emb-knnmerge - - <s1.txt
echo "exit $?"
emb-knnmerge -k 0 s1.txt
echo "exit $?"
emb-knnmerge missing.txt
echo "exit $?"
emb-knnmerge s1.txt >/dev/full
echo "exit $?"
