# A result in examples/ is redone when a program it ran or a data file it
# read changes, and only then (the word retrieval, and the probing results
# on a cut of one task with KNN alone); RESULTS.md shows what the programs
# print now (checked on its word retrieval block, the one quick enough to
# rerun here).
set -u
top=$(cd "$TESTDATA/../.." && pwd)
mkdir bin
for p in lookup bov ose knn eval; do cp "$(command -v emb-$p)" bin/; done
run() {
	# The whole log first: grep -q would stop reading at its match, and
	# make, writing on, would die of SIGPIPE before it had finished.
	make -C "$top/examples" B="$PWD/bin" OUT="$PWD/out" \
	    BUILD_PROGS=: retrieval >make.log 2>&1 ||
	    { echo "$1: make failed"; cat make.log; }
	if grep -q '04-retrieval\.sh' make.log; then
		echo "$1: ran"
	else
		echo "$1: up to date"
	fi
}
run first
run again
printf x >>bin/emb-knn
run "emb-knn changed"
run again
touch bin/emb-ose
run "emb-ose touched, same bytes"
mkdir probing
awk 'NR % 8 == 0' "$EXDATA/senteval-probing/past_present.txt" \
    >probing/past_present.txt
probe() {
	make -C "$top/examples" B="$PWD/bin" OUT="$PWD/out" \
	    BUILD_PROGS=: PROBING="$PWD/probing" PROBE_TASKS=past_present \
	    PROBE_EMBS=glove100 PROBE_CLFS=knn probing >make.log 2>&1 ||
	    { echo "probing, $1: make failed"; cat make.log; }
	if grep -q 'senteval\.sh' make.log; then
		echo "probing, $1: ran"
	else
		echo "probing, $1: up to date"
	fi
}
probe first
probe again
printf 'tr\tPAST\tit rained\n' >>probing/past_present.txt
probe "data file changed"
probe again
printf x >>bin/emb-eval
probe "emb-eval changed"
probe again
touch bin/emb-knn
probe "emb-knn touched, not used"
awk '/^## Word retrieval/ { s = 1 } s && /^```/ { if (f) exit; f = 1; next }
    f' "$top/examples/RESULTS.md" >block.txt
if cmp -s block.txt out/retrieval.txt; then
	echo "RESULTS.md: retrieval block current"
else
	echo "RESULTS.md: retrieval block stale:"
	diff block.txt out/retrieval.txt | head -5
fi
