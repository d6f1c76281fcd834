# The bundled real files in every format, plain and gzip, give identical
# vectors for every word: the fastText .vec (text) and .bin (word2vec
# binary) hold the same vectors; each text file plain equals its gzip; an
# emb(5) dump read back equals itself; a store built from any of them
# dumps the same stream.  With ../shared/data present, the full files too.
x=$EXDATA
for f in fasttext-en-300d-2k.vec fasttext-en-300d-2k.w2v.bin \
    glove-6B-300d-1k.txt glove-6B-100d-2.6k.txt \
    word2vec-googlenews-300d-13k.vec; do
	gunzip -c "$x/$f.gz" >"$f"
done
dump() {
	emb-lookup -q -e "$1" -D >"$2" || echo "dump of $1 failed"
}
dump "$x/fasttext-en-300d-2k.vec.gz" ft-vec-gz.emb
dump "$x/fasttext-en-300d-2k.w2v.bin.gz" ft-bin-gz.emb
dump fasttext-en-300d-2k.vec ft-vec.emb
dump fasttext-en-300d-2k.w2v.bin ft-bin.emb
for v in ft-bin-gz ft-vec ft-bin; do
	cmp -s ft-vec-gz.emb $v.emb && echo "fastText: .vec.gz = $v"
done
emb-cat ft-vec.emb | awk -F '\t' 'END { print "fastText words:", NR }'
for f in glove-6B-300d-1k.txt glove-6B-100d-2.6k.txt \
    word2vec-googlenews-300d-13k.vec; do
	dump "$x/$f.gz" gz.emb
	dump "$f" plain.emb
	cmp -s gz.emb plain.emb && echo "$f: gzip = plain"
	# The dump, read back as an emb(5) vocabulary, and gzip'd.
	dump plain.emb again.emb
	cmp -s plain.emb again.emb && echo "$f: emb dump = itself"
	if [ $f = glove-6B-100d-2.6k.txt ]; then
		gzip -1 -c plain.emb >plain.emb.gz
		dump plain.emb.gz again.emb
		cmp -s plain.emb again.emb && echo "$f: emb dump gzip = itself"
	fi
	emb-lookup -q -e "$x/$f.gz" -B s.store &&
	    dump s.store store.emb && cmp -s plain.emb store.emb &&
	    echo "$f: store = file"
	emb-cat plain.emb | awk -F '\t' -v f=$f '
	    END { print f " words:", NR, "dimension:", split($2, a, " ") }'
done
# The emb(5) view of one word equals the text file's line, as strtof reads
# it: emb-cat prints the shortest text that reads back the same float.
grep '^king ' glove-6B-100d-2.6k.txt | cut -d' ' -f2- | tr ' ' '\n' >a.txt
emb-lookup -q -e "$x/glove-6B-100d-2.6k.txt.gz" -D | emb-cat |
    awk -F '\t' '$1 == "king" { print $2 }' | tr ' ' '\n' >b.txt
awk 'NR == FNR { a[FNR] = $1; next } a[FNR] + 0 != $1 + 0 { bad++ }
    END { print "king: components differing from the text:", bad + 0 }' \
    a.txt b.txt

# The shared full copies, when this checkout sits beside them.
s=$TESTDATA/../../../shared/data/embeddings
if [ -d "$s" ]; then
	dump "$s/fasttext-en-300d-2k.vec" sv.emb
	dump "$s/fasttext-en-300d-2k.bin" sb.emb
	cmp -s sv.emb sb.emb && cmp -s sv.emb ft-vec.emb ||
	    echo "shared fastText files differ"
	for f in glove-6B-300d-1k.txt glove-6B-100d-2.6k.txt; do
		dump "$s/$f" sg.emb
		dump "$f" g.emb
		cmp -s sg.emb g.emb || echo "shared $f differs"
	done
	dump "$s/word2vec-googlenews-300d-13k.vec.gz" sw.emb
	dump word2vec-googlenews-300d-13k.vec w.emb
	cmp -s sw.emb w.emb || echo "shared word2vec file differs"
fi
exit 0
