# --csls and --mutual keep the plain search's rule for zero vectors: a
# zero query (no known word) has no neighbour listed, only counted in the
# warning; a zero reference is at distance 1 from every query but has no
# nearest query, so --mutual pairs it with none.
printf 'east\t1 0\nnorth\t0 1\nne\t1 1\nzref\t0 0\n' | emb-cat -r >r.emb ||
    exit 1
printf 'x\t1 0.1\nzq\t0 0\ny\t0.2 1\n' | emb-cat -r >q.emb || exit 1
echo "== plain"
emb-knn -k 4 r.emb q.emb
echo "== csls"
emb-knn --csls 2 -k 2 r.emb q.emb
echo "== mutual, every reference among the k nearest"
emb-knn --mutual -k 4 r.emb q.emb
echo "== mutual, queries all zero"
printf 'z1\t0 0\nz2\t0 0\n' | emb-cat -r | emb-knn --mutual -k 1 r.emb
echo "exit $?"
