# emb-cat ... | head -1 ends quietly: no message, and the emb-cat stage
# ends by SIGPIPE (status 141) or cleanly, never with an error.  The stage's
# own status is taken through a FIFO.
set -u
zcat "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" | sed 1d | head -3000 |
    awk '{ k = $1; $1 = ""; print k "\t" substr($0, 2) }' >w.txt
emb-cat -r w.txt >x.emb
mkfifo f
emb-cat x.emb >f 2>err &
pid=$!
head -1 <f | cut -c 1-30
wait $pid
st=$?
case $st in 0|141) echo "text: stage ended quietly" ;; *) echo "exit $st" ;; esac
cat err
# The binary direction, and -k.
emb-cat -r w.txt >f 2>err &
pid=$!
head -c 16 <f | od -A n -t x1 | head -1
wait $pid
st=$?
case $st in 0|141) echo "-r: stage ended quietly" ;; *) echo "exit $st" ;; esac
cat err
emb-cat -k x.emb >f 2>err &
pid=$!
head -1 <f
wait $pid
st=$?
case $st in 0|141) echo "-k: stage ended quietly" ;; *) echo "exit $st" ;; esac
cat err
