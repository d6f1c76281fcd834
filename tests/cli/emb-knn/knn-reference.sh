# emb-knn against an independent float64 reference (numpy, its own
# summation order): every mode's neighbours and distances on the bundled
# word2vec vectors with adversarial additions (exact ties from copies
# scaled by powers of two, a zero vector, huge and tiny scales), and the
# same bytes whatever the kernel (EMB_KNN_PATH), the thread count, the
# batch size or the sharding.
py=/usr/bin/python3
$py -c 'import numpy' 2>/dev/null || { echo "no numpy for $py" >&2; exit 77; }
# References: 4000 words, then copies of the first ten scaled by 2^10 and
# 2^-30 (the same direction: exact ties), a zero vector, a huge and a tiny
# copy; queries: 150 words, one zero, the huge and the tiny copy.
gzip -dc "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" |
    sed -n '2,4001p' | grep -v '\\' >w.vec
$py - <<'PY' || exit 1
import numpy as np
words, V = [], []
for line in open('w.vec'):
    f = line.split(' ')
    words.append(f[0])
    V.append(np.array(f[1:], dtype=np.float32))
def put(out, w, v):
    out.write(w + '\t' + ' '.join(repr(float(x)) for x in v) + '\n')
with open('w.txt', 'w') as o:
    for w, v in zip(words, V):
        put(o, w, v)
with open('scaled.txt', 'w') as o:
    for w, v in list(zip(words, V))[:10]:
        put(o, w + '_up', v * np.float32(2.0 ** 10))
        put(o, w + '_down', v * np.float32(2.0 ** -30))
with open('odd.txt', 'w') as o:
    put(o, 'zero', V[0] * np.float32(0))
    put(o, 'huge', V[0] * np.float32(1e30))
    put(o, 'tiny', V[0] * np.float32(1e-30))
with open('w2v.txt', 'w') as o:
    o.write('%d %d\n' % (len(words), len(V[0])))
    for w, v in zip(words, V):
        o.write(w + ' ' + ' '.join(repr(float(x)) for x in v) + '\n')
PY
cat w.txt scaled.txt odd.txt | emb-cat -r >ref.emb || exit 1
emb-cat ref.emb >ref.txt
{ awk 'NR % 27 == 1' w.txt | head -150; cat odd.txt; } |
    awk -F '\t' '{ print "q" NR "\t" $0 }' | emb-cat -r >q.emb || exit 1
emb-cat q.emb >q.txt
check() {	# check NAME REFOPTS... -- compares out.txt
	name=$1
	shift
	if $py "$TESTDATA/knn-ref.py" "$@" out.txt >ref.out; then
		echo "$name: reference agrees"
	else
		echo "$name: reference differs"
		cat ref.out
	fi
}
emb-knn -k 10 ref.emb q.emb >out.txt
check "-k 10" ref.txt q.txt 10
cp out.txt plain.txt
emb-knn -s -k 5 ref.emb q.emb >out.txt
check "-s" -s ref.txt q.txt 5
# -x: words of the query's first field; key the queries "words<TAB>q".
awk -F '\t' '{ printf "%s %s\t%s\t%s\n", $2, "the", $1, $3 }' \
    <q.txt >qx.txt
emb-cat -r <qx.txt >qx.emb || exit 1
emb-knn -x 1 -k 5 ref.emb qx.emb >out.txt
check "-x 1" -x 1 ref.txt qx.txt 5
# -c: references labelled by the first letter of their word.
awk -F '\t' '{ print $1 "\t" substr($1, 1, 1) "\t" $2 }' ref.txt |
    emb-cat -r >lab.emb || exit 1
emb-cat lab.emb >lab.txt
emb-knn -c 2 -k 7 lab.emb q.emb >out.txt
check "-c 2" -c 2 lab.txt q.txt 7
# -A: analogy groups from the test questions.
awk -v Q="$TESTDATA/knn-questions.txt" -f "$TESTDATA/knn-questions.awk" \
    w2v.txt | emb-cat -r >qa.emb || exit 1
emb-cat qa.emb >qa.txt
emb-knn -A -k 3 ref.emb qa.emb >out.txt
check "-A" -A ref.txt qa.txt 3
# -b: the neighbours' vectors, in the order of the plain lists.
emb-knn -b -k 10 ref.emb q.emb | emb-cat |
    awk -F '\t' '$NF !~ /^#/ { print $1 }' >bkeys.txt
cut -f 4 plain.txt | cmp -s - bkeys.txt && echo "-b: the same neighbours" ||
    echo "-b: other neighbours"
echo "== the same bytes"
# Each kernel by its name and by its older one (c, avx2); -v names the
# kernel taken, so that an old name that chose another is seen.
for p in float ref c avxvnni avx2 avx512; do
	EMB_KNN_PATH=$p emb-knn -v -k 10 ref.emb q.emb 2>v.txt |
	    cmp -s - plain.txt || echo "EMB_KNN_PATH=$p differs"
	sed -n 's/^emb-knn: \(.*\) bounds:.*/\1/p' v.txt >"kern.$p"
	grep 'zero query' v.txt >&2
done
grep -qx 'float32 GEMM' kern.float || echo "float: $(cat kern.float)"
grep -qx 'int8 portable' kern.ref || echo "ref: $(cat kern.ref)"
cmp -s kern.ref kern.c || echo "c: $(cat kern.c)"
cmp -s kern.avxvnni kern.avx2 || echo "avx2: $(cat kern.avx2)"
for j in 1 2 3; do
	emb-knn -j $j -B 7 -k 10 ref.emb q.emb | cmp -s - plain.txt ||
	    echo "-j $j -B 7 differs"
done
# Three shards in reference order, merged: the unsharded lists.
emb-split -n 3 -o 'shard%d.emb' ref.emb || exit 1
for s in 1 2 3; do
	emb-knn -k 10 shard$s.emb q.emb >s$s.txt || exit 1
done
emb-knnmerge -f 2 -k 10 s1.txt s2.txt s3.txt | cmp -s - plain.txt ||
    echo "sharded merge differs"
echo "done"
