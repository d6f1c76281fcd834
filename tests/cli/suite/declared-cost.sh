# What the input only declares costs nothing, in memory or time: streams
# of the largest dimension (2^20) holding no vector or a single one, a
# word2vec header declaring a billion words above two, 20000 empty groups
# in 270 KB.  Each runs in an 800 MB address space (threads' stacks and
# malloc arenas take a share; where the build can start in one) and 10 s
# of CPU.
lim=800000
sh -c '(ulimit -v $1 && emb-cat --version); exit $?' sh $lim \
    >/dev/null 2>&1 || lim=unlimited
run() {
	(ulimit -v $lim; ulimit -t 10; "$@")
}
emb-cat -r -d 1048576 </dev/null >none.emb || exit 1
awk 'BEGIN { printf "w\tc"; for (i = 0; i < 1048576; i++) printf "\t%s",
    i ? "0" : "1"; print "" }' | tr '\t' ' ' | sed 's/ /\t/; s/ /\t/' |
    emb-cat -r >one.emb || exit 1
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "g%d\t#0\n", i }' |
    emb-cat -r -d 1048576 >empty.emb || exit 1
printf '1000000000 2\nking 1 2\nqueen 3 4\n' >lying.txt
run emb-knn -k 1 none.emb none.emb
echo "emb-knn, no vectors: exit $?"
run emb-knn -k 1 one.emb one.emb | cut -c1-40
echo "emb-knn, one vector: exit $?"
run emb-augment -k 1 -K 1 -l 2 one.emb | emb-cat -k
echo "emb-augment, one vector: exit $?"
run emb-ose -q -e skip empty.emb | emb-cat
echo "emb-ose -e skip, 20000 empty groups: exit $?"
run emb-bov -q -e skip empty.emb | emb-cat
echo "emb-bov -e skip, 20000 empty groups: exit $?"
run emb-ose -q -j 2 -e skip empty.emb | emb-cat
echo "emb-ose -j 2 -e skip, 20000 empty groups: exit $?"
echo king | run emb-lookup -q -e lying.txt | emb-cat
echo "emb-lookup, a header declaring 10^9 words: exit $?"
