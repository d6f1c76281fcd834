# One rule for every file a program names (emb(5), NAMED OUTPUTS): a
# regular file is written whole or not at all, and a program killed
# even by SIGKILL leaves nothing under any name; a FIFO or a device
# (/dev/null) is opened at once and gets the whole output at the end,
# nothing on failure; a directory is refused (exit 2), and a store, which
# is mapped, must be a regular file.
set -u
. "${0%/*}/../signal.inc"
printf 'a\t1 0\nb\t0 1\nc\t1 .5\nd\t.5 1\n' | emb-cat -r >x.emb || exit 1
head -c 40 x.emb >head.emb
emb-cat -f vec x.emb >want.vec
for o in "emb-cat -f vec -o" "emb-cat -N" "emb-normalize -q -F"; do
	$o /dev/null x.emb >/dev/null
	echo "$o /dev/null: exit $?"
done
mkfifo f
cat f >got.vec &
emb-cat -f vec -o f x.emb
echo "-o FIFO: exit $?"
wait
cmp got.vec want.vec && echo "FIFO: the same bytes as stdout"
cat f >got.vec &
emb-cat -f vec -o f head.emb 2>/dev/null
echo "-o FIFO, truncated input: exit $?"
wait
echo "FIFO received $(wc -c <got.vec) bytes"
mkdir d
emb-cat -f vec -o d x.emb
echo "-o a directory: exit $?"
emb-lookup -q -e want.vec -B /dev/null
echo "-B /dev/null: exit $?"
for sig in KILL TERM; do
	stalled $sig o.vec head.emb emb-cat -f vec -o o.vec in
	stalled $sig o.npy head.emb emb-cat -N o.npy in
	stalled $sig m.txt head.emb emb-normalize -q -F m.txt in
	stalled $sig s.store head.emb emb-lookup -q -e in -B s.store
done
ls
exit 0
