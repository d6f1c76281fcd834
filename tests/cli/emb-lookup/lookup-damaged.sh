# A store whose vectors were damaged after it was built (the whole vectors
# region is checksummed by -C, each row as it is read): the damaged row is
# named with the store and the word, in every mode, not as an output
# error, and the rows intact still read.
printf '2 2\nking 1.5 2\nqueen 3 4\n' >v.txt
emb-lookup -q -e v.txt -B s.store || exit 1
# 1.5 is 00 00 c0 3f; 00 00 c0 7f is a NaN.
perl -0777 -pi -e 's/\x00\x00\xc0\x3f/\x00\x00\xc0\x7f/' s.store
emb-lookup -C -e s.store
echo "-C: exit $?"
emb-lookup -e s.store -D >/dev/null
echo "-D: exit $?"
echo king | emb-lookup -q -e s.store >/dev/null
echo "lines: exit $?"
echo king | emb-lookup -q -w -e s.store >/dev/null
echo "-w: exit $?"
echo queen | emb-lookup -q -e s.store | emb-cat
