# Duplicate words in an embedding file: the first is kept, one warning
# with the count; CRLF line ends.
cp "$TESTDATA/lookup/dups.txt" .
v=dups.txt
emb-lookup -e "$v" -D | emb-cat
emb-lookup -q -e "$v" -D | emb-cat -k | wc -l
emb-lookup -e "$v" -B d.store
