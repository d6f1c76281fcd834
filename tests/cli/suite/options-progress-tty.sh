# Progress on a terminal (script(1) gives one; options-progress.sh off
# one): emb-eval shows its folds without -v, a line rewritten in place,
# and -q hides it.  script needs a pseudo-terminal, which a container
# without /dev/pts cannot make: it is tried on true first, and the test
# skips when that fails.
set -u
. "${0%/*}/../tty.inc"
need_tty
emb-cat -r "$TESTDATA/eval-train.txt" >train.emb || exit 1
script -qec "emb-eval -k 3 -c centroid train.emb >tty.out" /dev/null \
    >tty.txt </dev/null
grep -c 'fold 3 of 3' tty.txt
tr '\r' '\n' <tty.txt | grep -c 'centroid: fold'
script -qec "emb-eval -q -k 3 -c centroid train.emb >tty.out" \
    /dev/null >tty.txt </dev/null
grep -c 'fold' tty.txt
exit 0
