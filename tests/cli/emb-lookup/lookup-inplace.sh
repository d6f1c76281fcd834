# A plain word2vec binary file is used in place, its vectors read where
# they lie in the mapped file: the same output as the same file through a
# pipe (read and copied), for lookups, the vocabulary dump, -l, and a
# duplicate word (the first is kept).
gunzip -c "$EXDATA/fasttext-en-300d-2k.w2v.bin.gz" >ft.bin
# Append a second "the" holding the vector of the first word (",").
hdr=$(head -1 ft.bin)
n=${hdr% *}
{ echo "$((n + 1)) ${hdr#* }"; tail -c +$((${#hdr} + 2)) ft.bin
  printf 'the '; tail -c +$((${#hdr} + 4)) ft.bin | head -c 1200; } >dup.bin
printf 'the cat sat on the mat\nThe Zzyzx\n\n,\n' >q.txt
for f in ft.bin dup.bin; do
	for opt in "" "-c" "-l" "-o zero" "-n 100"; do
		emb-lookup -q $opt -e $f q.txt >mapped.emb
		cat $f | emb-lookup -q $opt -e - q.txt >piped.emb
		cmp -s mapped.emb piped.emb && echo "$f ${opt:-(no option)}:" \
		    "mapped = piped, $(emb-cat -k mapped.emb | wc -l) records"
	done
	emb-lookup -q -e $f -D >mapped.emb
	cat $f | emb-lookup -q -e - -D >piped.emb
	cmp -s mapped.emb piped.emb && echo "$f -D: mapped = piped," \
	    "$(emb-cat -k mapped.emb | wc -l) words"
done
# The duplicate is reported and dropped: "the" keeps its own vector.
emb-lookup -e dup.bin q.txt 2>&1 >/dev/null | sed 's/^[^:]*: //'
emb-lookup -q -e ft.bin -D | emb-cat | grep '^the	' >a.txt
emb-lookup -q -e dup.bin -D | emb-cat | grep '^the	' >b.txt
cmp -s a.txt b.txt && echo "the: first vector kept"
