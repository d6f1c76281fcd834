# emb-cat -f writes word2vec binary and text, GloVe text and fastText .vec,
# plain and gzip-compressed, and emb-lookup -D reads each back to the very
# stream written; through a pipe (spooled) and to a named file alike.
set -u
emb-lookup -D -e "$EXDATA/glove-6B-100d-2.6k.txt.gz" >g.emb
printf 'tiny\t1e-45 -0 3.4028235e+38\nneg\t-1.1754942e-38 0.1 -7\né\t0 1 2\n' |
    emb-cat -r >x.emb
for s in x g; do
	for f in w2vbin w2vtext glove vec; do
		for z in "" -z; do
			emb-cat -f $f $z $s.emb >o.$f || echo "$s $f $z: exit $?"
			if emb-lookup -D -e o.$f | cmp -s - $s.emb; then
				r=same
			else
				r=DIFFER
			fi
			cat $s.emb | emb-cat -f $f $z -o n.$f
			cmp -s o.$f n.$f || r="$r, -o from a pipe differs"
			echo "$s $f${z:+ $z}: $r"
		done
	done
done
# The bytes: word2vec and fastText put a space after each value, GloVe
# between values; word2vec binary a newline after each vector.
for f in w2vtext vec glove; do
	echo "== $f"
	emb-cat -f $f x.emb
done
echo "== w2vbin"
emb-cat -f w2vbin x.emb | od -A d -t x1 | sed 's/  */ /g'
# gzip(1) reads the compressed one as the plain one.
emb-cat -f vec g.emb >plain.vec
emb-cat -f vec -z g.emb | gzip -dc | cmp - plain.vec && echo "gzip -dc: same"
