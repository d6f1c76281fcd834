# A binary stream is not written to a terminal (exit 2); text is.  The
# terminal comes from script(1), tried on true first: without one (no
# script, or no /dev/pts to make a terminal in) the test skips.
set -u
. "${0%/*}/../tty.inc"
need_tty
printf 'a\t1 2\n' >x.txt
emb-cat -r x.txt >x.emb
script -qec "emb-cat -r x.txt" /dev/null >out 2>&1
st=$?
echo "exit $st: $(grep -o 'refusing to write a binary stream to a terminal' out)"
script -qec "emb-cat x.emb" /dev/null >out 2>&1
echo "text: exit $?"
