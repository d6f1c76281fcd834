# emb-cat -f and emb-lookup -D round-trip at the edges: a first word of
# 4,200 bytes and one of the longest the writer accepts (65,536 bytes) at
# dimensions 1, 2 and 300, each format plain and gzip-compressed (a
# word2vec text file once read such a first line as binary, exit 0); and
# an empty stream: word2vec and fastText files hold "0 dim" and read back
# as an empty set of that dimension; an empty GloVe file, which could not
# tell its dimension, is refused before anything is written.
set -u
for wl in 4200 65536; do
	w=$(awk -v n=$wl 'BEGIN { while (n--) printf "a" }')
	for d in 1 2 300; do
		awk -v w="$w" -v d=$d 'BEGIN {
			printf "%s\t", w
			for (i = 1; i <= d; i++)
				printf "%s%s", (i > 1 ? " " : ""), i + 0.5
			printf "\nb\t"
			for (i = 1; i <= d; i++)
				printf "%s%s", (i > 1 ? " " : ""), -i
			printf "\n" }' | emb-cat -r >x.emb
		for f in w2vbin w2vtext glove vec; do
			for z in "" -z; do
				emb-cat -f $f $z x.emb >o.$f ||
				    echo "$wl $d $f: exit $?"
				emb-lookup -D -e o.$f | cmp -s - x.emb &&
				    r=same || r=DIFFER
				echo "word $wl, dim $d, $f${z:+ $z}: $r"
			done
		done
	done
done
printf '' | emb-cat -r -d 4 >e.emb
for f in w2vbin w2vtext vec; do
	for z in "" -z; do
		emb-cat -f $f $z e.emb >o.$f
		emb-lookup -D -e o.$f | cmp -s - e.emb && r=same || r=DIFFER
		echo "empty, $f${z:+ $z}: $r"
	done
done
emb-cat -f w2vtext e.emb
emb-cat -f glove -o empty.glove e.emb
echo "glove: exit $?"
test -e empty.glove && echo "empty.glove written"
# A "0 dim" header followed by a word is data the header does not declare.
printf '0 2\nw 1 2\n' >more.txt
emb-lookup -D -e more.txt >/dev/null
echo "more: exit $?"
exit 0
