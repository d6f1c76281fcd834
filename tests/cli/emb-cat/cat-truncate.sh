# A valid stream cut after every byte: exit 1 and a message naming the
# input and the record each time.  Printed: each distinct message, with how
# many cut points give it.
set -u
printf 'g\t#2\na\t1 2 3\nb\t-0.5 0 1e-10\nc\t7 8 9\n' | emb-cat -r >x.emb
size=$(wc -c <x.emb)
echo "stream of $size bytes"
n=0
while [ $n -lt "$size" ]; do
	head -c $n x.emb >cut.emb
	emb-cat <cut.emb >/dev/null 2>err
	st=$?
	[ $st = 1 ] || echo "cut at $n: exit $st"
	cat err >>all
	n=$((n + 1))
done
sed 's/after [0-9]* of 16/after N of 16/' all | sort | uniq -c |
    sed 's/^ *//'
emb-cat <x.emb >/dev/null && echo "whole stream: exit 0"
