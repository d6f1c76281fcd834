# emb-split's parts stand whole together or not at all: each is written
# under a temporary name, and all take their names once the input has
# been read whole.  A failed split leaves no part (nor temporary), and the
# parts of an earlier split stay as they were.
awk 'BEGIN { for (i = 1; i <= 100; i++) printf "r%d\t%d 1\n", i, i }' |
    emb-cat -r >s.emb || exit 1
head -c 1500 s.emb >cut.emb
for o in "-l 10" "-n 3" "-n 3 -r" "-n 2 -k 1"; do
	emb-split $o -o 'p%d.emb' cut.emb 2>/dev/null
	echo "$o, input cut: exit $?, left: $(ls | grep -c '^p')"
done
emb-split -l 10 -o 'p%d.emb' s.emb
echo "-l 10: exit $?, parts: $(ls p*.emb | wc -l)"
cat p*.emb | cksum >before
emb-split -l 10 -o 'p%d.emb' cut.emb 2>/dev/null
echo "-l 10 again, input cut: exit $?, parts: $(ls p*.emb | wc -l)"
cat p*.emb | cksum | cmp -s - before && echo "the earlier parts are unchanged"
echo "temporaries left: $(ls | grep -c tmp)"
