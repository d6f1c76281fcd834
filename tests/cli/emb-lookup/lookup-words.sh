# Word mode on SEMCAT word lists: one word per line; the label is the file
# name without extension and count (animal-268.txt -> animal), or -L, or
# the line's own second field.  Ungrouped records keyed word<TAB>label.
v=$EXDATA/word2vec-googlenews-300d-13k.vec.gz
c=$EXDATA/semcat/Categories
cp "$c/animal-268.txt" .
emb-lookup -q -e "$v" -B w2v.store
emb-lookup -w -e w2v.store animal-268.txt >animal.emb
emb-cat -k animal.emb | head -3
emb-cat -k animal.emb | cut -f2 | sort | uniq -c
# Every category, concatenated: one stream, label per record.
for f in "$c"/*.txt; do
	emb-lookup -q -w -e w2v.store "$f" || echo "failed on $f"
done >all.emb
emb-cat -k all.emb | cut -f2 | sort | uniq -c | sort -rn | head -3
emb-cat -k all.emb | wc -l
# -L, stdin, fields on the line, a blank line, a missing word, -o zero.
printf 'cat\n\n  dog  \nzzqx\n' | emb-lookup -w -e w2v.store -L pets |
    emb-cat -k
printf 'cat\tpets\tdev\nzzqx\tnone\n' | emb-lookup -w -o zero -e w2v.store |
    emb-cat -k
