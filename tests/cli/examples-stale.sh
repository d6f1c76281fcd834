# A result in examples/ is redone when a program it ran changes, and only
# then; RESULTS.md shows what the programs print now (checked on its word
# retrieval block, the one quick enough to rerun here).
set -u
top=$(cd "$TESTDATA/../.." && pwd)
mkdir bin
for p in lookup bov ose knn; do cp "$(command -v emb-$p)" bin/; done
run() {
	if make -C "$top/examples" B="$PWD/bin" OUT="$PWD/out" \
	    BUILD_PROGS=: retrieval 2>&1 | grep -q '04-retrieval\.sh'; then
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
awk '/^## Word retrieval/ { s = 1 } s && /^```/ { if (f) exit; f = 1; next }
    f' "$top/examples/RESULTS.md" >block.txt
if cmp -s block.txt out/retrieval.txt; then
	echo "RESULTS.md: retrieval block current"
else
	echo "RESULTS.md: retrieval block stale:"
	diff block.txt out/retrieval.txt | head -5
fi
