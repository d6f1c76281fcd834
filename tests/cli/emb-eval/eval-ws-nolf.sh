# A word-similarity file whose last line has no LF, as EN-SimVerb-3500.txt
# and EN-MTurk-287.txt of the eval-word-vectors set end: a regular file is
# what it holds (emb(5), TEXT INPUTS), so emb-eval -w reads its last pair
# and gives the figures the file with the LF gives.  The same bytes from a
# FIFO whose writer stopped there may have been cut mid-line: exit 1.
set -u
emb-cat -r "$TESTDATA/ws-words.txt" >w.emb || exit 1
head -c -1 "$TESTDATA/ws-pairs.txt" >pairs.txt
tail -n 1 pairs.txt
echo
emb-eval -w "$TESTDATA/ws-pairs.txt" -T ws w.emb >lf.out
echo "with the LF: exit $?"
emb-eval -w pairs.txt -T ws w.emb >nolf.out
echo "without: exit $?"
cmp lf.out nolf.out && cat nolf.out
# The last pair counts: without it, one pair fewer.
head -n -1 pairs.txt >short.txt
emb-eval -w short.txt -T ws w.emb | grep pairs
mkfifo f
cat pairs.txt >f &
emb-eval -w f -T ws w.emb
echo "FIFO, no LF: exit $?"
wait
exit 0
