# -b: the neighbours' vectors as a stream, one group per query keyed by the
# query's key with its k neighbours as members (their unit vectors), in the
# order of the text output; and a run with the same answers whatever the
# batch size and the number of threads.
cat >ref.txt <<'T'
east	3 0
north	0 2
northeast	1 1
west	-1 0
T
emb-cat -r <ref.txt >ref.emb || exit 1
printf 'q1\t1 0.25\nq2\t-1 1\n' | emb-cat -r >q.emb || exit 1
emb-knn -b -k 2 ref.emb <q.emb >nn.emb || exit 1
emb-cat nn.emb
echo "== the same on real vectors, batch 1 and 1 thread or 7 threads"
gzip -dc "$EXDATA/glove-6B-100d-2.6k.txt.gz" |
    awk '{ w = $1; gsub(/\\/, "\\\\", w); $1 = ""; print w "\t" substr($0, 2) }' |
    emb-cat -r >glove.emb || exit 1
emb-knn -k 7 glove.emb <glove.emb >a.txt || exit 1
emb-knn -k 7 -B 1 -t 1 glove.emb <glove.emb >b.txt || exit 1
emb-knn -k 7 -B 333 -t 7 glove.emb <glove.emb >c.txt || exit 1
cmp a.txt b.txt && cmp a.txt c.txt && wc -l <a.txt
