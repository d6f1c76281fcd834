#!/usr/bin/python3
"""retrieval-ref.py - an independent reference for emb-eval -r.

    retrieval-ref.py [-i F] [-K LIST] QRELS CORPUS.npy CORPUS.keys
        QUERIES.npy QUERIES.keys PERQUERY SUMMARY

The streams are given as emb-cat writes them with -N: the vectors as a
NumPy array and the keys, one a line (the id is key field F, default 1).
PERQUERY and SUMMARY are what emb-eval -r -K LIST --per-query PERQUERY
printed for the same inputs (SUMMARY its standard output).

The reference ranks the corpus for each query by cosine computed here
with numpy in float64 (its own summation order: nothing shared with
emb-eval's search), ties to the earlier corpus row, and scores each
ranking as trec_eval 10.0 does, transcribed from its sources (m_P.c,
m_recall.c, m_recip_rank.c, m_map_cut.c, m_ndcg_cut.c and
form_res_rels.c): a retrieved document's relevance is its grade in the
qrels, -1 when the qrels do not judge it for the query; relevant is a
grade of 1 or more; num_rel counts the query's relevant judgments
whether the document is in the corpus or not; the ideal DCG takes every
judged grade above 0 of the query.  The measures of trec_eval cut at k
(P_k, recall_k, map_cut_k, ndcg_cut_k) are those of the run truncated at
its first k documents, and MRR@k is recip_rank on that truncated run.
A query with a zero vector retrieves nothing; a query that the qrels
judge but no relevant document is scored, every figure 0, and counts in
the mean (trec_eval does so since 2006).  Only the queries that the
qrels judge and the query stream holds are scored.

Checks each per-query figure to 1e-12 and each mean of SUMMARY (printed
to 6 decimals) to 5e-7 plus 1e-12, and the counts.  Prints "ok ..." or
what differs, exit 1.
"""
import math
import sys

import numpy as np

TOL = 1e-12
FIGS = ('recall', 'P', 'MRR', 'MAP', 'nDCG')


def readqrels(path):
    """{query: {doc: grade}} and the query order of first lines."""
    qrels, order, cols = {}, [], None
    with open(path, 'rb') as f:
        for line in f:
            line = line.decode('utf-8', 'surrogateescape')
            if line.startswith('#') or not line.strip():
                continue
            t = line.split()
            assert len(t) in (3, 4), line
            cols = cols or len(t)
            assert len(t) == cols, line
            q, d, g = t[0], t[-2], int(t[-1])
            if q not in qrels:
                qrels[q] = {}
                order.append(q)
            assert d not in qrels[q], line
            qrels[q][d] = g
    return qrels, order


def readids(path, field):
    with open(path, 'rb') as f:
        return [k.decode('utf-8', 'surrogateescape').rstrip('\n')
                .split('\t')[field - 1] for k in f]


def rel_list(ranking, judged):
    """trec_eval's results_rel_list: the grade, or -1 (RELVALUE_NONPOOL)."""
    return [judged.get(d, -1) for d in ranking]


def p_cut(rels, k):
    # m_P.c on a run of at most k documents.
    rel_so_far = sum(1 for r in rels[:k] if r >= 1)
    return rel_so_far / k


def recall_cut(rels, k, num_rel):
    # m_recall.c: 0 when the query has no relevant document.
    if num_rel == 0:
        return 0.0
    rel_so_far = sum(1 for r in rels[:k] if r >= 1)
    return rel_so_far / num_rel


def recip_rank_cut(rels, k):
    # m_recip_rank.c on the run truncated at k.
    for i, r in enumerate(rels[:k]):
        if r >= 1:
            return 1.0 / (i + 1)
    return 0.0


def map_cut(rels, k, num_rel):
    # m_map_cut.c: the precisions at the relevant ranks up to k, summed
    # in rank order, over all relevant documents of the query.
    if num_rel == 0:
        return 0.0
    rel_so_far, s = 0, 0.0
    for i, r in enumerate(rels[:k]):
        if r >= 1:
            rel_so_far += 1
            s += rel_so_far / (i + 1)
    return s / num_rel


