# -v with --csls and --mutual counts the queries they searched (it said
# "0 queries searched" however many there were); the times are masked.
printf 'east\t1 0\nnorth\t0 1\nne\t1 1\n' | emb-cat -r >r.emb || exit 1
printf 'x\t1 0.1\ny\t0.2 1\nz\t1 1\n' | emb-cat -r >q.emb || exit 1
for m in '--csls 2' --mutual; do
	emb-knn -v $m -k 2 r.emb q.emb 2>err >/dev/null || exit 1
	sed -n 's/.*; \([0-9]* queries searched\) in .*/\1/p' err
done
