# emb-knn opens its reference once: a FIFO (or a process substitution)
# holding a stream is read as the stream, neither sniffed away nor waited
# for a second time.  A store must be a regular file, as it is mapped.
set -u
cp "$TESTDATA/lookup/tiny.vec" .
emb-lookup -q -e tiny.vec -D >r.emb
emb-lookup -q -e tiny.vec -B r.store
printf 'the cat\n' | emb-lookup -q -e tiny.vec >q.emb
emb-knn -k 2 r.emb q.emb >want
mkfifo f
cat r.emb >f &
timeout 600 emb-knn -k 2 f q.emb >got
echo "FIFO: exit $?"
kill $! 2>/dev/null
cmp got want && echo "FIFO: the same neighbours as the file"
emb-knn -k 2 r.store q.emb | cmp - want && echo "store: the same neighbours"
emb-knn -k 2 - q.emb <r.store | cmp - want &&
    echo "store on standard input: the same neighbours"
cat r.store >f &
timeout 600 emb-knn -k 2 f q.emb
echo "store through a FIFO: exit $?"
kill $! 2>/dev/null
exit 0