def ndcg_cut(rels, k, judged):
    # m_ndcg_cut.c: gain = the grade where above 0, discount log2(i + 2)
    # for the document at 0-based i; the ideal from every judged grade
    # (form_res_rels.c's rel_levels: grades >= 0 counted by level, the
    # levels above 0 taken largest first, gain = the level).
    dcg = 0.0
    for i, r in enumerate(rels[:k]):
        if r > 0:
            dcg += r / math.log2(i + 2)
    levels = sorted((g for g in judged.values() if g > 0), reverse=True)
    ideal = 0.0
    for i, g in enumerate(levels[:k]):
        ideal += g / math.log2(i + 2)
    return dcg / ideal if ideal > 0.0 else dcg


def main(argv):
    field, cuts = 1, [1, 10, 100]
    while argv and argv[0].startswith('-'):
        if argv[0] == '-i':
            field = int(argv[1])
        elif argv[0] == '-K':
            cuts = sorted({int(x) for x in argv[1].split(',')})
        else:
            sys.exit('retrieval-ref.py: unknown option ' + argv[0])
        argv = argv[2:]
    qrels_path, cnpy, ckeys, qnpy, qkeys, perq_path, summ_path = argv
    qrels, _ = readqrels(qrels_path)
    C = np.load(cnpy).astype(np.float64)
    Q = np.load(qnpy).astype(np.float64)
    cids, qids = readids(ckeys, field), readids(qkeys, field)
    cnorm = np.sqrt((C * C).sum(axis=1))
    kmax = max(cuts)
    want = {}
    means = {(f, k): 0.0 for f in FIGS for k in cuts}
    nq = norel = nzero = 0
    for qi, q in enumerate(qids):
        if q not in qrels:
            continue
        judged = qrels[q]
        num_rel = sum(1 for g in judged.values() if g >= 1)
        norel += num_rel == 0
        qn = math.sqrt(float((Q[qi] * Q[qi]).sum()))
        if qn == 0.0:
            nzero += 1
            ranking = []
        else:
            dots = (C * Q[qi]).sum(axis=1)
            with np.errstate(divide='ignore', invalid='ignore'):
                cos = np.where(cnorm > 0, dots / (cnorm * qn), 0.0)
            order = np.lexsort((np.arange(len(cids)), -cos))[:kmax]
            ranking = [cids[j] for j in order]
        rels = rel_list(ranking, judged)
        for k in cuts:
            v = {'recall': recall_cut(rels, k, num_rel),
                 'P': p_cut(rels, k),
                 'MRR': recip_rank_cut(rels, k),
                 'MAP': map_cut(rels, k, num_rel),
                 'nDCG': ndcg_cut(rels, k, judged)}
            for f in FIGS:
                want[(q, '%s@%d' % (f, k))] = v[f]
                means[(f, k)] += v[f]
        nq += 1
    bad = []
    got = {}
    with open(perq_path) as f:
        for line in f:
            q, m, v = line.rstrip('\n').split('\t')
            got[(q, m)] = float(v)
    if set(got) != set(want):
        bad.append('per-query lines: %d, expected %d (%d in common)' %
                   (len(got), len(want), len(set(got) & set(want))))
    for key in sorted(set(got) & set(want)):
        if abs(got[key] - want[key]) > TOL:
            bad.append('%s %s: %r, expected %r' % (key + (got[key],
                                                         want[key])))
    summary = {}
    with open(summ_path) as f:
        for line in f:
            _, _, m, v = line.rstrip('\n').split('\t')
            summary[m] = v
    for (fig, k), s in means.items():
        m = '%s@%d' % (fig, k)
        if m not in summary or abs(float(summary[m]) - s / nq) > 5e-7 + TOL:
            bad.append('%s: %s, expected %.9f' % (m, summary.get(m),
                                                  s / nq))
    for m, v in (('queries', nq), ('queries-no-relevant', norel),
                 ('queries-zero', nzero)):
        if summary.get(m) != str(v):
            bad.append('%s: %s, expected %d' % (m, summary.get(m), v))
    for b in bad[:20]:
        print(b)
    if bad:
        return 1
    print('ok %d queries, %d figures each within %g of the reference, '
          'the means and the counts' % (nq, len(want) // max(nq, 1), TOL))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
