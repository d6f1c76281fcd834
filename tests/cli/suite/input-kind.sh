# An input of another kind where a stream or a store is expected: the
# message says what it is and which command reads it (zcat, emb-cat -n,
# emb-lookup -D -e, -B), exit 1.
set -u
cp "$TESTDATA/lookup/tiny.vec" .
emb-lookup -q -e tiny.vec -D >s.emb || exit 1
emb-lookup -q -e tiny.vec -B s.store || exit 1
gzip -c s.emb >s.emb.gz
emb-cat -N s.npy s.emb >keys || exit 1
tail -n +2 tiny.vec >glove.txt
emb-cat s.emb >view.txt
for f in s.emb.gz s.npy tiny.vec glove.txt view.txt s.store; do
	emb-cat "$f" >/dev/null
	echo "emb-cat $f: exit $?"
done
emb-knn -k 1 tiny.vec s.emb >/dev/null; echo "emb-knn: exit $?"
emb-eval -k 2 <s.emb.gz; echo "emb-eval, standard input: exit $?"
emb-lookup -C -e s.emb; echo "emb-lookup -C: exit $?"
emb-lookup -C -e tiny.vec; echo "emb-lookup -C: exit $?"
# A NumPy array as an embedding file; sentences where a stream is due.
emb-lookup -e s.npy </dev/null; echo "emb-lookup -e s.npy: exit $?"
printf 'king queen\nman woman\n' >sentences.txt
emb-ose sentences.txt; echo "emb-ose sentences.txt: exit $?"
# The ways named work.
zcat s.emb.gz | emb-cat | cmp -s - view.txt && echo "zcat: the stream"
emb-lookup -D -e glove.txt | emb-cat | cmp -s - view.txt &&
    echo "emb-lookup -D -e: the stream"
emb-cat -n s.npy -K keys | emb-lookup -q -D -e - | emb-cat |
    cmp -s - view.txt && echo "emb-cat -n: the stream"
