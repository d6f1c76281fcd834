# The store: built once (-B), checked (-C), used like the file it came
# from; a damaged store is refused with a message, never read.
cp "$TESTDATA/lookup/tiny.vec" .
v=tiny.vec
emb-lookup -e "$v" -B tiny.store
emb-lookup -C -e tiny.store
printf 'the cat\nThe dog\n' >q.txt
emb-lookup -q -e "$v" q.txt >a.emb
emb-lookup -q -e tiny.store q.txt >b.emb
cmp a.emb b.emb && echo "store lookups = file lookups"
emb-lookup -e tiny.store -n 3 -D | emb-cat -k
# A word2vec binary from the store's dump, and back.
emb-lookup -e tiny.store -D >tiny.emb
emb-lookup -q -e tiny.emb -B again.store
cmp tiny.store again.store && echo "store from emb dump = store from text"
size=$(wc -c <tiny.store)
head -c $((size - 1)) tiny.store >cut.store
emb-lookup -e cut.store -D >/dev/null
echo "truncated: exit $?"
head -c 40 tiny.store >head.store
emb-lookup -e head.store -D >/dev/null
echo "header only: exit $?"
# Change one byte of a word, then one of a vector.
{ head -c $((size - 80)) tiny.store; printf 'Z'; tail -c 79 tiny.store; } \
    >word.store
emb-lookup -e word.store -D >/dev/null
echo "word changed: exit $?"
{ head -c 70 tiny.store; printf 'Z'; tail -c +72 tiny.store; } >vec.store
emb-lookup -C -e vec.store
echo "vector changed, -C: exit $?"
# Building into a directory that does not exist leaves nothing behind.
emb-lookup -q -e "$v" -B no/such/dir/x.store
echo "bad output: exit $?"
# A store is not an input to -B.
emb-lookup -q -e tiny.store -B x.store
echo "store as input: exit $?"
ls x.store 2>/dev/null
exit 0
