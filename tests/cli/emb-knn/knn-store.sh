# The reference set may be an emb-lookup store: the same answers as from
# the stream of the same vectors.  Without emb-lookup (or without store
# support in this build), the stream alone gives the expected output.
gzip -dc "$EXDATA/glove-6B-100d-2.6k.txt.gz" >glove.txt
awk '{ w = $1; gsub(/\\/, "\\\\", w); $1 = ""; print w "\t" substr($0, 2) }' \
    glove.txt | emb-cat -r >glove.emb || exit 1
printf 'king\tx\t#1\nking\t%s\nparis\tx\t#1\nparis\t%s\n' \
    "$(grep '^king ' glove.txt | cut -d ' ' -f 2-)" \
    "$(grep '^paris ' glove.txt | cut -d ' ' -f 2-)" | emb-cat -r >q.emb ||
    exit 1
ref=glove.emb
if command -v emb-lookup >/dev/null 2>&1 &&
    emb-lookup -q -e glove.txt -B glove.store 2>/dev/null; then
	ref=glove.store
	emb-knn -k 5 glove.store <glove.emb >a.txt || exit 1
	emb-knn -k 5 glove.emb <glove.emb >b.txt || exit 1
	cmp a.txt b.txt || exit 1
	head -c 1000 glove.store >bad.store
	emb-knn bad.store <q.emb 2>/dev/null
	[ $? = 1 ] || echo "a truncated store is not refused"
fi
emb-knn -s -k 3 $ref <q.emb
