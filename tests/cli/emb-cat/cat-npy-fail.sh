# emb-cat -N: a failed run leaves nothing that reads as a whole array.  A
# file is written under a temporary name and renamed at the end, so that
# bad input or a signal leaves no .npy (and an older one as it was); a
# FIFO receives the array only once the input has been read whole.
set -u
printf 'a\t1 2\nb\t3 4\nc\t5 6\n' | emb-cat -r >x.emb
emb-cat -N good.npy x.emb >keys
echo "whole: exit $?"
cp good.npy before.npy
head -c 40 x.emb >cut.emb
emb-cat -N new.npy cut.emb >/dev/null
echo "truncated input, new file: exit $?"
emb-cat -N good.npy cut.emb >/dev/null
echo "truncated input over an older file: exit $?"
cmp good.npy before.npy && echo "good.npy: unchanged"
ls
# The output named like the input.
cp x.emb y.emb
emb-cat -N y.emb y.emb
echo "-N its own input: exit $?"
cmp x.emb y.emb && echo "y.emb: unchanged"
emb-cat -N y.emb <y.emb
echo "-N its own standard input: exit $?"
cmp x.emb y.emb && echo "y.emb: unchanged"
ln -s good.npy link.npy
emb-cat -N link.npy x.emb
echo "-N a symbolic link: exit $?"
# A FIFO: the whole array, or nothing.
mkfifo p
cat p >got.npy &
emb-cat -N p x.emb >/dev/null
echo "FIFO: exit $?"
wait
cmp got.npy good.npy && echo "FIFO: the same bytes as the file"
cat p >got.npy &
emb-cat -N p cut.emb
echo "FIFO, truncated input: exit $?"
wait
echo "FIFO received $(wc -c <got.npy | tr -d ' ') bytes"
emb-cat -N /dev/full x.emb >/dev/null
echo "/dev/full: exit $?"
# A run stalled on its input (the start of a stream), then ended by a
# signal once its output is open: SIGKILL too leaves nothing behind.
. "${0%/*}/../signal.inc"
head -c 40 x.emb >head.emb
for sig in TERM HUP INT KILL; do
	stalled $sig s.npy head.emb emb-cat -N s.npy in
done
exit 0
