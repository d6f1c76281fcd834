# emb-eval: cost follows the data read.  8 rows of dimension 16384 (half
# a megabyte) take every classifier, STS and word similarity well under
# 100 MB and a few CPU seconds: LDA and ridge solve in the 8 x 8 dual,
# where the primal took 2 to 4 GB and minutes.  A header declaring 2^20
# dimensions over no record costs nothing either.  Peak RSS is measured
# by /usr/bin/time when there is one, else bounded by ulimit -v.
awk 'BEGIN { s = 7; for (i = 0; i < 8; i++) {
	printf "w%d\t%s\t", i, i % 2 ? "a" : "b"
	for (j = 0; j < 16384; j++) {
		s = (s * 1103515245 + 12345) % 2147483648
		printf "%s%d", j ? " " : "", s % 19 - 9
	}
	printf "\n" } }' | emb-cat -r >big.emb || exit 1
printf 'w1 w2 1\nw3 w4 2\nw5 w6 3\n' >pairs.txt
printf '1\n2\n3\n4\n5\n6\n7\n8\n' >gold.txt
emb-cat -r -d 1048576 </dev/null >wide.emb || exit 1
ulimit -t 20
# Under AddressSanitizer freed blocks wait in a quarantine of up to 256 MB:
# the bound is on the program, so keep that small.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8
export ASAN_OPTIONS
run() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o rss.txt "$@" >out.txt
		st=$?
		kb=$(tail -1 rss.txt)
		[ "$kb" -lt 102400 ] || echo "$*: peak RSS $kb kB"
	else
		(ulimit -v 1048576; "$@" >out.txt)
		st=$?
	fi
	echo "$st $(grep -c . out.txt)"
}
for c in knn centroid lda ridge logreg; do
	run emb-eval -j 1 -l 2 -k 2 -c $c big.emb
	run emb-eval -j 1 -l 2 -t big.emb -c $c big.emb
done
run emb-eval -j 1 -l 2 -k 2 -c lda --shrinkage auto big.emb
run emb-eval -j 1 -l 2 -k 2 -c lda --shrinkage 0.5 big.emb
run emb-eval -j 1 -l 2 -k 2 -c ridge --alpha 0 big.emb
run emb-eval -j 1 -l 2 -k 2 -c mlp --nhid 8 --inner-folds 2 --max-epoch 8 \
    big.emb
run emb-eval -j 1 -p big.emb -g gold.txt big.emb
run emb-eval -j 1 -w pairs.txt big.emb
run emb-eval -j 1 -c all - <wide.emb
