# cat a.emb b.emb is one stream whose records are a's then b's; a
# dimension change between them is refused.
set -u
printf 'a1\t1 2 3\ng\t#1\na2\t4 5 6\n' | emb-cat -r >a.emb
printf 'b1\t0.5 0.25 0.125\n' | emb-cat -r >b.emb
emb-cat -r -d 3 </dev/null >e.emb
cat a.emb e.emb b.emb a.emb | emb-cat
emb-cat a.emb >ta && emb-cat b.emb >tb && cat ta tb >tab &&
    cat a.emb b.emb | emb-cat | cmp - tab && echo "cat a b = a then b"
# A concatenation of a concatenation is still a stream.
cat a.emb b.emb >ab.emb
cat ab.emb ab.emb | emb-cat | wc -l | tr -d ' '
# A different dimension after a trailer.
printf 'c1\t1 2\n' | emb-cat -r >c.emb
cat a.emb c.emb | emb-cat >out
echo "exit $?"
cat out
