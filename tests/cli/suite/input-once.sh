# Inputs read as they come and checked whole: the vectors of emb-lookup
# through a FIFO or <(...) (opened once, a store too), a directory named
# as the input, a neighbour list or a PCA model cut inside its last line
# (from a pipe: a regular file is what it holds), a model declaring more
# components than it holds.
# The address space is limited where the programs start under the limit
# (sanitizer and valgrind builds reserve far more: there, no limit).
lim=200000
sh -c '(ulimit -v $1 && emb-cat --version); exit $?' sh $lim \
    >/dev/null 2>&1 || lim=unlimited
printf '2 3\nking 1 2 3\nqueen 3 2 1\n' >v.txt
emb-lookup -q -e v.txt -B v.store || exit 1
mkfifo ff
(cat v.txt >ff &)
echo queen | timeout 600 emb-lookup -q -e ff | emb-cat
echo "fifo: exit $?"
(cat v.store >ff &)
echo king | timeout 600 emb-lookup -q -e ff | emb-cat
echo "store through a fifo: exit $?"
mkdir d
emb-knn d v.store </dev/null
echo "emb-knn, a directory: exit $?"
emb-cat d
echo "emb-cat, a directory: exit $?"
T=$(printf '\t')
printf "q${T}1${T}a${T}0.5\nq${T}2${T}b${T}0.6" >cut.txt
cat cut.txt | emb-knnmerge -
echo "list cut: exit $?"
printf "1${T}q${T}1${T}a${T}0.5\n1${T}q${T}2${T}b${T}0.6" | emb-knnmerge
echo "tagged list cut: exit $?"
printf 'x\t1 0 0\ny\t0 1 0\nz\t1 1 1\n' | emb-cat -r >w.emb || exit 1
emb-normalize -q -F m.txt -r 1 w.emb || exit 1
head -c -1 m.txt >mcut.txt
cat mcut.txt | emb-normalize -q -M /dev/stdin w.emb >/dev/null
echo "model cut: exit $?"
sed 's/^ncomp 1$/ncomp 3/' m.txt >mbig.txt
(ulimit -v $lim; emb-normalize -q -M mbig.txt w.emb >/dev/null)
echo "model declaring 3 components, holding 1: exit $?"
awk 'BEGIN { print "emb-pca 1\ndim 65536\ncenter 0\ncount 3\nncomp 65536"
	for (r = 0; r < 2; r++) { printf r ? "comp" : "mean"
		for (i = 0; i < 65536; i++) printf " %d", r && i == 0
		print "" } }' >mhuge.txt
(ulimit -v $lim; emb-normalize -q -M mhuge.txt w.emb >/dev/null)
echo "model declaring 65536 x 65536: exit $?"
