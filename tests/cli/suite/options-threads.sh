# -j is the thread option of every program that has threads (emb-ose,
# emb-eval, emb-knn), --threads its long form, and the output is the same
# for -j 1 and -j 2.  emb-knn still takes its old spelling, -t.
zcat "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" | awk '
	NR == 1 { next }
	NR > 601 { exit }
	{ k = index($0, " "); w = substr($0, 1, k - 1)
	  print w "\tc" NR % 3 "\t" substr($0, k + 1) }' >w.txt || exit 1
emb-cat -r w.txt >w.emb || exit 1
# Groups of 1 to 9 words for emb-ose.
awk -F '\t' '{ v[NR] = $1 "\t" $3 }
	END { i = 1; for (g = 0; i <= NR; g++) {
		m = 1 + g % 9; if (i + m > NR + 1) m = NR + 1 - i
		print "g" g "\t#" m
		for (j = 0; j < m; j++) print v[i++] } }' w.txt |
    emb-cat -r >g.emb || exit 1

same() {	# same NAME FILE1 FILE2
	if cmp -s "$2" "$3"; then
		echo "$1: same"
	else
		echo "$1: differs"
	fi
}
emb-ose -j 1 g.emb >ose1.emb 2>ose1.err || exit 1
emb-ose -j 2 g.emb >ose2.emb 2>ose2.err || exit 1
emb-ose --threads=2 g.emb >ose3.emb 2>ose3.err || exit 1
same "emb-ose -j 2" ose1.emb ose2.emb
same "emb-ose -j 2 summary" ose1.err ose2.err
same "emb-ose --threads=2" ose1.emb ose3.emb

emb-eval -j 1 -l 2 -k 3 -c knn,ridge w.emb >eval1.txt || exit 1
emb-eval -j 2 -l 2 -k 3 -c knn,ridge w.emb >eval2.txt || exit 1
emb-eval --threads 2 -l 2 -k 3 -c knn,ridge w.emb >eval3.txt || exit 1
same "emb-eval -j 2" eval1.txt eval2.txt
same "emb-eval --threads 2" eval1.txt eval3.txt
grep -c . eval1.txt

emb-knn -j 1 -k 5 -B 100 w.emb w.emb >knn1.txt || exit 1
emb-knn -j 2 -k 5 -B 100 w.emb w.emb >knn2.txt || exit 1
emb-knn --threads=2 -k 5 -B 100 w.emb w.emb >knn3.txt || exit 1
emb-knn -t 2 -k 5 -B 100 w.emb w.emb >knn4.txt || exit 1
same "emb-knn -j 2" knn1.txt knn2.txt
same "emb-knn --threads=2" knn1.txt knn3.txt
same "emb-knn -t 2 (the old spelling)" knn1.txt knn4.txt
wc -l <knn1.txt

# The range is checked under the name given.
emb-knn -j 0 w.emb w.emb; echo "emb-knn -j 0: $?"
emb-knn -t 0 w.emb w.emb; echo "emb-knn -t 0: $?"
