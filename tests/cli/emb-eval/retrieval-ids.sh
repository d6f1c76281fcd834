# emb-eval -r: ids in key field -i, judgments in three columns with CRLF
# line ends, and an id holding a backslash, which the qrels give raw and
# the keys escaped (emb(5)): the ids meet; the per-query lines and the
# run print them as the keys hold them.  The same streams and judgments
# in trec_eval's four columns, ids in the first field, give the same
# figures.  q1 = (0, 1) ranks d3, a\b (grade 2), d1 (grade 1): @2 nDCG
# (2/log2 3) / (2 + 1/log2 3) = 0.479625.
printf 'a title\td1\t1 0\nanother\ta\\\\b\t0.6 0.8\nthird\td3\t0 1\n' |
    emb-cat -r >c.emb || exit 1
printf 'what\tq1\t0 1\nwhich\tq2\t1 0.1\n' | emb-cat -r >q.emb || exit 1
printf 'q1 a\\b 2\r\nq1 d1 1\r\n\r\nq2 d1 1\r\n' >qrels.tsv
emb-eval -r qrels.tsv -i 2 -K 1,2 --per-query perq.txt --predictions run.txt \
    -T ids c.emb q.emb >out.txt
echo "exit $?"
grep -v '	0$' out.txt
grep nDCG perq.txt
cat run.txt
# Four columns, the id first.
emb-cat c.emb | cut -f 2- | emb-cat -r >c1.emb || exit 1
emb-cat q.emb | cut -f 2- | emb-cat -r >q1.emb || exit 1
tr -d '\r' <qrels.tsv | awk 'NF { print $1, "Q0", $2, $3 }' >qrels.txt
emb-eval -r qrels.txt -K 1,2 --per-query perq1.txt -T ids c1.emb q1.emb \
    >out1.txt
emb-eval -r qrels.tsv -i 2 -K 1,2 -T ids c.emb q.emb | cmp -s - out1.txt &&
    cmp -s perq.txt perq1.txt && echo "key field 1, four columns: the same"
