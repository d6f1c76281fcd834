# emb-eval -r on a toy corpus, figures checked by hand.  Six documents in
# two dimensions, d6 the same vector as d3 (a tie, d3 first as in the
# corpus); cutoffs given in any order, 10 beyond the corpus.
#
# q1 = (1, 0) ranks d1 d2 d3 d6 d4 d5 (cosines 1, .8, .6, .6, 0, -1);
# judged d2 2, d6 1, d5 1, dX 3 (no such document), d1 0: 4 relevant.
#   @2: d2 at rank 2: recall 1/4, P 1/2, MRR 1/2, MAP (1/2)/4 = 0.125,
#       nDCG (2/log2 3) / (3 + 2/log2 3) = 0.296082;
#   @4: d6 at 4: recall 1/2, P 1/2, MAP (1/2 + 2/4)/4 = 0.25, nDCG
#       (2/log2 3 + 1/log2 5) / (3 + 2/log2 3 + 1/2 + 1/log2 5) = 0.325956;
#   @10: d5 at 6: recall 3/4, P 3/10, MAP (1 + 3/6)/4 = 0.375.
# q2 = (0, 1) ranks d4 d3 d6 d2 d1 d5; judged d6 1 only, third behind
# its twin d3: @2 all 0; @4 recall 1, P 1/4, MRR = MAP 1/3, nDCG
# (1/log2 4) / 1 = 0.5; @10 P 1/10.
# q3 is a zero vector: it retrieves nothing, every figure 0.  q4 is
# judged with no relevant document (grades 0 and -1): every figure 0,
# counted in the mean as trec_eval does.  q5 has no judgment: not
# scored.  q9 has no vector and dX no document: one line on standard
# error says so.  The means are over q1 to q4.
printf 'd1\t1 0\nd2\t0.8 0.6\nd3\t0.6 0.8\nd4\t0 1\nd5\t-1 0\nd6\t0.6 0.8\n' |
    emb-cat -r >corpus.emb || exit 1
printf 'q1\t1 0\nq2\t0 1\nq3\t0 0\nq4\t1 0\nq5\t-1 0\n' |
    emb-cat -r >queries.emb || exit 1
cat >qrels.txt <<'END'
# query iteration document grade
q1 0 d2 2
q1 0 d6 1
q1 0 d5 1
q1 0 dX 3
q1 0 d1 0
q2	0	d6	1
q3 0 d1 1

q4 0 d1 0
q4 0 d2 -1
q9 0 d1 1
END
emb-eval -v -r qrels.txt -K 10,2,1,4 --per-query perq.txt \
    --predictions run.txt -T toy corpus.emb <queries.emb
echo "exit $?"
echo "== q1, q2 exactly (--per-query)"
grep -E '^q[12]	.*@(2|4|10)	' perq.txt
echo "== the ranking of q2 (--predictions)"
grep '^q2' run.txt
echo "== the queries of the run (none for q3, a zero vector)"
cut -f 1 run.txt | uniq | paste -s -d ' ' -
