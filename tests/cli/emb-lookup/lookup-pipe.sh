# A closed pipe ends quietly; a full disk is an error; a terminal is
# refused for binary output (not testable here without a tty).
v=$EXDATA/glove-6B-100d-2.6k.txt.gz
yes 'the cat sat on the mat' | head -20000 >q.txt
emb-lookup -q -e "$v" q.txt | head -c 100 >/dev/null
echo "head: done"
emb-lookup -q -e "$v" q.txt >/dev/full
echo "/dev/full: exit $?"
emb-lookup -e "$v" -D >/dev/full
echo "/dev/full dump: exit $?"
