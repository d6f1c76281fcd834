# A store built before stores kept the search's codes (tests/data/
# store-v1.hex) still answers, as the store built again does, and says
# that it was quantized at load.  A store whose words need escaping in
# keys (a backslash) answers as its stream does, -s included; --similarity
# prints 1 - the distance.
"$UNHEX" <"$TESTDATA/store-v1.hex" >old.store || exit 1
printf 'king 0.5 -1\nqueen 2 0.25\nman 1 0\nwoman 1.5 0.5\n' >tiny.txt
emb-lookup -q -e tiny.txt -B new.store || exit 1
printf 'q1\t1 1\nq2\t-1 0\nman\t1 0.1\n' | emb-cat -r >q.emb || exit 1
emb-knn -k 4 new.store q.emb >a.txt || exit 1
emb-knn -k 4 old.store q.emb >b.txt || exit 1
cmp a.txt b.txt || exit 1
emb-knn -s -k 2 new.store q.emb >a.txt || exit 1
emb-knn -s -k 2 old.store q.emb 2>/dev/null >b.txt || exit 1
cmp a.txt b.txt || exit 1
cat a.txt
printf 'a\\b 1 0\nc 0 1\nd 1 1\n' >esc.txt
emb-lookup -q -e esc.txt -B esc.store || exit 1
sed 's/\\/\\\\/; s/ /\t/' esc.txt | emb-cat -r >esc.emb || exit 1
emb-knn -s -k 2 esc.store esc.emb >a.txt || exit 1
emb-knn -s -k 2 esc.emb esc.emb >b.txt || exit 1
cmp a.txt b.txt || exit 1
cat a.txt
# --similarity: 1 - the distance beside it.
emb-knn --similarity -k 2 new.store q.emb | awk -F '\t' '
    { print; if ($5 + 0 != 1 - $4) print "similarity is not 1 - distance" }'
