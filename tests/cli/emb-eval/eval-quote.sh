# emb-eval: a message quotes at most 40 bytes of the input, control bytes
# escaped: a 200 kB gold line, a pairs score, a split and a key, each
# holding a terminal escape sequence.
emb-cat -r "$TESTDATA/sts-a.txt" >a.emb || exit 1
emb-cat -r "$TESTDATA/sts-b.txt" >b.emb || exit 1
emb-cat -r "$TESTDATA/eval-train.txt" >train.emb || exit 1
st() { "$@" >/dev/null; echo "exit $?"; }
esc=$(printf '\033')
awk -v e="$esc" 'BEGIN { printf "1\n2%s[2J", e
	for (i = 0; i < 200000; i++) printf "x"; printf "\n" }' >gold.txt
st emb-eval -p b.emb -g gold.txt a.emb
printf 'cat dog 1%s[31mred\n' "$esc" >pairs.txt
st emb-eval -w pairs.txt train.emb
printf 'a\ttrain%s]0;title\a\t1 2\n' "$esc" | emb-cat -r >split.emb ||
    exit 1
st emb-eval -s 2 split.emb
sed "1s/^news	1	/news	1$esc[2J	/" "$TESTDATA/sts-b.txt" | emb-cat -r >b2.emb ||
    exit 1
st emb-eval -p b2.emb -g "$TESTDATA/sts-gold.txt" a.emb
st emb-eval -c "knn,x$esc[2J" train.emb
